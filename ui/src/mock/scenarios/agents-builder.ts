// Scenarios of the Browser agents builder: a balance that cannot cover a batch, a batch the
// service refuses for want of credits (with its Top up action), and one the service has no room
// for (held, waiting to be sent). Open one with ?scenario=<name>.
import { defineScenario, ipcError } from "../registry";
import { addJob } from "../helpers";
import { clone } from "../state";
import { baseHandlers } from "../base";

export const AGENTS_TOP_UP_URL = "https://example.com/account/top-up";
export const AGENTS_NO_CREDITS = "You do not have enough credits for this batch. Top up your balance, then run it again.";

defineScenario("agents-low-balance", {}, {
  description: "The Sandbox with 0.15 credits: one task is covered, two are not.",
  setup: (db) => {
    db.credits[db.settings.activeProfileId] = 0.15;
  },
});

defineScenario(
  "agents-submit-refused",
  {
    submit_batch: () => {
      throw ipcError("insufficientCredits", AGENTS_NO_CREDITS, {
        status: 402,
        action: { label: "Top up", url: AGENTS_TOP_UP_URL },
      });
    },
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
    submit_batch: (args, ctx) => {
      if (args.tasks.length > 2) throw ipcError("invalidInput", AGENTS_TOO_BIG, { status: 400 });
      return baseHandlers.submit_batch(args, ctx);
    },
  },
  { description: "submit_batch refuses a batch of more than 2 tasks with a 400: the builder offers to split it." },
);

/** The client's words for a `401` (a key the service does not know). */
export const AGENTS_KEY_REFUSED =
  "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.";

defineScenario(
  "agents-key-refused",
  {
    submit_batch: () => {
      throw ipcError("invalidKey", AGENTS_KEY_REFUSED, { status: 401 });
    },
  },
  { description: "submit_batch answers 401: the builder says so, offers Settings and keeps the draft." },
);
