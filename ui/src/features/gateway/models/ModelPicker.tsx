// The one model picker of the Gateway studio: every model of a kind from the catalogs (authed,
// else public), grouped by lab, newest first. Chat, compare, rerank's "Ask a spec" and the media
// studios all use it, so a model shows the same name everywhere. Offline, it lists the copies kept
// on this computer and says how old they are.
import { useEffect, useId, useMemo, type Ref } from "react";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { isKind, labOf, mergeCatalogs, priceLabel, type ModelKind } from "./catalog";
import { OfflineNote, type CatalogSource } from "./OfflineNote";
import { useGatewayModels, useImageModels, usePublicCatalog, useVideoModels } from "./queries";

/** The models of one kind from every catalog the connection can read, newest first. */
export function useModelsOf(kind: ModelKind): { models: CatalogModel[]; loading: boolean; sources: (CatalogSource | undefined)[] } {
  const pub = usePublicCatalog();
  const authed = useGatewayModels();
  const images = useImageModels();
  const videos = useVideoModels();
  const models = useMemo(
    () => mergeCatalogs(pub.data?.list.data, authed.data?.list.data, images.data?.list.data, videos.data?.list.data).filter((m) => isKind(m, kind)),
    [pub.data, authed.data, images.data, videos.data, kind],
  );
  return { models, loading: pub.isPending && authed.isPending, sources: [pub.data, authed.data, images.data, videos.data] };
}

export interface ModelPickerProps {
  label: string;
  /** The models offered: every model of `kind` from the catalogs... */
  kind?: ModelKind;
  /** ...or a studio's own list from them (its priced list, already narrowed). */
  models?: CatalogModel[];
  /** The catalog `models` came from: when it is the kept copy, the picker says how old. */
  source?: CatalogSource;
  value: string;
  onChange: (id: string) => void;
  /** A hint under the field. */
  hint?: string;
  /** The chosen model's price line, under the field. */
  price?: string;
  disabled?: boolean;
  /** Model ids not to offer (e.g. a compare lane's neighbours). */
  exclude?: string[];
  /** Whether to pick the newest model when `value` is empty (default true). */
  autoSelect?: boolean;
  /** Shows a row's price next to its name (image and video pickers). */
  showPrice?: boolean;
  /** The select element (a studio moves the focus to it). */
  selectRef?: Ref<HTMLSelectElement>;
}

/** The catalogs' models of `kind`, unless the studio gives its own list. */
function useOffered(kind: ModelKind | undefined, given: CatalogModel[] | undefined, source: CatalogSource | undefined) {
  const fromKind = useModelsOf(kind ?? "any");
  return given ? { models: given, loading: false, sources: [source] } : fromKind;
}

/** The one model select of the studio: models grouped by lab, the chosen one's price under it. */
export function ModelPicker(props: ModelPickerProps) {
  const { label, kind, value, onChange, hint, price, disabled, exclude = [], autoSelect = true, showPrice = false, selectRef } = props;
  const id = useId();
  const { models, loading, sources } = useOffered(kind, props.models, props.source);
  const offered = models.filter((m) => m.id === value || !exclude.includes(m.id));
  const first = offered[0]?.id;
  useEffect(() => {
    if (autoSelect && !value && first) onChange(first);
  }, [autoSelect, value, first, onChange]);
  const groups = new Map<string, CatalogModel[]>();
  for (const m of offered) groups.set(labOf(m), [...(groups.get(labOf(m)) ?? []), m]);
  const known = offered.some((m) => m.id === value);
  const described = [hint ? `${id}-hint` : "", price ? `${id}-price` : ""].filter(Boolean).join(" ");
  return (
    <div className="field model-picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        ref={selectRef}
        className="select"
        value={value}
        disabled={disabled || (!loading && offered.length === 0)}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={described || undefined}
      >
        {!value && <option value="">{loading ? "Loading models…" : offered.length === 0 ? "No model available" : "Choose a model"}</option>}
        {value && !known && <option value={value}>{value}</option>}
        {[...groups].map(([lab, rows]) => (
          <optgroup key={lab} label={lab}>
            {rows.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name && m.name !== m.id ? `${m.name} (${m.id})` : m.id}
                {showPrice && priceLabel(m) ? ` — ${priceLabel(m)}` : ""}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {price && (
        <p className="price-line" id={`${id}-price`}>
          {price}
        </p>
      )}
      <OfflineNote sources={sources} />
    </div>
  );
}
