// The head of a watched batch: the connection in plain words, the outcome (failures said
// prominently, never a green "done" over failed tasks), counts by status (filters of the task
// list: StatusCounts.tsx) and credits.
import type { IpcError } from "../../../bindings/IpcError";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { plural } from "../../../lib/format";
import type { Connection, TaskView } from "./reducer";
import { KNOWN_STATUSES, statusInfo, type TaskPhase } from "./statuses";
import { StatusCounts } from "./StatusCounts";
import { notSucceeded, type StatusFilter } from "./taskFilter";

export const CONNECTION_WORDS: Record<Connection, string> = {
  connecting: "Connecting — opening the batch's live view…",
  live: "Live — events arrive as the agents work.",
  polling: "Following by polling — progress is read every few seconds.",
  reconnecting: "Reconnecting — Specdesk lost the connection to the service and tries again by itself; nothing is lost.",
  finished: "Finished — every task has ended; this is the batch's full record.",
  error: "Not connected — the batch could not be followed.",
};

/** What the header says of the connection (a subset of the watch state). */
export interface ConnectionState {
  connection: Connection;
  pollingReason?: string;
  reconnected?: boolean;
  dropped?: boolean;
  reconnectReason?: string;
  /** Sent to wait for the whole result: nothing shows until every task has finished. */
  waiting?: boolean;
}

/** The connection in plain words: what it is, and why when it dropped or came back. */
export function connectionWords({ connection, pollingReason, reconnected = false, dropped = false, reconnectReason, waiting = false }: ConnectionState): string {
  if (connection === "connecting" && waiting) {
    return "Waiting for the whole result — the service answers once every task has finished; then every step shows here.";
  }
  if (connection === "live" && reconnected) return "Live again — the live connection is back; nothing was lost while progress was read by polling.";
  let words = CONNECTION_WORDS[connection];
  if (connection === "polling" && pollingReason) words += ` Reason: ${pollingReason}`;
  if (connection === "reconnecting" && reconnectReason) words += ` Last error: ${reconnectReason}`;
  if (connection === "finished" && (dropped || reconnected)) {
    words += reconnected
      ? " The live connection dropped on the way and came back; nothing lost."
      : " The connection dropped on the way; the rest was read by polling, nothing lost.";
  }
  return words;
}

/** The outcome of a finished batch in one sentence. */
export function outcomeSentence(tasks: TaskView[]): { text: string; ok: boolean } {
  // Once the batch is over, a task without SUCCESS did not succeed, even one that never reported.
  const failed = tasks.filter((t) => t.phase !== "SUCCESS").length;
  if (tasks.length === 0) return { text: "This batch has no tasks.", ok: true };
  if (failed === 0) return { text: tasks.length === 1 ? "The task succeeded." : `All ${plural(tasks.length, "task")} succeeded.`, ok: true };
  return { text: `${failed.toLocaleString("en-US")} of ${plural(tasks.length, "task")} did not succeed.`, ok: false };
}

/** "Timed out" → "timed out"; an acronym ("CAPTCHA not solved") keeps its case. */
function lowerFirst(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? `${label.charAt(0).toLowerCase()}${label.slice(1)}` : label;
}

/** "2 timed out, 1 Blocked": the failed statuses met, most frequent first. */
export function failureBreakdown(counts: Map<TaskPhase, number>): string {
  return [...counts.entries()]
    .filter(([p]) => p !== "queued" && p !== "running" && p !== "SUCCESS")
    .sort((a, b) => b[1] - a[1])
    .map(([p, n]) => `${n.toLocaleString("en-US")} ${lowerFirst(statusInfo(p).label)}`)
    .join(", ");
}

/** Phases to show as counts: queued and running while live, then every status met (Succeeded always). */
export function shownPhases(counts: Map<TaskPhase, number>, finished: boolean): TaskPhase[] {
  const phases: TaskPhase[] = finished ? [] : ["queued", "running"];
  for (const s of KNOWN_STATUSES) if (s === "SUCCESS" || (counts.get(s) ?? 0) > 0) phases.push(s);
  for (const p of counts.keys()) if (!phases.includes(p) && p !== "queued" && p !== "running") phases.push(p);
  return phases;
}

export function BatchHeader({
  batchId,
  titleId,
  link,
  error,
  batchStatus,
  tasks,
  counts,
  credits,
  onRetry,
  status,
  onStatus,
}: {
  batchId: string;
  titleId: string;
  link: ConnectionState;
  error: IpcError | null;
  batchStatus?: string;
  tasks: TaskView[];
  counts: Map<TaskPhase, number>;
  credits: number;
  onRetry: () => void;
  /** The task list's status filter, and how the counts change it. */
  status?: StatusFilter;
  onStatus: (status: StatusFilter | undefined) => void;
}) {
  const { connection } = link;
  const finished = connection === "finished";
  const outcome = finished ? outcomeSentence(tasks) : null;
  const breakdown = failureBreakdown(counts);
  return (
    <header className="batch-head">
      <div className="section-head">
        <h2 id={titleId}>
          Batch <span className="mono">{batchId}</span>
        </h2>
        <p className="connection" data-state={connection} role="status">
          <span className="connection-dot" aria-hidden="true" />
          <span>{connectionWords(link)}</span>
        </p>
      </div>
      {error && <ErrorPanel error={error} onRetry={onRetry} level={3} />}
      {outcome &&
        (outcome.ok && batchStatus !== "failed" ? (
          <div className="panel panel-success batch-outcome" role="status">
            <h3>
              <span aria-hidden="true">✓ </span>
              {outcome.text}
            </h3>
          </div>
        ) : (
          <div className="panel panel-error batch-outcome" role="alert">
            <h3>
              <span aria-hidden="true">⚠ </span>
              {outcome.ok ? "The batch failed." : outcome.text}
            </h3>
            <p>
              {breakdown ? `${breakdown.charAt(0).toUpperCase()}${breakdown.slice(1)}. ` : ""}
              Open a task to see what happened and what to try; export the results to keep them.
            </p>
          </div>
        ))}
      <StatusCounts
        phases={shownPhases(counts, finished)}
        counts={counts}
        failed={notSucceeded(tasks, finished)}
        total={tasks.length}
        credits={credits}
        finished={finished}
        status={status}
        onStatus={onStatus}
      />
    </header>
  );
}
