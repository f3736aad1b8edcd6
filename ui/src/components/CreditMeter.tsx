import { useCallback, useState } from "react";
import type { CreditsView } from "../ipc/contract";
import { useCreditEvents, useCredits } from "../ipc/hooks";
import { formatCredits } from "../lib/format";

/** The active profile's balance, updated live by `credits-changed`, with the last change. */
export function CreditMeter() {
  const credits = useCredits();
  const [delta, setDelta] = useState<number | null>(null);
  const onChange = useCallback(
    (view: CreditsView) => {
      const before = credits.data;
      if (before && before.profileId === view.profileId) {
        const d = view.creditsRemaining - before.creditsRemaining;
        setDelta(Math.abs(d) > 1e-9 ? d : null);
      }
    },
    [credits.data],
  );
  useCreditEvents(onChange);
  if (credits.isPending) return <span className="muted">Checking balance…</span>;
  if (credits.isError) {
    return (
      <span className="muted" title={credits.error.message}>
        Balance unavailable
      </span>
    );
  }
  return (
    <span className="credits" aria-label={`Credits remaining: ${formatCredits(credits.data.creditsRemaining)}`}>
      <span className="credits-value">{formatCredits(credits.data.creditsRemaining)}</span>
      <span className="muted">credits</span>
      {delta !== null && (
        <span className="credits-delta" aria-live="polite">
          {delta > 0 ? "+" : "−"}
          {formatCredits(Math.abs(delta))}
        </span>
      )}
    </span>
  );
}
