// The image form: prompt, model (its price per image shown before generating), count and size.
import { useEffect, useId, useRef, type FormEvent } from "react";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import type { IpcError } from "../../../ipc/contract";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { ModelPicker } from "../models/ModelPicker";
import type { CatalogSource } from "../models/OfflineNote";
import { imagePriceLine } from "../shared/price";
import { IMAGE_SIZES } from "./gallerySearch";

export interface ImageDraft {
  prompt: string;
  model: string;
  count: number;
  size: string;
}

export function ImageComposer({
  models,
  source,
  draft,
  onChange,
  onGenerate,
  pending,
  error,
  onRetry,
  focusModel,
}: {
  models: CatalogModel[];
  /** The catalog's view: offline, the form says how old the kept list is. */
  source?: CatalogSource;
  draft: ImageDraft;
  onChange: (d: ImageDraft) => void;
  onGenerate: () => void;
  pending: boolean;
  error: IpcError | null;
  onRetry: () => void;
  /** Changes when "same prompt on another model" asks for the model picker. */
  focusModel: number;
}) {
  const id = useId();
  const modelRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (focusModel > 0) modelRef.current?.focus();
  }, [focusModel]);
  const model = models.find((m) => m.id === draft.model);
  const empty = !draft.prompt.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!empty && draft.model && !pending) onGenerate();
  };
  return (
    <form className="card studio-form" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h2 id={`${id}-title`}>New images</h2>
      <div className="field">
        <label htmlFor={`${id}-prompt`}>Prompt</label>
        <textarea
          id={`${id}-prompt`}
          className="textarea"
          value={draft.prompt}
          placeholder="A lighthouse at dusk, watercolour"
          onChange={(e) => onChange({ ...draft, prompt: e.target.value })}
        />
      </div>
      <div className="studio-options">
        <ModelPicker
          label="Model"
          models={models}
          source={source}
          value={draft.model}
          onChange={(m) => onChange({ ...draft, model: m })}
          autoSelect={false}
          selectRef={modelRef}
        />
        <div className="field">
          <label htmlFor={`${id}-count`}>Images</label>
          <select
            id={`${id}-count`}
            className="select"
            value={draft.count}
            onChange={(e) => onChange({ ...draft, count: Number(e.target.value) })}
          >
            {[1, 2, 3, 4].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-size`}>Size</label>
          <select id={`${id}-size`} className="select" value={draft.size} onChange={(e) => onChange({ ...draft, size: e.target.value })}>
            {IMAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s.replace("x", " × ")}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="price-line" aria-live="polite">
        {imagePriceLine(model, draft.count)}
      </p>
      {error && <ErrorPanel error={error} onRetry={onRetry} />}
      <div className="studio-actions form-submit">
        <button className="btn btn-primary" type="submit" disabled={pending || empty || !draft.model}>
          {pending ? "Generating…" : draft.count === 1 ? "Generate image" : `Generate ${draft.count} images`}
        </button>
        {empty && <span className="muted hint-inline">Write a prompt first.</span>}
      </div>
    </form>
  );
}
