import { useEffect, useRef, useState } from "react";
import type { StartProblem } from "../../bindings/StartProblem";
import type { StartStep } from "../../bindings/StartStep";
import { call, toIpcError } from "../../ipc/invoke";

const WHAT_FAILED: Record<StartStep, string> = {
  dataFolder: "Specdesk could not open its data folder",
  settings: "Specdesk could not open its settings",
  library: "Specdesk could not open your library",
  mediaFolder: "Specdesk could not open its media folder",
  sandbox: "The built-in Sandbox could not start",
};

/** The recovery window: shown instead of the app when a start-up step failed (app_info's
 * `startProblem`). Says what failed and offers Try again, Open data folder and, when the library
 * failed, Start with a fresh library (the old one is set aside, never deleted). A start that
 * succeeds reloads the page into the app. */
export function Recovery({ problem: first }: { problem: StartProblem }) {
  const [problem, setProblem] = useState(first);
  const [busy, setBusy] = useState<"retry" | "fresh" | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [problem]);

  const restart = async (how: "retry" | "fresh") => {
    setBusy(how);
    setNote(null);
    try {
      const still = await call(how === "retry" ? "retry_start" : "start_fresh_library");
      if (still === null) {
        window.location.reload();
        return;
      }
      setProblem(still);
      setNote("It still could not start: see what it says now.");
    } catch (e) {
      setNote(toIpcError(e).message);
    } finally {
      setBusy(null);
    }
  };
  const openFolder = async () => {
    try {
      await call("open_data_folder");
    } catch (e) {
      setNote(toIpcError(e).message);
    }
  };

  return (
    <main className="recovery" aria-labelledby="recovery-title">
      <div className="card">
        <h1 id="recovery-title" tabIndex={-1} ref={heading}>
          {WHAT_FAILED[problem.step] ?? "Specdesk could not start"}
        </h1>
        <p className="recovery-message">{problem.message}</p>
        {problem.detail && (
          <details>
            <summary>Details</summary>
            <p className="recovery-detail">{problem.detail}</p>
          </details>
        )}
        {problem.dataDir && (
          <p>
            Your data folder is <code>{problem.dataDir}</code>.
          </p>
        )}
        {problem.library && (
          <p>
            Starting with a fresh library keeps the current one beside it, renamed, so nothing in it is deleted.
            Your specs, plans and batches are listed again from the service.
          </p>
        )}
        <div className="row">
          <button className="btn btn-primary" type="button" disabled={busy !== null} onClick={() => void restart("retry")}>
            {busy === "retry" ? "Trying again…" : "Try again"}
          </button>
          {problem.library && (
            <button className="btn" type="button" disabled={busy !== null} onClick={() => void restart("fresh")}>
              {busy === "fresh" ? "Starting fresh…" : "Start with a fresh library"}
            </button>
          )}
          <button className="btn" type="button" onClick={() => void openFolder()}>
            Open data folder
          </button>
        </div>
        <p role="status" className="recovery-note">
          {note}
        </p>
      </div>
    </main>
  );
}
