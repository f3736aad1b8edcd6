// Scenarios of the Browser agents watch view: a 1000-task batch fed as a recorded stream at a
// high rate (thousands of events: plans, actions, waiting, validation, screenshots in chunks),
// dropping to polling halfway (held there until the test releases "watch-midway"), then live again
// (held until "watch-live"); a finished
// batch with every task status; older batches for the history's pages; and a stream that fails
// until the test releases "watch-recover". Open one with ?scenario=<name>.
import type { Batch, BatchEvent, IpcError, Job } from "../../ipc/contract";
import type { TaskResult } from "../../bindings/TaskResult";
import type { TaskEvent } from "../../bindings/TaskEvent";
import type { MockContext } from "../registry";
import type { MockDb } from "../state";
import { baseHandlers } from "../base";
import { defineScenario, type Args } from "../registry";

export const BATCH_LIVE = "6750aaaa0000000000001000";
export const BATCH_STATUSES = "6750aaaa0000000000000010";
export const LIVE_TASKS = 1000;
/** Events in one Channel frame of the recorded stream, and the pause between frames (ms). */
export const LIVE_FRAME_EVENTS = 250;
export const LIVE_FRAME_PAUSE_MS = 8;
export const POLLING_REASON = "The live stream went quiet for 30 s (no keepalive).";
export const WATCH_ERROR: IpcError = { kind: "network", message: "The connection to the service was lost. Check your network, then try again." };
/** A secret input value each live task carries: it must never reach the page's exports. */
export const SECRET_PREFIX = "hunter2-";

/** A 48×30 PNG (a page with a header bar, a line of text and a green button). */
export const PAGE_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAADAAAAAeCAIAAADlxgqWAAAATElEQVR42mNwtjg1qBDDqINGHTTsHPTr159BhUYdNOogajvoxIlL9EGjDqKWg0YT9aiDhp2D+Kv8iUejDhp10FBw0Gi2H3XQqIOojQAyhs8eYeo5cQAAAABJRU5ErkJggg==";

/** A small SVG "screenshot" with a caption, base64. */
export function svgShot(caption: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#f0f1f7"/><rect width="320" height="32" fill="#4338ca"/><text x="16" y="110" font-size="20" fill="#1b1d2a">${caption}</text></svg>`;
  return btoa(svg);
}

function split(data: string, parts: number): string[] {
  const size = Math.ceil(data.length / parts);
  return Array.from({ length: parts }, (_, i) => data.slice(i * size, (i + 1) * size));
}

const FAILURES = ["TIMEOUT", "BLOCKED", "CAPTCHA_FAILED", "LOOP", "NO_TARGET", "ERROR"] as const;
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);

/** The outcome of live task `i`: one in 20 does not succeed, cycling through the failures. */
export function liveStatus(i: number): TaskResult["status"] {
  return i % 20 === 19 ? (FAILURES[Math.floor(i / 20) % FAILURES.length] as string) : "SUCCESS";
}

function liveResult(i: number): TaskResult {
  const status = liveStatus(i);
  const ok = status === "SUCCESS";
  return {
    url: `https://shop.example/item/${i + 1}`,
    instruction: `Open item ${i + 1}, accept the cookies and read its name, price and stock`,
    input: { query: `${SECRET_PREFIX}${i + 1}` },
    status,
    ...(ok ? { data: [{ name: `Item ${i + 1}`, price: 10 + (i % 7), url: `https://shop.example/item/${i + 1}` }] } : {}),
    ...(ok ? {} : { error: `The task ended with ${status}.` }),
    cost: 0.012,
    creditsUsed: 0.12,
    durationMs: 2400 + (i % 13) * 100,
  };
}

