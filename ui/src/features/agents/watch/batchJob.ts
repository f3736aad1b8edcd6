// What Specdesk knows of a batch it ran (`batch_job`): the tasks as sent (input names only),
// their schemas, and the batch it re-runs. Pure helpers, and the query that reads it.
import { useQuery } from "@tanstack/react-query";
import type { BatchRunMode, BrowserTask, Job, RerunOf } from "../../../ipc/contract";
import { useConnectionId } from "../../../ipc/hooks";
import { call } from "../../../ipc/invoke";

export interface BatchRequest {
  tasks: BrowserTask[];
  concurrency?: number;
  rerunOf?: RerunOf;
  /** How it was first sent. */
  mode?: BatchRunMode;
}

/** The request of a batch job, when it has one in the shape Rust writes. */
export function requestOf(job: Job | null | undefined): BatchRequest | null {
  const r = job?.request as Partial<BatchRequest> | undefined;
  return r && Array.isArray(r.tasks) ? (r as BatchRequest) : null;
}

/** The job that ran `batchId` (null: not run by Specdesk, or not named yet). */
export function useBatchJob(batchId: string | undefined) {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: ["batch_job", c, batchId ?? ""],
    queryFn: () => call("batch_job", { batchId: batchId ?? "" }),
    enabled: c !== "" && !!batchId,
    retry: false,
  });
}

/** Tasks of a finished batch that did not succeed, by index. */
export function failedIndices(phases: readonly string[]): number[] {
  return phases.flatMap((p, i) => (p === "SUCCESS" ? [] : [i]));
}

/** The input names of tasks `indices`, each once, in order of first use. */
export function rerunInputNames(request: BatchRequest, indices: number[]): string[] {
  const names = new Set<string>();
  for (const i of indices) for (const name of Object.keys(request.tasks[i]?.input ?? {})) names.add(name);
  return [...names];
}

/**
 * The re-run of tasks `indices` of batch `batchId`: the same tasks, linked back to the first run
 * (to the original tasks when the batch is itself a re-run). The first run's input values are
 * not kept after sending: each input takes the value entered again under its name in `values`.
 * Null while an input has no value.
 */
export function rerunRequest(
  batchId: string,
  request: BatchRequest,
  indices: number[],
  values: Record<string, string> = {},
): { tasks: BrowserTask[]; rerunOf: RerunOf; concurrency?: number } | null {
  const picked = indices.map((i) => request.tasks[i]).filter((t): t is BrowserTask => t !== undefined);
  if (picked.length !== indices.length) return null;
  if (rerunInputNames(request, indices).some((name) => !values[name])) return null;
  const tasks = picked.map((t) =>
    t.input && Object.keys(t.input).length > 0 ? { ...t, input: Object.fromEntries(Object.keys(t.input).map((n) => [n, values[n] ?? ""])) } : t,
  );
  const origin = request.rerunOf;
  const rerunOf: RerunOf = origin
    ? { batchId: origin.batchId, taskIndices: indices.map((i) => origin.taskIndices[i] ?? i) }
    : { batchId, taskIndices: indices };
  return { tasks, rerunOf, ...(request.concurrency ? { concurrency: request.concurrency } : {}) };
}
