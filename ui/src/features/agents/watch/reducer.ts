// The state of a watched batch, and the one reducer that applies a whole Channel frame (every
// event of the last ~16 ms) at once: one React update per frame, never one per event. Only the
// tasks a frame touches are copied, so rows of untouched tasks keep their identity (and skip
// rendering). Input values are never kept: a result's `input` is dropped on the way in.
import type { Batch } from "../../../bindings/Batch";
import type { BatchEvent } from "../../../bindings/BatchEvent";
import type { IpcError } from "../../../bindings/IpcError";
import type { TaskEvent } from "../../../bindings/TaskEvent";
import type { JsonValue } from "../../../bindings/serde_json/JsonValue";
import type { TaskPhase } from "./statuses";

/** A screenshot whose chunks all arrived. */
export interface Shot {
  /** Its step in the task's steps. */
  step: number;
  /** A `data:` URL of the image. */
  src: string;
  mimeType: string;
  url?: string;
  at?: number;
}

/** One line of a task's timeline: an event, or a screenshot put together from its chunks. */
export type Step = { kind: "event"; event: TaskEvent; at?: number } | { kind: "shot"; shot: number; at?: number };

/** Chunks of the screenshot being received. */
export interface PendingShot {
  mimeType: string;
  chunkCount: number;
  parts: (string | undefined)[];
  received: number;
  url?: string;
  at?: number;
}

export interface TaskView {
  index: number;
  url?: string;
  instruction?: string;
  phase: TaskPhase;
  steps: Step[];
  shots: Shot[];
  pending: PendingShot | null;
  /** Timestamp of the task's first event (Unix ms): steps are timed from it. */
  firstAt?: number;
  /** Title of the last page loaded. */
  title?: string;
  durationMs?: number;
  creditsUsed?: number;
  cost?: number;
  data?: JsonValue | null;
  error?: string;
}

/**
 * How the view receives the batch: its live stream, polling (in the background, or after the
 * stream dropped), reconnecting (the service was lost; Rust tries again by itself), or done.
 */
export type Connection = "connecting" | "live" | "polling" | "reconnecting" | "finished" | "error";

export interface WatchState {
  tasks: TaskView[];
  connection: Connection;
  /** Why the follower fell back to polling (kept once live again: the record says it dropped). */
  pollingReason?: string;
  /** The live connection came back after polling (the follower reconnected). */
  reconnected?: boolean;
  /** The connection dropped on the way (after events came), so the record says so once finished. */
  dropped?: boolean;
  /** Why the follower is reconnecting: the last error it met. */
  reconnectReason?: string;
  error: IpcError | null;
  /** The batch as it ended (or as it was read before its events). */
  batch: Batch | null;
  /** Events applied so far (task events and results). */
  applied: number;
}

export type WatchAction =
  | { type: "frame"; events: BatchEvent[] }
  /** The batch read once before its stream (`get_batch`): its size, and results of finished tasks. */
  | { type: "seed"; batch: Batch }
  /** The watch command itself failed (an error that did not come as an event). */
  | { type: "failed"; error: IpcError }
  /** The watch command resolved with the batch. */
  | { type: "resolved"; batch: Batch };

export function initialWatch(): WatchState {
  return { tasks: [], connection: "connecting", error: null, batch: null, applied: 0 };
}

