// The rerank model picker: the documented rerank ids (they are not in the catalogs).
import { useId } from "react";
import { RERANK_MODELS } from "./documents";

export function RerankModelSelect({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Rerank model</label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        {RERANK_MODELS.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </div>
  );
}
