// As Rust's notifier does (src-tauri's notify.rs): a job seen running that reaches completed or
// failed is told once as `job-finished`, with its activity entry (core::activity::jobs).
import type { Activity } from "../bindings/Activity";
import type { Job } from "../ipc/contract";

type Seen = { status: string; request: unknown };

const FINAL = new Set(["completed", "failed", "cancelled"]);

function entryOf(job: Job, request: unknown): Activity {
  const r = (request ?? {}) as { input?: unknown; prompt?: unknown; tasks?: unknown };
  const text = (v: unknown) => (typeof v === "string" ? v.trim().split("\n")[0] : "");
  const base = {
    id: `job-${job.id}`,
    state: job.status === "failed" ? ("failed" as const) : ("done" as const),
    startedAt: job.createdAt,
    endedAt: job.updatedAt,
    ...(job.error ? { error: job.error } : {}),
  };
  if (job.kind === "batch") {
    const n = Array.isArray(r.tasks) ? r.tasks.length : 0;
    return { ...base, kind: "batch", title: `Batch of ${n} ${n === 1 ? "task" : "tasks"}`, place: { kind: "batch", ...(job.remoteId ? { batchId: job.remoteId } : {}) } };
  }
  if (job.kind === "video") return { ...base, kind: "video", title: text(r.prompt) || "A video", place: { kind: "studio", studio: "video" } };
  return { ...base, kind: "spec", title: text(r.input) || "A spec from a file", place: { kind: "spec", ...(job.remoteId ? { specId: job.remoteId } : {}) } };
}

/** Follows `job-changed` payloads; returns the `job-finished` entry a change makes, if any. */
export function finishedTracker(): (change: unknown) => Activity | null {
  const seen = new Map<number, Seen>();
  return (change) => {
    if (!change || typeof change !== "object" || !("id" in change)) return null;
    const job = change as Job;
    const before = seen.get(job.id);
    const request = "request" in job ? job.request : before?.request;
    seen.set(job.id, { status: job.status, request });
    const ended = before && !FINAL.has(before.status) && (job.status === "completed" || job.status === "failed");
    return ended ? entryOf(job, request) : null;
  };
}
