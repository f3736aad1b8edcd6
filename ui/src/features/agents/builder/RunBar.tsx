// The foot of the builder: tasks at once (1–20), the cost preview with the balance beside it,
// what stops the batch from running (problems, a balance too low), and Run.
import type { BatchRunMode } from "../../../ipc/contract";
import { ErrorActions } from "../../../components/ErrorPanel";
import { formatCreditsWord as credits } from "../../../lib/format";
import { useCredits } from "../../../ipc/hooks";
import { toIpcError } from "../../../ipc/invoke";
import { minimumCredits } from "./checks";
import { CONCURRENCY_ID } from "./ids";

/** "At least 0.2 credits for 2 tasks: every task costs 0.1 credit or more." */
export function costSentence(tasks: number): string {
  const what = `${tasks.toLocaleString("en-US")} ${tasks === 1 ? "task" : "tasks"}`;
  return `At least ${credits(minimumCredits(tasks))} for ${what}: every task costs 0.1 credit or more.`;
}

/** The service's three ways to run a batch, in the words the user chooses by. */
export const RUN_MODES: { mode: BatchRunMode; label: string; hint: string }[] = [
  { mode: "live", label: "Live", hint: "Watch every step as it happens." },
  { mode: "background", label: "In the background", hint: "Sent now and followed quietly; you are told when it ends." },
  { mode: "wait", label: "Wait for the whole result", hint: "One request that answers when every task has finished." },
];

function RunModes({ mode, onMode }: { mode: BatchRunMode; onMode: (m: BatchRunMode) => void }) {
  return (
    <fieldset className="run-modes">
      <legend>How to run</legend>
      {RUN_MODES.map((m) => (
        <label key={m.mode} className="run-mode">
          <input type="radio" name="run-mode" value={m.mode} checked={mode === m.mode} onChange={() => onMode(m.mode)} />
          <span>
            <strong>{m.label}</strong> <span className="muted">{m.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function RunBar({
  tasks,
  concurrency,
  concurrencyProblem,
  onConcurrency,
  problems,
  onShowProblem,
  checking,
  sending,
  mode,
  onMode,
}: {
  tasks: number;
  concurrency: string;
  concurrencyProblem?: string;
  onConcurrency: (v: string) => void;
  /** "2 tasks have problems" (null when none). */
  problems: string | null;
  onShowProblem: () => void;
  checking: boolean;
  sending: boolean;
  mode: BatchRunMode;
  onMode: (m: BatchRunMode) => void;
}) {
  const balance = useCredits();
  const minimum = minimumCredits(tasks);
  const have = balance.data?.creditsRemaining;
  const short = have !== undefined && have < minimum;
  const balanceError = balance.isError ? toIpcError(balance.error) : null;
  const blocked = !!problems || short || checking || sending || tasks === 0 || !!balanceError?.action;

  return (
    <div className="run-bar">
      <div className="field concurrency-field">
        <label htmlFor={CONCURRENCY_ID}>Tasks at once</label>
        <input
          id={CONCURRENCY_ID}
          className="input concurrency-input"
          type="number"
          min={1}
          max={20}
          step={1}
          value={concurrency}
          onChange={(e) => onConcurrency(e.target.value)}
          aria-invalid={!!concurrencyProblem}
          aria-describedby={`${CONCURRENCY_ID}-hint${concurrencyProblem ? ` ${CONCURRENCY_ID}-error` : ""}`}
        />
        <span className="hint" id={`${CONCURRENCY_ID}-hint`}>
          How many tasks of this batch run at the same time, 1 to 20.
        </span>
        {concurrencyProblem && (
          <span className="error-text" id={`${CONCURRENCY_ID}-error`}>
            {concurrencyProblem}
          </span>
        )}
      </div>

      <RunModes mode={mode} onMode={onMode} />

      <div className="cost-preview" aria-live="polite">
        <p className="cost-line">
          <strong>{costSentence(tasks)}</strong>{" "}
          {have !== undefined && <span className="muted">Your balance: {credits(have)}.</span>}
          {balance.isPending && <span className="muted">Checking your balance…</span>}
        </p>
        {short && (
          <p className="warn-text balance-short">
            Your balance ({credits(have)}) cannot cover the least this batch costs ({credits(minimum)}). Top up, or run fewer tasks.
          </p>
        )}
        {balanceError && (
          <div className="balance-error">
            <p className="warn-text">Your balance could not be read: {balanceError.message}</p>
            {balanceError.action && <ErrorActions error={balanceError} />}
          </div>
        )}
      </div>

      <div className="run-line">
        <button className="btn btn-primary" type="submit" disabled={blocked} aria-describedby="run-status">
          {sending ? "Sending…" : `Run ${tasks.toLocaleString("en-US")} ${tasks === 1 ? "task" : "tasks"}`}
        </button>
        <p id="run-status" className="run-status" aria-live="polite">
          {problems ? (
            <>
              <button type="button" className="link-button" onClick={onShowProblem}>
                {problems}
              </button>
              . Fix {/^(1 task has a problem|Tasks at once needs a fix)$/.test(problems) ? "it" : "them"} to run the batch.
            </>
          ) : checking ? (
            <span className="muted">Checking the tasks…</span>
          ) : short ? (
            <span className="muted">Run is off until the balance covers the batch.</span>
          ) : (
            <span className="muted">Every task is ready. The batch keeps running even if you close Specdesk.</span>
          )}
        </p>
      </div>
    </div>
  );
}