/** Every event of live task `i`, timed from its start (tasks start 37 ms apart). */
function liveTaskEvents(i: number): TaskEvent[] {
  const r = liveResult(i);
  const start = T0 + i * 37;
  const at = (ms: number) => start + ms;
  const ev: TaskEvent[] = [
    { taskIndex: i, timestamp: at(0), type: "sandbox", status: "starting" },
    { taskIndex: i, timestamp: at(420), type: "navigation", url: r.url, title: `Item ${i + 1} — Example Shop` },
  ];
  split(PAGE_PNG, 3).forEach((data, k) =>
    ev.push({ taskIndex: i, timestamp: at(600), type: "screenshot", url: r.url, mimeType: "image/png", chunkIndex: k, chunkCount: 3, data }),
  );
  ev.push(
    {
      taskIndex: i,
      timestamp: at(900),
      type: "plan",
      actions: [{ type: "click", selector: "#accept-cookies" }, { type: "fill", selector: "input[name=q]", value: `item ${i + 1}` }],
      notes: "Accept the cookies, then search for the item",
      done: false,
      captchaDetected: false,
    },
    { taskIndex: i, timestamp: at(1100), type: "action", actionType: "click", selector: "#accept-cookies", success: true, message: "Clicked" },
    { taskIndex: i, timestamp: at(1300), type: "action", actionType: "fill", selector: "input[name=q]", success: true, message: "Filled" },
  );
  if (i % 10 === 3) ev.push({ taskIndex: i, timestamp: at(1500), type: "waiting", reason: "cloudflare" });
  split(svgShot(`Item ${i + 1}`), 2).forEach((data, k) =>
    ev.push({ taskIndex: i, timestamp: at(1700), type: "screenshot", url: r.url, mimeType: "image/svg+xml", chunkIndex: k, chunkCount: 2, data }),
  );
  ev.push({ taskIndex: i, timestamp: at(1900), type: "plan", actions: [], notes: "The price is visible", done: true, captchaDetected: false });
  if (r.status === "SUCCESS") {
    ev.push({ taskIndex: i, timestamp: at(2100), type: "validation", ok: true });
    ev.push({ taskIndex: i, timestamp: at(r.durationMs), type: "done", status: r.status, data: r.data, durationMs: r.durationMs });
  } else {
    ev.push({ taskIndex: i, timestamp: at(r.durationMs), type: "error", status: r.status, error: r.error, durationMs: r.durationMs });
  }
  return ev;
}

/** The recorded stream of the live batch: every task's events in time order, then results. */
export function liveRecording(): BatchEvent[] {
  const all: { at: number; e: BatchEvent }[] = [];
  for (let i = 0; i < LIVE_TASKS; i++) {
    for (const event of liveTaskEvents(i)) all.push({ at: event.timestamp ?? 0, e: { type: "taskEvent", event } });
    const r = liveResult(i);
    all.push({ at: T0 + i * 37 + r.durationMs, e: { type: "taskResult", result: { taskIndex: i, status: r.status, data: r.data ?? null } } });
  }
  // Stable: a task's own events keep their order.
  all.sort((a, b) => a.at - b.at);
  return all.map((x) => x.e);
}

function liveBatch(status: "processing" | "completed"): Batch {
  const results = Array.from({ length: LIVE_TASKS }, (_, i) => liveResult(i));
  const done = status === "completed";
  return {
    id: BATCH_LIVE,
    total: LIVE_TASKS,
    completed: done ? LIVE_TASKS : 0,
    results: done ? results : [],
    totalCost: done ? 12 : 0,
    totalCreditsUsed: done ? 120 : 0,
    status,
    createdAt: "2026-11-22T09:00:00.000Z",
    ...(done ? { completedAt: "2026-11-22T09:00:40.000Z" } : {}),
  };
}

