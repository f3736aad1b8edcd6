// Scenario of bench/agents-events.mjs (not of the screen tests): "agents-events", a 1000-task
// batch whose live stream the page paces, to measure how many events a second the live view
// absorbs. The events are those of the sandbox's paced batches (crates/sandbox/src/agents/
// paced.rs, `POST /_sandbox/agents/pace`): `concurrency` tasks at a time take the next event in
// turn, each task emitting `perTask` events (its browser starting, a navigation, a one-chunk PNG
// screenshot, then plans and actions, and `done` with SUCCESS), then its result.
//
// As the Rust side does (crates/core/src/agents/frames.rs), the events go out in frames, one
// Channel message every ~16 ms with every event due since the last one. Each frame is written as
// JSON text and parsed on delivery, as the web view parses a real Channel message. The bench sets
// the pace in `window.__SPECDESK_BENCH_AGENTS__` ({ rate, perTask, concurrency }; rate 0 holds
// the stream) and reads back `sent` (events and results sent so far). After each task's result
// the job is broadcast (`job-changed`, with its progress), as the job runner does.
import type { Batch, BatchEvent, Job } from "../../ipc/contract";
import type { MockContext } from "../registry";
import type { Args } from "../registry";
import { baseHandlers } from "../base";
import { defineScenario } from "../registry";
import { PAGE_PNG } from "./agents-watch";

export const BATCH_EVENTS = "6750bbbb0000000000001000";
export const EVENTS_TASKS = 1000;
/** The period of the frames (ms), as `frames::FRAME` in Rust. */
export const EVENTS_FRAME_MS = 16;

/** What the bench controls (set before the batch is opened) and reads back. */
export interface AgentsPace {
  /** Events a second (task events and results); 0 holds the stream. */
  rate: number;
  /** Events per task, `done` included (at least 4). */
  perTask: number;
  /** Tasks running at a time. */
  concurrency: number;
  /** Events and results sent so far (written by the mock). */
  sent: number;
  /** Set once the batch has ended. */
  ended?: boolean;
}

declare global {
  interface Window {
    __SPECDESK_BENCH_AGENTS__?: AgentsPace;
  }
}

function pace(): AgentsPace {
  window.__SPECDESK_BENCH_AGENTS__ ??= { rate: 2000, perTask: 20, concurrency: 20, sent: 0 };
  return window.__SPECDESK_BENCH_AGENTS__;
}

const url = (i: number) => `https://shop.example/item/${i + 1}`;
const title = (i: number) => `Paced page ${i + 1}`;

/** Event number `k` of task `i` as the JSON text of its BatchEvent (what Rust would send). */
export function eventText(i: number, k: number, perTask: number, startedAt: number, now: number): string {
  const head = `{"type":"taskEvent","event":{"taskIndex":${i},"timestamp":${now},`;
  if (k + 1 >= perTask) {
    return `${head}"type":"done","status":"SUCCESS","data":{"title":"${title(i)}","url":"${url(i)}"},"durationMs":${now - startedAt}}}`;
  }
  if (k === 0) return `${head}"type":"sandbox","status":"starting"}}`;
  if (k === 1) return `${head}"type":"navigation","url":"${url(i)}","title":"${title(i)}"}}`;
  if (k === 2) return `${head}"type":"screenshot","url":"${url(i)}","mimeType":"image/png","chunkIndex":0,"chunkCount":1,"data":"${PAGE_PNG}"}}`;
  if ((k - 3) % 3 === 0) {
    return `${head}"type":"plan","actions":[{"type":"click","selector":"a.next"}],"notes":"Step ${Math.floor(k / 3)}: follow the next link.","done":false,"captchaDetected":false}}`;
  }
  return `${head}"type":"action","actionType":"${(k - 3) % 3 === 1 ? "click" : "scroll"}","selector":"a.next","success":true,"message":"Done."}}`;
}

function resultText(i: number): string {
  return `{"type":"taskResult","result":{"taskIndex":${i},"status":"SUCCESS","data":{"title":"${title(i)}","url":"${url(i)}"}}}`;
}

