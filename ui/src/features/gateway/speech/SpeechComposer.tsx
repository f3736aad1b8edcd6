// The speech and music form: speech (text, voice, delivery instructions, format) or music (a mood
// or style), the model of that kind with its price shown before generating.
import { useId, type FormEvent } from "react";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import type { IpcError } from "../../../ipc/contract";
import { ErrorPanel } from "../../../components/ErrorPanel";
import type { CatalogSource } from "../models/OfflineNote";
import { ModelPicker } from "../models/ModelPicker";
import { speechPriceLine } from "../shared/price";
import { SPEECH_FORMATS, VOICES, audioModels, modelKindLabel, type AudioMode } from "./speechModels";

export interface SpeechDraft {
  mode: AudioMode;
  input: string;
  model: string;
  voice: string;
  instructions: string;
  format: string;
}

export const EMPTY_SPEECH: SpeechDraft = { mode: "speech", input: "", model: "", voice: "alloy", instructions: "", format: "wav" };

export function SpeechComposer({
  catalog,
  source,
  draft,
  onChange,
  onGenerate,
  pending,
  error,
}: {
  catalog: CatalogModel[];
  /** The catalog's view: offline, the picker says how old the kept list is. */
  source?: CatalogSource;
  draft: SpeechDraft;
  onChange: (d: SpeechDraft) => void;
  onGenerate: () => void;
  pending: boolean;
  error: IpcError | null;
}) {
  const id = useId();
  const models = audioModels(catalog, draft.mode);
  const model = models.find((m) => m.id === draft.model);
  const music = draft.mode === "music";
  const empty = !draft.input.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!empty && draft.model && !pending) onGenerate();
  };
  return (
    <form className="card studio-form" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h2 id={`${id}-title`}>New take</h2>
      <fieldset className="mode-choice">
        <legend>Make</legend>
        {(["speech", "music"] as const).map((m) => (
          <label key={m} className="mode-option" data-checked={draft.mode === m}>
            <input type="radio" name={`${id}-mode`} checked={draft.mode === m} onChange={() => onChange({ ...draft, mode: m, model: "" })} />
            {m === "speech" ? "Speech" : "Music"}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-input`}>{music ? "Mood and style" : "Text to speak"}</label>
        <textarea
          id={`${id}-input`}
          className="textarea"
          value={draft.input}
          placeholder={music ? "Calm lo-fi piano, rainy evening" : "Welcome to the weekly product update."}
          onChange={(e) => onChange({ ...draft, input: e.target.value })}
        />
      </div>
      <div className="studio-options">
        <ModelPicker
          label={music ? "Music model" : "Speech model"}
          models={models}
          source={source}
          value={draft.model}
          onChange={(m) => onChange({ ...draft, model: m })}
        />
        <div className="field">
          <label htmlFor={`${id}-voice`}>Voice</label>
          <select id={`${id}-voice`} className="select" value={draft.voice} disabled={music} onChange={(e) => onChange({ ...draft, voice: e.target.value })}>
            {VOICES.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
          {music && <span className="hint">Music models ignore the voice.</span>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-format`}>Format</label>
          {music ? (
            <select id={`${id}-format`} className="select" value="mp3" disabled>
              <option value="mp3">MP3 (music is always MP3)</option>
            </select>
          ) : (
            <select id={`${id}-format`} className="select" value={draft.format} onChange={(e) => onChange({ ...draft, format: e.target.value })}>
              {SPEECH_FORMATS.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </select>
          )}
        </div>
      </div>
      {!music && (
        <div className="field">
          <label htmlFor={`${id}-instructions`}>Delivery instructions (optional)</label>
          <input
            id={`${id}-instructions`}
            className="input"
            value={draft.instructions}
            placeholder="Upbeat, a little faster, smile in the voice"
            onChange={(e) => onChange({ ...draft, instructions: e.target.value })}
          />
          <span className="hint">Left empty, the text is read as written, warmly.</span>
        </div>
      )}
      <p className="price-line" aria-live="polite">
        {model ? `${modelKindLabel(model.id)}: ${speechPriceLine(model, draft.input.length)}` : models.length === 0 ? `No ${draft.mode} model is listed for this connection.` : speechPriceLine(undefined, 0)}
      </p>
      {error && <ErrorPanel error={error} onRetry={onGenerate} />}
      <div className="studio-actions">
        <button className="btn btn-primary" type="submit" disabled={pending || empty || !draft.model}>
          {pending ? "Generating…" : music ? "Generate music" : "Generate speech"}
        </button>
        {empty && <span className="muted hint-inline">{music ? "Describe the mood first." : "Write the text first."}</span>}
      </div>
    </form>
  );
}