/** The finished batch with every task status (and data as a table, a tree, and none). */
export function statusesBatch(): Batch {
  const base = { cost: 0.01, creditsUsed: 0.1 };
  const results: TaskResult[] = [
    { ...base, url: "https://shop.example/deals", instruction: "List every item on sale", status: "SUCCESS", durationMs: 5200, creditsUsed: 0.5, cost: 0.05, data: [{ name: "Kettle", price: 24.5, url: "https://shop.example/kettle" }, { name: "Toaster", price: 31, url: "https://shop.example/toaster" }, { name: "Mug", price: 6, url: "https://shop.example/mug" }] },
    { ...base, url: "https://shop.example/contact", instruction: "Is there a phone number?", status: "SUCCESS", durationMs: 3100, data: { passed: true, evidence: "Call us: +1 555 0100", page: { title: "Contact", sections: ["Phone", "Email"] } } },
    { ...base, url: "https://shop.example/about", instruction: "Read the company name", status: "SUCCESS", durationMs: 2900, data: { company: "Example Shop Ltd" } },
    { ...base, url: "https://shop.example/jobs", instruction: "Count the open positions", status: "SUCCESS", durationMs: 4000, data: { count: 4 } },
    { ...base, url: "http://127.0.0.1:9/down", instruction: "Read the title", status: "ERROR", durationMs: 800, error: "Connection refused" },
    { ...base, url: "https://slow.example/report", instruction: "Download the yearly report", status: "TIMEOUT", durationMs: 240000, error: "No result after 240 s" },
    { ...base, url: "https://guarded.example/", instruction: "Read the price list", status: "BLOCKED", durationMs: 1500, error: "Access denied (403)" },
    { ...base, url: "https://captcha.example/login", instruction: "Sign in and read the balance", status: "CAPTCHA_FAILED", durationMs: 9000 },
    { ...base, url: "https://maze.example/", instruction: "Find the checkout", status: "LOOP", durationMs: 30000 },
    { ...base, url: "https://shop.example/", instruction: "Click the Unicorn button", status: "NO_TARGET", durationMs: 2000 },
  ];
  return {
    id: BATCH_STATUSES,
    total: results.length,
    completed: results.length,
    results,
    totalCost: results.reduce((s, r) => s + r.cost, 0),
    totalCreditsUsed: Math.round(results.reduce((s, r) => s + r.creditsUsed, 0) * 100) / 100,
    status: "completed",
    createdAt: "2026-11-21T15:00:00.000Z",
    completedAt: "2026-11-21T15:04:00.000Z",
  };
}

/** A finished batch's timeline as the library replays it: one-chunk screenshots, two frames. */
function replayFrames(batch: Batch): BatchEvent[][] {
  const events: BatchEvent[] = [];
  batch.results.forEach((r, i) => {
    const start = T0 + i * 1000;
    const list: TaskEvent[] = [
      { taskIndex: i, timestamp: start, type: "sandbox", status: "starting" },
      { taskIndex: i, timestamp: start + 300, type: "navigation", url: r.url, title: `Page of task ${i + 1}` },
      { taskIndex: i, timestamp: start + 500, type: "screenshot", url: r.url, mimeType: "image/svg+xml", chunkIndex: 0, chunkCount: 1, data: svgShot(`Task ${i + 1} opened`) },
      { taskIndex: i, timestamp: start + 800, type: "plan", actions: [{ type: "click", selector: "a.next" }], notes: "Look for what the instruction asks", done: false, captchaDetected: r.status === "CAPTCHA_FAILED" },
      { taskIndex: i, timestamp: start + 1200, type: "action", actionType: "click", selector: "a.next", success: r.status !== "NO_TARGET", message: r.status === "NO_TARGET" ? "No element matches a.next" : "Clicked" },
      { taskIndex: i, timestamp: start + 1400, type: "screenshot", url: r.url, mimeType: "image/png", chunkIndex: 0, chunkCount: 1, data: PAGE_PNG },
    ];
    if (r.status === "SUCCESS") {
      list.push({ taskIndex: i, timestamp: start + 1600, type: "validation", ok: true });
      list.push({ taskIndex: i, timestamp: start + r.durationMs, type: "done", status: r.status, data: r.data, durationMs: r.durationMs });
    } else {
      list.push({ taskIndex: i, timestamp: start + r.durationMs, type: "error", status: r.status, error: r.error, durationMs: r.durationMs });
    }
    for (const event of list) events.push({ type: "taskEvent", event });
    events.push({ type: "taskResult", result: { taskIndex: i, status: r.status, data: r.data ?? null } });
  });
  const half = Math.ceil(events.length / 2);
  return [events.slice(0, half), events.slice(half)];
}

/** Older finished batches, for the history's pages. */
function olderBatches(n: number): Batch[] {
  return Array.from({ length: n }, (_, k) => ({
    id: `6750aaaa00000000000002${String(k).padStart(2, "0")}`,
    total: 2 + (k % 3),
    completed: 2 + (k % 3),
    results: [],
    totalCost: 0.02,
    totalCreditsUsed: 0.2 + (k % 3) * 0.1,
    status: "completed",
    createdAt: new Date(Date.UTC(2026, 10, 10 - Math.floor(k / 2), 8 + k)).toISOString(),
    completedAt: new Date(Date.UTC(2026, 10, 10 - Math.floor(k / 2), 8 + k, 2)).toISOString(),
  }));
}

