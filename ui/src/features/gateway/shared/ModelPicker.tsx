// A model select of one studio: the catalog's ids with their names, and a price line shown under
// it before anything is sent; offline, how old the kept list is.
import { useId } from "react";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { OfflineNote, type CatalogSource } from "../models/OfflineNote";

export function ModelPicker({
  label,
  models,
  value,
  onChange,
  price,
  source,
  disabled = false,
}: {
  label: string;
  models: CatalogModel[];
  value: string;
  onChange: (id: string) => void;
  /** The price line of the chosen model (and amount). */
  price?: string;
  /** The catalog the models came from: when it is the kept copy, the picker says so. */
  source?: CatalogSource;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field model-picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        value={value}
        disabled={disabled || models.length === 0}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={price ? `${id}-price` : undefined}
      >
        {models.length === 0 && <option value="">No model available</option>}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name && m.name !== m.id ? `${m.name} (${m.id})` : m.id}
          </option>
        ))}
      </select>
      {price && (
        <p className="price-line" id={`${id}-price`}>
          {price}
        </p>
      )}
      <OfflineNote sources={[source]} />
    </div>
  );
}
