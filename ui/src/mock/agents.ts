// The mock's answers for the Browser agents area (crates/core agents/, jobs/batch*.rs): a draft's
// checks and kept values, a batch submitted, watched in frames, listed and read, the service's
// capacity, and the batches not known to have reached the service (their Send again).
import type { Batch, BatchEvent, BatchRunMode, BrowserTask, Job } from "../ipc/contract";
import { ipcError, type Handler } from "./registry";
import { NOT_FOUND, clone, now } from "./state";
import { addJob, checkWebUrl, findJob, finishBatch, newObjectId, requireKey, schemaProblems, taskProblems, touch } from "./helpers";

type AgentCommand =
  | "unconfirmed_batches"
  | "settle_unconfirmed_batch"
  | "check_tasks"
  | "batch_job"
  | "check_task_data"
  | "keep_draft_values"
  | "draft_values"
  | "submit_batch"
  | "watch_batch"
  | "list_batches"
  | "get_batch"
  | "agent_capacity";

export const agentHandlers: { [C in AgentCommand]: Handler<C> } = {
  unconfirmed_batches: (_args, { db }) =>
    clone(db.jobs.filter((j) => j.profileId === db.settings.activeProfileId && j.kind === "batch" && j.status === "failed" && !j.remoteId && j.error?.kind === "unconfirmed")),
  settle_unconfirmed_batch: ({ jobId, sendAgain }, ctx) => {
    const job = findJob(ctx.db, jobId);
    if (job.kind !== "batch" || job.status !== "failed" || job.remoteId || job.error?.kind !== "unconfirmed") {
      throw ipcError("invalidInput", "Only a batch not known to have reached the service can be sent again this way.", { field: "jobId" });
    }
    const request = job.request as { tasks: BrowserTask[]; concurrency?: number; mode?: BatchRunMode };
    const again = sendAgain ? (agentHandlers.submit_batch({ tasks: request.tasks, concurrency: request.concurrency, mode: request.mode }, ctx) as Job) : null;
    job.status = "cancelled";
    delete job.error;
    job.progress = again ? `Sent again as a new batch (job ${again.id}).` : "Not sent again, as you chose.";
    const closed = touch(ctx.db, ctx, job);
    return again ?? closed;
  },
  check_tasks: ({ tasks, concurrency }) => taskProblems(tasks, concurrency),
  batch_job: ({ batchId }, { db }) => clone(db.jobs.find((j) => j.kind === "batch" && j.remoteId === batchId && j.profileId === db.settings.activeProfileId) ?? null),
  check_task_data: ({ schema, data }) => schemaProblems(schema, data),
  keep_draft_values: ({ values }, { db }) => {
    db.draftValues = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
    return null;
  },
  draft_values: (_args, { db }) => ({ ...db.draftValues }),
  submit_batch: ({ tasks, concurrency, mode, rerunOf }, ctx) => {
    requireKey(ctx.db);
    if (tasks.length === 0) throw ipcError("invalidInput", "Add at least one task.", { field: "tasks" });
    tasks.forEach((t, i) =>
      checkWebUrl(
        `tasks[${i}].url`,
        t.url,
        `Task ${i + 1}: "${t.url}" is not a full web address. Write it like https://example.com.`,
      ),
    );
    const id = newObjectId(ctx.db);
    const batch: Batch = {
      id,
      total: tasks.length,
      completed: 0,
      results: [],
      totalCost: 0,
      totalCreditsUsed: 0,
      status: "processing",
      createdAt: now(ctx.db),
    };
    ctx.db.batches.unshift(batch);
    ctx.db.batchTasks[id] = clone(tasks);
    return addJob(ctx.db, ctx, {
      kind: "batch",
      idempotencyKey: `idem-batch-${id}`,
      request: { tasks, ...(concurrency ? { concurrency } : {}), mode: mode ?? "live", ...(rerunOf ? { rerunOf } : {}) },
      remoteId: id,
      status: "submitted",
      result: null,
    });
  },
  watch_batch: ({ batchId, jobId, onEvent }, ctx) => {
    const channel = ctx.channel<BatchEvent[]>(onEvent);
    const id = batchId ?? ctx.db.jobs.find((j) => j.id === jobId)?.remoteId;
    const batch = ctx.db.batches.find((b) => b.id === id);
    if (!batch) throw ipcError("notFound", NOT_FOUND, { status: 404 });
    finishBatch(ctx.db, ctx, batch);
    // One frame per task, as Rust coalesces what arrives within ~16 ms.
    batch.results.forEach((r, taskIndex) => {
      const timestamp = ctx.db.clock;
      channel.send([
        { type: "taskEvent", event: { taskIndex, timestamp, type: "navigation", url: r.url, title: `Page ${taskIndex + 1}` } },
        { type: "taskEvent", event: { taskIndex, timestamp, type: "done", status: r.status, durationMs: r.durationMs } },
        { type: "taskResult", result: { taskIndex, status: r.status, data: r.data ?? null } },
      ]);
    });
    const done = clone(batch);
    channel.send([{ type: "done", batch: done }]);
    return done;
  },
  list_batches: ({ limit, skip, status }, { db }) => {
    const all = db.batches.filter((b) => !status || b.status === status);
    return { batches: clone(all.slice(skip, skip + limit)), total: all.length, hasMore: skip + limit < all.length };
  },
  get_batch: ({ batchId, includeEvents }, { db }) => {
    const batch = db.batches.find((b) => b.id === batchId);
    if (!batch) throw ipcError("notFound", NOT_FOUND, { status: 404 });
    const copy = clone(batch);
    if (includeEvents) {
      copy.results = copy.results.map((r, taskIndex) => ({
        ...r,
        events: [
          { taskIndex, type: "navigation", url: r.url },
          { taskIndex, type: "done", status: r.status },
        ],
      }));
    }
    return copy;
  },
  agent_capacity: () => ({
    totalActive: 3,
    maxSandboxes: 50,
    perUserCap: 10,
    pending: 1,
    running: 2,
    claimed: 0,
    failed: 0,
    utilization: 0.06,
    oldestQueuedAgeMs: 1200,
    topUsers: [{ userId: "user_sandbox_org", inflight: 2 }],
    workers: [{ workerId: "worker-1", inflight: 2 }, { workerId: "worker-2", inflight: 1 }],
  }),
};