/** The ledger's job of the live batch: its tasks as sent (the input's value not kept), so a
 * finished batch offers its re-runs. */
function liveJob(db: MockDb): Job {
  const tasks = Array.from({ length: LIVE_TASKS }, (_, i) => {
    const r = liveResult(i);
    return { url: r.url, instruction: r.instruction ?? "", input: { query: "" } };
  });
  return {
    id: 7001,
    kind: "batch",
    profileId: db.settings.activeProfileId,
    request: { tasks, mode: "live" },
    remoteId: BATCH_LIVE,
    status: "completed",
    result: null,
    createdAt: "2026-11-22T09:00:00.000Z",
    updatedAt: "2026-11-22T09:02:00.000Z",
  };
}

function setupWatch(db: MockDb) {
  db.batches = [liveBatch("processing"), statusesBatch(), ...db.batches, ...olderBatches(12)];
  db.jobs.push(liveJob(db));
  db.dialog.save = "/home/user/Documents/batch-results";
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cancelled = new Set<string>();

async function streamLive(args: Args<"watch_batch">, ctx: MockContext, holdMidway: boolean): Promise<Batch> {
  const channel = ctx.channel<BatchEvent[]>(args.onEvent);
  const events = liveRecording();
  const half = Math.floor(events.length / LIVE_FRAME_EVENTS / 2) * LIVE_FRAME_EVENTS;
  for (let at = 0; at < events.length; at += LIVE_FRAME_EVENTS) {
    if (cancelled.has(args.streamId)) return liveBatch("processing");
    const frame = events.slice(at, at + LIVE_FRAME_EVENTS);
    if (at === half) {
      frame.push({ type: "polling", batchId: BATCH_LIVE, reason: POLLING_REASON });
      channel.send(frame);
      if (holdMidway) await ctx.gate("watch-midway");
    } else if (at === half + LIVE_FRAME_EVENTS) {
      // The follower went back to the live connection.
      frame.push({ type: "live", batchId: BATCH_LIVE });
      channel.send(frame);
      if (holdMidway) await ctx.gate("watch-live");
    } else {
      channel.send(frame);
    }
    await sleep(LIVE_FRAME_PAUSE_MS);
  }
  const done = liveBatch("completed");
  const stored = ctx.db.batches.findIndex((b) => b.id === BATCH_LIVE);
  if (stored >= 0) ctx.db.batches[stored] = structuredClone(done);
  channel.send([{ type: "done", batch: done }]);
  return done;
}

function watchBatch(holdMidway: boolean) {
  return async (args: Args<"watch_batch">, ctx: MockContext): Promise<Batch> => {
    if (args.batchId === BATCH_LIVE) return streamLive(args, ctx, holdMidway);
    if (args.batchId === BATCH_STATUSES) {
      const channel = ctx.channel<BatchEvent[]>(args.onEvent);
      const batch = statusesBatch();
      for (const frame of replayFrames(batch)) {
        channel.send(frame);
        await sleep(LIVE_FRAME_PAUSE_MS);
      }
      channel.send([{ type: "done", batch }]);
      return batch;
    }
    return baseHandlers.watch_batch(args, ctx);
  };
}

const cancelStream = ({ streamId }: Args<"cancel_stream">) => {
  cancelled.add(streamId);
  return null;
};

defineScenario(
  "agents-watch",
  { watch_batch: watchBatch(true), cancel_stream: cancelStream },
  {
    description: "A 1000-task batch streamed at a high rate (polling from halfway, held at 'watch-midway', then live again, held at 'watch-live'), a batch with every status, 15 batches in the history.",
    setup: setupWatch,
  },
);

let failing = true;
defineScenario(
  "agents-watch-error",
  {
    watch_batch: async (args, ctx) => {
      void ctx.gate("watch-recover").then(() => {
        failing = false;
      });
      if (!failing) return watchBatch(false)(args, ctx);
      const channel = ctx.channel<BatchEvent[]>(args.onEvent);
      channel.send(liveRecording().slice(0, 40));
      await sleep(LIVE_FRAME_PAUSE_MS);
      channel.send([{ type: "error", error: WATCH_ERROR }]);
      throw WATCH_ERROR;
    },
    cancel_stream: cancelStream,
  },
  { description: "watch_batch fails with a network error until the test releases 'watch-recover'.", setup: setupWatch },
);
