// Video jobs of the job ledger (newest first), kept live from the shell's `job-changed`
// broadcast: the job runner follows each job in Rust (and resumes it after a restart), so the
// screen only listens.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Job } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { upsertJobChange } from "../../../ipc/jobChange";
import { keys, useConnectionId } from "../../../ipc/hooks";
import { useAppEvent } from "../../../ipc/events";
import { mediaKeys } from "../shared/queries";

export const VIDEO_JOBS_SHOWN = 20;

export const videoKeys = {
  of: (c: string) => ["list_jobs", "video", c] as const,
};

export function isUnfinished(job: Pick<Job, "status">): boolean {
  return job.status === "queued" || job.status === "submitted" || job.status === "running";
}

/** What a finished video job's result names (Rust's video follower writes these). */
export interface VideoResult {
  videoId?: string;
  mediaId?: number;
  path?: string;
  credits?: number;
  cost?: number;
  /** The charging poll's request id and the balance after it. */
  requestId?: string;
  balanceAfter?: number;
}

export function videoResult(job: Job): VideoResult {
  const r = job.result && typeof job.result === "object" ? (job.result as Record<string, unknown>) : {};
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
  const out: VideoResult = {};
  const videoId = str(r.videoId);
  const mediaId = num(r.mediaId);
  const path = str(r.path);
  const credits = num(r.credits);
  const cost = num(r.cost);
  const requestId = str(r.requestId);
  const balanceAfter = num(r.balanceAfter);
  if (videoId !== undefined) out.videoId = videoId;
  if (mediaId !== undefined) out.mediaId = mediaId;
  if (path !== undefined) out.path = path;
  if (credits !== undefined) out.credits = credits;
  if (cost !== undefined) out.cost = cost;
  if (requestId !== undefined) out.requestId = requestId;
  if (balanceAfter !== undefined) out.balanceAfter = balanceAfter;
  return out;
}

/** The request a video job was sent with. */
export function videoRequest(job: Job): { prompt: string; model: string; seconds?: number; size?: string } {
  const r = job.request && typeof job.request === "object" ? (job.request as Record<string, unknown>) : {};
  const seconds = Number(r.seconds);
  return {
    prompt: typeof r.prompt === "string" ? r.prompt : "",
    model: typeof r.model === "string" ? r.model : "",
    ...(Number.isFinite(seconds) && seconds > 0 ? { seconds } : {}),
    ...(typeof r.size === "string" && r.size ? { size: r.size } : {}),
  };
}

/** Puts a job into a newest-first list (replacing its older copy). */
export function upsertJob(list: Job[], job: Job, max = VIDEO_JOBS_SHOWN): Job[] {
  const at = list.findIndex((j) => j.id === job.id);
  if (at === -1) return [job, ...list].slice(0, max);
  const copy = list.slice();
  copy[at] = job;
  return copy;
}

export function useVideoJobs() {
  const c = useConnectionId() ?? "";
  const qc = useQueryClient();
  useAppEvent("job-changed", (job) => {
    if (job.kind !== "video") return;
    let stale = false;
    qc.setQueryData<Job[]>(videoKeys.of(job.profileId), (list) => {
      if (!list) return list;
      const next = upsertJobChange(list, job, VIDEO_JOBS_SHOWN);
      stale = next.stale;
      return next.list;
    });
    if (stale) void qc.invalidateQueries({ queryKey: videoKeys.of(job.profileId) });
    if (!isUnfinished(job)) {
      void qc.invalidateQueries({ queryKey: mediaKeys.all });
      void qc.invalidateQueries({ queryKey: keys.credit(job.profileId) });
    }
  });
  return useQuery({
    queryKey: videoKeys.of(c),
    queryFn: () => call("list_jobs", { kind: "video", limit: VIDEO_JOBS_SHOWN }),
    enabled: c !== "",
    retry: false,
  });
}

/** Adds a job just submitted to the list at once. */
export function useAddVideoJob() {
  const qc = useQueryClient();
  return (job: Job) => qc.setQueryData<Job[]>(videoKeys.of(job.profileId), (list) => upsertJob(list ?? [], job));
}

/**
 * The video jobs to list: a completed one whose file was deleted is left out, judged only on a
 * current, whole list of the library's videos (`media` null while it is read or not all read).
 */
export function shownVideoJobs(jobs: readonly Job[], media: readonly { id: number }[] | null): Job[] {
  if (!media) return [...jobs];
  const kept = new Set(media.map((m) => m.id));
  return jobs.filter((j) => {
    const id = j.status === "completed" ? videoResult(j).mediaId : undefined;
    return id === undefined || kept.has(id);
  });
}
