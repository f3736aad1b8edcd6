// "Request id · credits charged · balance after" of one call, from what the call reported. A part
// the service did not report is left out; when nothing is known the line says so.
import { formatCreditsWord as credits } from "../../../lib/format";
import { usd } from "./price";
import type { Charge } from "./charges";

export function CostLine({
  charge,
  creditsFallback,
  cost,
  label = "What this call cost",
}: {
  charge: Charge | null;
  /** Credits the result itself carries, used when the call's charge has none. */
  creditsFallback?: number;
  /** USD the model reported (`usage.cost`). */
  cost?: number;
  label?: string;
}) {
  const charged = charge?.creditsCharged ?? creditsFallback;
  const parts: { key: string; text: string; mono?: string }[] = [];
  if (charge?.requestId) parts.push({ key: "id", text: "Request id ", mono: charge.requestId });
  if (charge?.pending) parts.push({ key: "charged", text: "Charge not settled yet" });
  else if (charged !== undefined) {
    parts.push({ key: "charged", text: `${credits(charged)} charged${charge?.estimated ? " (estimated)" : ""}` });
  }
  if (cost !== undefined) parts.push({ key: "cost", text: `model cost ${usd(cost)}` });
  if (charge?.balanceAfter !== undefined) parts.push({ key: "balance", text: `balance after: ${credits(charge.balanceAfter)}` });
  return (
    <p className="cost-line" aria-label={label}>
      {parts.length === 0
        ? "The service did not report what this call cost."
        : parts.map((p, i) => (
            <span key={p.key}>
              {i > 0 && <span aria-hidden="true"> · </span>}
              {p.text}
              {p.mono && <code className="mono">{p.mono}</code>}
            </span>
          ))}
    </p>
  );
}
