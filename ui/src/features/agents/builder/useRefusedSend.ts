// A batch run live or waited for is sent by its follower in Rust after `submit_batch` answered,
// so the service's refusal of it (a 400, 401 or 402: nothing was made) comes later, as its job
// failing before the service named the batch. The builder watches the jobs it sent that way and
// gets each refusal back with what was sent, to put the tasks back in the draft and show why.
import { useRef } from "react";
import type { IpcError, JobChange } from "../../../ipc/contract";
import { useAppEvent } from "../../../ipc/events";
import type { TaskRow } from "./model";

/** What the builder sent as one batch (rows with their input values, in memory only). */
export interface SentRows {
  jobId: number;
  rows: TaskRow[];
  concurrency: string;
}

/** Changes of jobs not watched yet, kept a moment: a refusal may come before the send's answer. */
const EARLY_KEPT = 20;

/** The refusal of a sent batch, or null while it may still be refused. */
export function refusalOf(change: Pick<JobChange, "status" | "remoteId" | "error">): IpcError | null {
  return change.status === "failed" && !change.remoteId && change.error ? change.error : null;
}

/** Whether the service has the batch (or it ended otherwise): no refusal can come any more. */
function settled(change: Pick<JobChange, "status" | "remoteId">): boolean {
  return !!change.remoteId || change.status === "running" || change.status === "completed" || change.status === "cancelled";
}

/**
 * Returns `watch`, which follows a sent batch until the service has it or refused it, starting
 * from its job as `submit_batch` answered (already failed, when the refusal came first).
 */
export function useRefusedSend(onRefused: (sent: SentRows, error: IpcError) => void): (sent: SentRows, job: JobChange) => void {
  const watched = useRef(new Map<number, SentRows>());
  const early = useRef(new Map<number, JobChange>());
  const take = (change: JobChange) => {
    const sent = watched.current.get(change.id);
    if (!sent) {
      if (change.kind !== "batch") return;
      early.current.set(change.id, change);
      for (const id of early.current.keys()) if (early.current.size > EARLY_KEPT) early.current.delete(id);
      return;
    }
    const refusal = refusalOf(change);
    if (refusal) onRefused(sent, refusal);
    if (refusal || settled(change)) watched.current.delete(change.id);
  };
  useAppEvent("job-changed", take);
  return (sent, job) => {
    watched.current.set(sent.jobId, sent);
    const before = early.current.get(sent.jobId);
    early.current.delete(sent.jobId);
    take(job);
    if (before && watched.current.has(sent.jobId)) take(before);
  };
}