export function emptyTask(index: number): TaskView {
  return { index, phase: "queued", steps: [], shots: [], pending: null };
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif", "image/svg+xml"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A screenshot's `data:` URL, or null when its type is not an image or its data is not base64. */
export function screenshotSrc(mimeType: string, base64: string): string | null {
  const type = mimeType.trim().toLowerCase();
  const data = base64.replace(/\s+/g, "");
  if (!IMAGE_TYPES.has(type) || data.length === 0 || !BASE64.test(data)) return null;
  return `data:${type};base64,${data}`;
}

/** Applies one frame (or any other action); returns the same state when nothing changed. */
export function watchReducer(state: WatchState, action: WatchAction): WatchState {
  switch (action.type) {
    case "frame":
      return applyFrame(state, action.events);
    case "seed":
      return applySeed(state, action.batch);
    case "failed":
      return { ...state, connection: "error", error: action.error };
    case "resolved":
      return state.batch && state.connection === "finished" ? state : applyBatch({ ...state, connection: "finished" }, action.batch, true);
  }
}

/** Copies tasks on first touch within one frame; the rest keep their identity. */
class Draft {
  readonly tasks: TaskView[];
  private readonly touched = new Set<number>();
  constructor(tasks: TaskView[]) {
    this.tasks = tasks.slice();
  }
  grow(length: number) {
    for (let i = this.tasks.length; i < length; i++) this.tasks.push(emptyTask(i));
  }
  task(index: number): TaskView {
    this.grow(index + 1);
    const t = this.tasks[index] as TaskView;
    if (this.touched.has(index)) return t;
    const copy: TaskView = { ...t, steps: t.steps.slice(), shots: t.shots.slice() };
    this.tasks[index] = copy;
    this.touched.add(index);
    return copy;
  }
}

function validIndex(i: unknown): i is number {
  return typeof i === "number" && Number.isInteger(i) && i >= 0 && i < 100_000;
}

function applyFrame(state: WatchState, events: BatchEvent[]): WatchState {
  if (!Array.isArray(events) || events.length === 0) return state;
  const draft = new Draft(state.tasks);
  let next: WatchState = { ...state };
  let applied = state.applied;
  let ended: Batch | null = null;
  for (const e of events) {
    switch (e?.type) {
      case "taskEvent":
        if (!validIndex(e.event?.taskIndex)) break;
        applyTaskEvent(draft.task(e.event.taskIndex), e.event);
        applied++;
        break;
      case "taskResult": {
        if (!validIndex(e.result?.taskIndex)) break;
        const t = draft.task(e.result.taskIndex);
        t.phase = e.result.status;
        if (e.result.data !== null && e.result.data !== undefined) t.data = e.result.data;
        applied++;
        break;
      }
      case "polling":
        // Polling after events came (or after the service was lost): the connection dropped.
        if (applied > 0 || next.connection === "reconnecting") next.dropped = true;
        next.connection = "polling";
        next.pollingReason = e.reason;
        // Back on polling: whatever came back before dropped again.
        next.reconnected = false;
        break;
      case "reconnecting":
        next.connection = "reconnecting";
        next.reconnectReason = e.reason;
        next.dropped = true;
        next.reconnected = false;
        break;
      case "live":
        next.connection = "live";
        next.reconnected = true;
        break;
      case "done":
        ended = e.batch;
        break;
      case "error":
        next.connection = "error";
        next.error = e.error;
        break;
      default:
        // Unknown event types are ignored (the contract may grow).
        break;
    }
  }
  if (next.connection === "connecting") next.connection = "live";
  next = { ...next, tasks: draft.tasks, applied };
  if (ended) next = applyBatch({ ...next, connection: "finished" }, ended, true);
  return next;
}

function applyTaskEvent(t: TaskView, ev: TaskEvent) {
  const at = typeof ev.timestamp === "number" ? ev.timestamp : undefined;
  if (t.firstAt === undefined && at !== undefined) t.firstAt = at;
  if (t.phase === "queued") t.phase = "running";
  switch (ev.type) {
    case "screenshot":
      addChunk(t, ev, at);
      return;
    case "navigation":
      if (!t.url) t.url = ev.url;
      if (ev.title) t.title = ev.title;
      break;
    case "done":
      t.phase = ev.status;
      if (ev.durationMs !== undefined) t.durationMs = ev.durationMs;
      if (ev.data !== undefined && ev.data !== null) t.data = ev.data;
      break;
    case "error":
      t.phase = ev.status;
      if (ev.durationMs !== undefined) t.durationMs = ev.durationMs;
      if (ev.error) t.error = ev.error;
      break;
    default:
      break;
  }
  t.steps.push({ kind: "event", event: ev, at });
}

function addChunk(t: TaskView, ev: Extract<TaskEvent, { type: "screenshot" }>, at: number | undefined) {
  const count = Math.max(1, Math.floor(ev.chunkCount));
  const index = Math.floor(ev.chunkIndex);
  if (!(index >= 0 && index < count) || count > 10_000) return;
  let p = t.pending;
  if (!p || p.chunkCount !== count || p.mimeType !== ev.mimeType || p.parts[index] !== undefined) {
    // A new screenshot starts (an unfinished one before it is dropped: it can never complete).
    p = { mimeType: ev.mimeType, chunkCount: count, parts: new Array<string | undefined>(count).fill(undefined), received: 0, url: ev.url, at };
  } else {
    p = { ...p, parts: p.parts.slice() };
  }
  p.parts[index] = ev.data ?? "";
  p.received += 1;
  if (p.url === undefined && ev.url) p.url = ev.url;
  if (p.received < count) {
    t.pending = p;
    return;
  }
  t.pending = null;
  const src = screenshotSrc(p.mimeType, p.parts.join(""));
  if (!src) return;
  const step = t.steps.length;
  t.shots.push({ step, src, mimeType: p.mimeType, url: p.url, at: p.at });
  t.steps.push({ kind: "shot", shot: t.shots.length - 1, at: p.at });
}

function applySeed(state: WatchState, batch: Batch): WatchState {
  // The stream's own end wins over a read made before it.
  if (state.batch && state.connection === "finished") return state;
  return applyBatch(state, batch, batch.status !== "processing" || batch.results.length === batch.total);
}

/** Takes a batch's size and, when `withResults`, each result's facts (never its input). */
function applyBatch(state: WatchState, batch: Batch, withResults: boolean): WatchState {
  const draft = new Draft(state.tasks);
  draft.grow(batch.total);
  if (withResults) {
    batch.results.forEach((r, i) => {
      const t = draft.task(i);
      t.url = r.url || t.url;
      if (r.instruction !== undefined) t.instruction = r.instruction;
      if (r.status && (t.phase === "queued" || t.phase === "running" || state.connection === "finished")) t.phase = r.status;
      t.durationMs = r.durationMs ?? t.durationMs;
      t.creditsUsed = r.creditsUsed;
      t.cost = r.cost;
      if (r.data !== undefined && r.data !== null) t.data = r.data;
      if (r.error) t.error = r.error;
    });
  }
  return { ...state, tasks: draft.tasks, batch: { ...batch, results: [] } };
}

/** Counts of tasks by phase: `queued`, `running` and each final status met. */
export function countByPhase(tasks: TaskView[]): Map<TaskPhase, number> {
  const counts = new Map<TaskPhase, number>();
  for (const t of tasks) counts.set(t.phase, (counts.get(t.phase) ?? 0) + 1);
  return counts;
}

/** Tasks finished with a status other than SUCCESS. */
export function failedCount(tasks: TaskView[]): number {
  let n = 0;
  for (const t of tasks) if (t.phase !== "queued" && t.phase !== "running" && t.phase !== "SUCCESS") n++;
  return n;
}

/** Credits used: the batch's total once known, else the sum of the tasks known so far. */
export function totalCredits(state: WatchState): number {
  if (state.batch && state.connection === "finished") return state.batch.totalCreditsUsed;
  let sum = 0;
  for (const t of state.tasks) sum += t.creditsUsed ?? 0;
  return sum;
}
