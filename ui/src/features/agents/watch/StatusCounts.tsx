// The batch's counts by status, each a button that filters the task list to that status (pressed
// again: every task); "Did not succeed" gathers every failure; Total shows every task again.
import { formatCredits } from "../../../lib/format";
import { phaseInfo, type TaskPhase } from "./statuses";
import { StatusChip, StatusIconSvg } from "./StatusChip";
import type { StatusFilter } from "./taskFilter";

const count = (n: number) => n.toLocaleString("en-US");

export function StatusCounts({
  phases,
  counts,
  failed,
  total,
  credits,
  finished,
  status,
  onStatus,
}: {
  phases: TaskPhase[];
  counts: Map<TaskPhase, number>;
  /** How many did not succeed (the "Did not succeed" chip, shown once there is one). */
  failed: number;
  total: number;
  credits: number;
  finished: boolean;
  /** The status the list is filtered to, if any. */
  status?: StatusFilter;
  onStatus: (status: StatusFilter | undefined) => void;
}) {
  const chip = (s: StatusFilter, label: React.ReactNode, n: number, title: string) => (
    <li key={s}>
      <button type="button" className="status-filter" aria-pressed={status === s} title={title} onClick={() => onStatus(status === s ? undefined : s)}>
        {label} <span className="status-count">{count(n)}</span>
      </button>
    </li>
  );
  return (
    <ul className="status-counts" aria-label="Tasks by status">
      {phases.map((p) => chip(p, <StatusChip phase={p} />, counts.get(p) ?? 0, phaseInfo(p).meaning))}
      {failed > 0 &&
        chip(
          "failed",
          <span className="status-chip" data-tone="danger">
            <StatusIconSvg icon="cross" />
            Did not succeed
          </span>,
          failed,
          "Every task that did not succeed, whatever its status.",
        )}
      <li className="status-total">
        <button type="button" className="status-filter" aria-pressed={status === undefined} onClick={() => onStatus(undefined)}>
          <span className="muted">Total</span> <span className="status-count">{count(total)}</span>
        </button>
      </li>
      <li className="status-credits">
        {!finished && credits === 0 ? (
          // A live stream's results carry no credits: the batch says what it cost when it ends.
          <span className="muted">Credits when the batch ends</span>
        ) : (
          <>
            <span className="muted">Credits{finished ? "" : " so far"}</span> <span className="status-count">{formatCredits(credits)}</span>
          </>
        )}
      </li>
    </ul>
  );
}
