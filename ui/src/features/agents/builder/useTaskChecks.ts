// The authoritative checks of the draft: `check_tasks` (the same checks `submit_batch` makes in
// Rust, the output schema compiled as a JSON Schema), asked ~300 ms after the last change.
import { useEffect, useState } from "react";
import { call } from "../../../ipc/invoke";
import { rowToTask, wholeNumber, type BuilderDraft } from "./model";
import { remoteCheck, type RemoteCheck } from "./checks";

export const CHECK_DELAY_MS = 300;

/** The last check's answer and whether the draft changed since it was asked. */
export function useTaskChecks(draft: BuilderDraft): { remote: RemoteCheck | null; checking: boolean } {
  const [remote, setRemote] = useState<RemoteCheck | null>(null);
  const [checkedDraft, setCheckedDraft] = useState<BuilderDraft | null>(null);

  useEffect(() => {
    let cancelled = false;
    const timer = window.setTimeout(() => {
      const rows = draft.rows;
      // Values are never needed to check a task: only their names go.
      const tasks = rows.map((r) => rowToTask(r, { withValues: false }));
      const concurrency = wholeNumber(draft.concurrency);
      call("check_tasks", concurrency === undefined ? { tasks } : { tasks, concurrency })
        .then((errors) => {
          if (cancelled) return;
          setRemote(remoteCheck(rows, draft.concurrency, errors));
          setCheckedDraft(draft);
        })
        .catch(() => {
          // The check could not run: the local checks stand, and submit_batch checks again.
          if (cancelled) return;
          setRemote(null);
          setCheckedDraft(draft);
        });
    }, CHECK_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [draft]);

  return { remote, checking: checkedDraft !== draft };
}
