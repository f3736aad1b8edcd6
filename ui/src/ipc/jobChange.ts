// Merging a `job-changed` broadcast into a cached list of jobs. The broadcast carries a job's
// request only the first time (core::job_changes): a later change keeps the request the list
// already holds, and a change of a job the list does not hold, without its request, cannot be
// shown whole, so the caller reads the list again instead.
import type { Job, JobChange } from "./contract";

/** The job whole, when the change carries its request or `known` holds it; else null. */
export function wholeJob(change: JobChange, known: Job | undefined): Job | null {
  if ("request" in change) return { ...change, request: change.request } as Job;
  return known ? { ...change, request: known.request } : null;
}

/**
 * `list` (newest first, at most `max`) with `change` in it, replacing the job's older copy.
 * `stale` is true when the change could not be placed (a job the list did not hold, sent
 * without its request): read the list again.
 */
export function upsertJobChange(list: Job[], change: JobChange, max: number): { list: Job[]; stale: boolean } {
  const at = list.findIndex((j) => j.id === change.id);
  const job = wholeJob(change, at === -1 ? undefined : list[at]);
  if (!job) return { list, stale: true };
  if (at === -1) return { list: [job, ...list].slice(0, max), stale: false };
  const copy = list.slice();
  copy[at] = job;
  return { list: copy, stale: false };
}
