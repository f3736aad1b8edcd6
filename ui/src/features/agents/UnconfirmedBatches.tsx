// Batches not known to have reached the service: their key is older than the service's 24-hour
// window and the batch list does not show them (core: jobs/batch_key.rs), so Specdesk never sends
// them again by itself (it could run and charge them twice). Each is the user's to settle: Send
// again (a new batch under a new key, its input values back from the keychain) or Keep it unsent.
import { useId, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { IpcError, Job } from "../../ipc/contract";
import { ErrorKind } from "../../ipc/contract";
import { useAppEvent } from "../../ipc/events";
import { useConnectionId } from "../../ipc/hooks";
import { call, toIpcError } from "../../ipc/invoke";
import { ErrorPanel } from "../../components/ErrorPanel";
import { formatDateTime } from "../../lib/format";
import { requestOf } from "./watch/batchJob";

/** Whether `job` is a batch not known to have reached the service. */
export function isUnconfirmed(job: Job): boolean {
  return job.kind === "batch" && job.status === "failed" && !job.remoteId && job.error?.kind === ErrorKind.unconfirmed;
}

export function UnconfirmedBatches({ onSentAgain }: { onSentAgain: (job: Job, tasks: number) => void }) {
  const c = useConnectionId() ?? "";
  const qc = useQueryClient();
  const key = ["unconfirmed_batches", c];
  const q = useQuery({
    queryKey: key,
    queryFn: () => call("unconfirmed_batches"),
    enabled: c !== "",
    retry: false,
  });
  const unconfirmed = (q.data ?? []).filter(isUnconfirmed);
  // A batch that fails (perhaps unconfirmed) or one of these settled changes the list; progress
  // of running batches does not.
  useAppEvent("job-changed", (change) => {
    if (change.kind === "batch" && (change.status === "failed" || unconfirmed.some((j) => j.id === change.id))) {
      void qc.invalidateQueries({ queryKey: key });
    }
  });
  if (unconfirmed.length === 0) return null;
  return (
    <section className="panel panel-info unconfirmed" aria-labelledby="unconfirmed-title">
      <h2 id="unconfirmed-title">{unconfirmed.length === 1 ? "A batch may not have been sent" : `${unconfirmed.length} batches may not have been sent`}</h2>
      <ul className="unconfirmed-list">
        {unconfirmed.map((job) => (
          <UnconfirmedRow key={job.id} job={job} onSentAgain={onSentAgain} />
        ))}
      </ul>
    </section>
  );
}

function UnconfirmedRow({ job, onSentAgain }: { job: Job; onSentAgain: (job: Job, tasks: number) => void }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const tasks = requestOf(job)?.tasks.length ?? 0;
  const settle = async (sendAgain: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const settled = await call("settle_unconfirmed_batch", { jobId: job.id, sendAgain });
      if (sendAgain) onSentAgain(settled, tasks);
    } catch (e) {
      setError(toIpcError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li aria-labelledby={`${id}-what`}>
      <p id={`${id}-what`}>
        <strong>
          {tasks.toLocaleString("en-US")} {tasks === 1 ? "task" : "tasks"}, saved {formatDateTime(job.createdAt)}
        </strong>
      </p>
      <p>{job.error?.message}</p>
      {error && <ErrorPanel error={error} level={3} />}
      <div className="row">
        <button className="btn btn-primary" type="button" disabled={busy} onClick={() => void settle(true)}>
          Send again
        </button>
        <button className="btn" type="button" disabled={busy} onClick={() => void settle(false)}>
          Keep it unsent
        </button>
      </div>
    </li>
  );
}
