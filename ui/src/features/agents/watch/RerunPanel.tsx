// Re-running a finished batch's failed tasks as a new batch (its own idempotency key, linked to
// the first; input values entered again), and a re-run compared with its original task by task: status, data, credits.
import { useId, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import type { Batch } from "../../../bindings/Batch";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useConnectionId } from "../../../ipc/hooks";
import { call, toIpcError } from "../../../ipc/invoke";
import { plural } from "../../../lib/format";
import { failedIndices, requestOf, rerunInputNames, rerunRequest, useBatchJob, type BatchRequest } from "./batchJob";
import { dataChanges } from "./dataDiff";
import type { TaskView } from "./reducer";
import { phaseInfo } from "./statuses";
import type { WatchTarget } from "./useBatchWatch";

/** `these`: the tasks a filter shows (indices), re-run instead of those that did not succeed. */
export function RerunPanel({
  batchId,
  tasks,
  finished,
  onOpen,
  these,
}: {
  batchId: string;
  tasks: TaskView[];
  finished: boolean;
  onOpen?: (t: WatchTarget) => void;
  these?: number[];
}) {
  const job = useBatchJob(finished ? batchId : undefined);
  const request = requestOf(job.data);
  if (!finished || !request) return null;
  return (
    <>
      <RerunTasks batchId={batchId} request={request} picked={these ?? failedIndices(tasks.map((t) => t.phase))} these={!!these} onOpen={onOpen} />
      {request.rerunOf && <CompareWithOriginal request={request} tasks={tasks} />}
    </>
  );
}

function RerunTasks({
  batchId,
  request,
  picked: failed,
  these,
  onOpen,
}: {
  batchId: string;
  request: BatchRequest;
  picked: number[];
  these: boolean;
  onOpen?: (t: WatchTarget) => void;
}) {
  // The first run's input values are not kept after sending: entered again here, by name (in
  // this component's memory only, gone with it).
  const [values, setValues] = useState<Record<string, string>>({});
  const names = rerunInputNames(request, failed);
  const rerun = useMutation({
    mutationFn: () => {
      const r = rerunRequest(batchId, request, failed, values);
      if (!r) throw new Error("unreachable");
      return call("submit_batch", { ...r, mode: "live" });
    },
    onSuccess: (job) => {
      setValues({});
      onOpen?.(job.remoteId ? { batchId: job.remoteId } : { jobId: job.id, total: failed.length });
    },
  });
  const id = useId();
  if (failed.length === 0) return null;
  const ready = rerunRequest(batchId, request, failed, values) !== null;
  return (
    <div className="rerun">
      {names.length > 0 && (
        <fieldset className="rerun-values">
          <legend>Input values for the re-run</legend>
          <p className="hint">
            Specdesk does not keep input values after sending: enter {names.length === 1 ? "it" : "them"} again. Each value goes to every
            re-run task with that input.
          </p>
          {names.map((name, k) => (
            <div className="field" key={name}>
              <label htmlFor={`${id}-${k}`}>{name}</label>
              <input
                id={`${id}-${k}`}
                type="password"
                autoComplete="off"
                value={values[name] ?? ""}
                onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
              />
            </div>
          ))}
        </fieldset>
      )}
      <button className="btn" type="button" disabled={!ready || rerun.isPending} onClick={() => rerun.mutate()}>
        {rerun.isPending ? "Sending…" : these ? `Re-run these ${plural(failed.length, "task")}` : `Re-run the ${plural(failed.length, "task")} that did not succeed`}
      </button>
      {rerun.isSuccess && !onOpen && <p role="status">The re-run was sent as a new batch.</p>}
      {rerun.isError && <ErrorPanel error={toIpcError(rerun.error)} />}
    </div>
  );
}

function CompareWithOriginal({ request, tasks }: { request: BatchRequest; tasks: TaskView[] }) {
  const origin = request.rerunOf;
  const c = useConnectionId() ?? "";
  const original = useQuery({
    queryKey: ["get_batch", c, origin?.batchId ?? "", false],
    queryFn: () => call("get_batch", { batchId: origin?.batchId ?? "", includeEvents: false }),
    enabled: !!origin && c !== "",
    retry: false,
  });
  if (!origin) return null;
  return (
    <section className="rerun-compare" aria-labelledby="rerun-compare-title">
      <h3 id="rerun-compare-title">
        Compared with the first run (batch <span className="mono">{origin.batchId}</span>)
      </h3>
      {original.isError && <ErrorPanel error={toIpcError(original.error)} onRetry={() => void original.refetch()} />}
      {original.data && <CompareTable original={original.data} indices={origin.taskIndices} tasks={tasks} />}
    </section>
  );
}

export function CompareTable({ original, indices, tasks }: { original: Batch; indices: number[]; tasks: TaskView[] }) {
  return (
    <div className="table-wrap">
      <table className="compare-table">
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">First run</th>
            <th scope="col">Re-run</th>
            <th scope="col">Data</th>
            <th scope="col" className="num">Credits (first → re-run)</th>
          </tr>
        </thead>
        <tbody>
          {tasks.map((t, i) => {
            const at = indices[i] ?? i;
            const before = original.results[at];
            return (
              <tr key={i}>
                <th scope="row">
                  {at + 1} <span className="muted mono">{t.url ?? before?.url}</span>
                </th>
                <td>{before ? phaseInfo(before.status).label : "—"}</td>
                <td>{phaseInfo(t.phase).label}</td>
                <td>{before ? <DataChanges before={before.data} after={t.data} /> : "—"}</td>
                <td className="num">
                  {before ? before.creditsUsed : "—"} → {t.creditsUsed ?? "—"}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** How many changes of one task's data are listed before "and N more". */
const CHANGES_SHOWN = 4;

/** "Same", or what changed in the data, path by path. */
function DataChanges({ before, after }: { before: unknown; after: unknown }) {
  const changes = dataChanges(before, after);
  if (changes.length === 0) return <>Same</>;
  const more = changes.length - CHANGES_SHOWN;
  return (
    <ul className="data-changes">
      {changes.slice(0, CHANGES_SHOWN).map((c) => (
        <li key={c.path}>
          <code>{c.path}</code>: {c.text}
        </li>
      ))}
      {more > 0 && <li className="muted">{`and ${plural(more, "more change")}`}</li>}
    </ul>
  );
}
