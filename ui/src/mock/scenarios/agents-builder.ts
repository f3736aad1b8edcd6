// Scenarios of the Browser agents builder: a balance that cannot cover a batch, batches the
// service refuses (402 with its Top up action, 400 for its size, 401), and one the service has no
// room for (held, waiting to be sent). As in Rust, a refusal of a batch sent in the background is
// submit_batch's error; one run live or waited for comes after, as its job failing unsent.
// Open one with ?scenario=<name>.
import { defineScenario, ipcError } from "../registry";
import { addJob } from "../helpers";
import { clone } from "../state";
import { baseHandlers, type BaseHandlers } from "../base";
import type { MockContext } from "../registry";
import type { IpcError, Job } from "../../ipc/contract";

export const AGENTS_TOP_UP_URL = "https://example.com/account/top-up";
export const AGENTS_NO_CREDITS = "You do not have enough credits for this batch. Top up your balance, then run it again.";

defineScenario("agents-low-balance", {}, {
  description: "The Sandbox with 0.15 credits: one task is covered, two are not.",
  setup: (db) => {
    db.credits[db.settings.activeProfileId] = 0.15;
  },
});

/**
 * submit_batch refusing with `error` as Rust does: at once in the background; live or waited
 * for, the job is saved (queued), then fails unsent.
 */
function refuse(args: Parameters<BaseHandlers["submit_batch"]>[0], ctx: MockContext, error: IpcError): Job {
  if (args.mode === "background") throw error;
  const job = addJob(ctx.db, ctx, {
    kind: "batch",
    idempotencyKey: `idem-refused-${ctx.db.jobs.length}`,
    request: { tasks: args.tasks, ...(args.concurrency ? { concurrency: args.concurrency } : {}), mode: args.mode ?? "live" },
    status: "queued",
    result: null,
  });
  setTimeout(() => {
    const kept = ctx.db.jobs.find((j) => j.id === job.id);
    if (!kept) return;
    kept.status = "failed";
    kept.error = error;
    ctx.emit("job-changed", clone(kept));
  }, 30);
  return job;
}

defineScenario(
  "agents-submit-refused",
  {
    submit_batch: (args, ctx) =>
      refuse(args, ctx, ipcError("insufficientCredits", AGENTS_NO_CREDITS, { status: 402, action: { label: "Top up", url: AGENTS_TOP_UP_URL } })),
  },
  { description: "submit_batch answers 402: the builder shows the error with Top up and keeps the draft." },
);

/** What the job runner holds a batch with when the service runs too many of the user's tasks. */
export const AGENTS_NO_ROOM =
  "The service is already running 4,990 of your tasks and takes at most 5,000 at once. Specdesk sends this batch by itself as soon as there is room, even after a restart. You can also stop it and send fewer tasks.";

defineScenario(
  "agents-no-room",
  {
    // Saved, then refused for want of room (429): the runner holds it and says why.
    submit_batch: ({ tasks, concurrency, mode }, ctx) => {
      const job = addJob(ctx.db, ctx, {
        kind: "batch",
        idempotencyKey: "idem-no-room",
        request: { tasks, ...(concurrency ? { concurrency } : {}), mode: mode ?? "live" },
        status: "queued",
        result: null,
      });
      setTimeout(() => {
        const kept = ctx.db.jobs.find((j) => j.id === job.id);
        if (!kept || kept.status !== "queued") return;
        kept.error = { kind: "rateLimited", message: AGENTS_NO_ROOM, status: 429 };
        ctx.emit("job-changed", clone(kept));
      }, 50);
      return job;
    },
  },
  { description: "submit_batch is saved, then held: the service runs too many of the user's tasks (429)." },
);

/** The client's words for the service's `400` on a batch it will not take whole. */
export const AGENTS_TOO_BIG = "The service refused the request: tasks holds more tasks than one batch may. Check what you entered and try again.";

defineScenario(
  "agents-too-big",
  {
    // The service takes at most 2 tasks a batch (fewer than Specdesk knows of): a 400 naming no task.
    submit_batch: (args, ctx) =>
      args.tasks.length > 2 ? refuse(args, ctx, ipcError("invalidInput", AGENTS_TOO_BIG, { status: 400 })) : baseHandlers.submit_batch(args, ctx),
  },
  { description: "submit_batch refuses a batch of more than 2 tasks with a 400: the builder offers to split it." },
);

/** The client's words for a `401` (a key the service does not know). */
export const AGENTS_KEY_REFUSED =
  "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.";

defineScenario(
  "agents-key-refused",
  {
    submit_batch: (args, ctx) => refuse(args, ctx, ipcError("invalidKey", AGENTS_KEY_REFUSED, { status: 401 })),
  },
  { description: "submit_batch answers 401: the builder says so, offers Settings and keeps the draft." },
);

/** What Rust says when the keychain refuses (SecretError::Locked). */
export const KEYCHAIN_LOCKED = "Your keychain is locked. Unlock it (it may be asking for your password), then try again.";

/** The base handler, refused while the scenario's keychain is locked. */
function locked<K extends "keep_draft_values" | "draft_values">(cmd: K): BaseHandlers[K] {
  return ((args: never, ctx: MockContext) => {
    if (ctx.db.keychainLocked) throw ipcError("keychainLocked", KEYCHAIN_LOCKED);
    return (baseHandlers[cmd] as (a: never, c: MockContext) => unknown)(args, ctx);
  }) as BaseHandlers[K];
}

defineScenario(
  "agents-keychain-locked",
  { keep_draft_values: locked("keep_draft_values"), draft_values: locked("draft_values") },
  {
    description: "The keychain is locked (until a test sets db.keychainLocked to false): the builder's draft input values are neither kept nor read back, and a value was kept before.",
    setup: (db) => {
      db.keychainLocked = true;
      db.draftValues = { "kept-input": "kept-before-lock" };
    },
  },
);

/** What the job runner says of a batch whose key is past the service's window and which the
 * batch list does not show (core: jobs/batch_key.rs). */
export const AGENTS_UNCONFIRMED =
  "This batch is not known to have reached the service. It was saved on 2026-11-20 09:15 UTC and the service remembers a batch's key for 24 hours only, so sending it now could run and charge it twice. Check your batch history; if it is not there, choose Send again.";

defineScenario("agents-unconfirmed", {}, {
  description: "Two batches not known to have reached the service (saved days ago, never found): Send again or Keep it unsent.",
  setup: (db) => {
    const task = (url: string) => ({ url, instruction: "Check the page loads" });
    for (const [id, tasks] of [
      [901, [task("https://example.com/"), task("https://example.com/pricing"), task("https://example.com/about")]],
      [902, [task("https://example.org/")]],
    ] as const) {
      db.jobs.unshift({
        id,
        kind: "batch",
        profileId: db.settings.activeProfileId,
        idempotencyKey: `idem-unconfirmed-${id}`,
        request: { tasks, mode: "background" },
        status: "failed",
        result: null,
        error: { kind: "unconfirmed", message: AGENTS_UNCONFIRMED },
        createdAt: "2026-11-20T09:15:00.000Z",
        updatedAt: "2026-11-21T10:00:00.000Z",
      });
    }
  },
});