function eventsBatch(status: "processing" | "completed"): Batch {
  const done = status === "completed";
  return {
    id: BATCH_EVENTS,
    total: EVENTS_TASKS,
    completed: done ? EVENTS_TASKS : 0,
    results: done
      ? Array.from({ length: EVENTS_TASKS }, (_, i) => ({
          url: url(i),
          status: "SUCCESS",
          data: { title: title(i), url: url(i) },
          cost: 0.004,
          creditsUsed: 0.1,
          durationMs: 1000,
        }))
      : [],
    totalCost: done ? 4 : 0,
    totalCreditsUsed: done ? 100 : 0,
    status,
    createdAt: "2026-11-25T09:00:00.000Z",
    ...(done ? { completedAt: "2026-11-25T09:01:00.000Z" } : {}),
  };
}

/** The job of the batch as the job runner broadcasts it (`job-changed`) after each task. */
function batchJob(ctx: MockContext, status: "running" | "completed", progress: string): Job {
  return {
    id: 9001,
    kind: "batch",
    profileId: ctx.db.settings.activeProfileId,
    request: {},
    remoteId: BATCH_EVENTS,
    status,
    progress,
    result: null,
    createdAt: "2026-11-25T09:00:00.000Z",
    updatedAt: new Date().toISOString(),
  };
}

const cancelled = new Set<string>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The paced stream: a frame every ~16 ms with what the rate owes, until every task ended. */
async function streamPaced(args: Args<"watch_batch">, ctx: MockContext): Promise<Batch> {
  const channel = ctx.channel<BatchEvent[]>(args.onEvent);
  const p = pace();
  const running: { i: number; k: number; startedAt: number }[] = [];
  let next = 0;
  let turn = 0;
  let owed = 0;
  let last = performance.now();
  let finished = 0;
  let told = 0;
  while (next < EVENTS_TASKS || running.length > 0) {
    await sleep(Math.max(0, last + EVENTS_FRAME_MS - performance.now()));
    if (cancelled.has(args.streamId)) return eventsBatch("processing");
    const at = performance.now();
    owed += (p.rate * (at - last)) / 1000;
    last = at;
    const now = Date.now();
    const parts: string[] = [];
    while (owed >= 1) {
      while (running.length < p.concurrency && next < EVENTS_TASKS) running.push({ i: next++, k: 0, startedAt: now });
      if (running.length === 0) break;
      turn %= running.length;
      const r = running[turn] as { i: number; k: number; startedAt: number };
      parts.push(eventText(r.i, r.k, p.perTask, r.startedAt, now));
      r.k += 1;
      owed -= 1;
      if (r.k >= Math.max(4, p.perTask)) {
        running.splice(turn, 1);
        parts.push(resultText(r.i));
        finished += 1;
      } else {
        turn += 1;
      }
    }
    if (parts.length === 0) continue;
    p.sent += parts.length;
    channel.send(JSON.parse(`[${parts.join(",")}]`) as BatchEvent[]);
    // The job runner records each finished task as the job's progress and broadcasts the job.
    for (; told < finished; told++) ctx.emit("job-changed", batchJob(ctx, "running", `${told + 1} of ${EVENTS_TASKS} tasks finished`));
  }
  const done = eventsBatch("completed");
  const stored = ctx.db.batches.findIndex((b) => b.id === BATCH_EVENTS);
  if (stored >= 0) ctx.db.batches[stored] = structuredClone(done);
  channel.send([{ type: "done", batch: done }]);
  ctx.emit("job-changed", batchJob(ctx, "completed", `${EVENTS_TASKS} of ${EVENTS_TASKS} tasks finished`));
  p.ended = true;
  return done;
}

defineScenario(
  "agents-events",
  {
    watch_batch: (args, ctx) => (args.batchId === BATCH_EVENTS ? streamPaced(args, ctx) : baseHandlers.watch_batch(args, ctx)),
    cancel_stream: ({ streamId }) => {
      cancelled.add(streamId);
      return null;
    },
  },
  {
    description: "A 1000-task batch streamed at the pace set in window.__SPECDESK_BENCH_AGENTS__ (bench/agents-events.mjs).",
    setup: (db) => {
      db.batches = [eventsBatch("processing"), ...db.batches];
    },
  },
);
