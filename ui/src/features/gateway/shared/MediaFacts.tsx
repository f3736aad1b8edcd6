// The facts of a saved file as a definition list: prompt, model, settings, cost and date.
import type { MediaItem } from "../../../ipc/contract";
import { formatDateTime } from "../../../lib/format";
import { formatCreditsWord as credits } from "../../../lib/format";
import { usd } from "./price";

export interface Fact {
  label: string;
  value: string;
}

/** The cost of a file: credits charged (on the first file of a batch), else the model's USD. */
export function costText(item: MediaItem): string {
  if (item.credits !== undefined) return credits(item.credits);
  if (item.cost !== undefined) return usd(item.cost);
  return "Charged with the first of its batch";
}

export function MediaFacts({ item, extra = [], showPrompt = true }: { item: MediaItem; extra?: Fact[]; showPrompt?: boolean }) {
  const facts: Fact[] = [
    ...(showPrompt ? [{ label: "Prompt", value: item.prompt || "—" }] : []),
    { label: "Model", value: item.model },
    ...extra,
    { label: "Cost", value: costText(item) },
    { label: "Made", value: formatDateTime(item.createdAt) },
  ];
  return (
    <dl className="media-meta">
      {facts.map((f) => (
        <div key={f.label}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
