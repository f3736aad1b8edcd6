// The row checks: quick local ones as the user types (a full http(s) address, a schema that
// parses, whole numbers above 0, named inputs), and the mapping of `check_tasks` / `submit_batch`
// errors (`field` like `tasks[3].url`) onto the row and cell they are about.
import type { IpcError } from "../../../ipc/contract";
import { CELL_ORDER, MAX_TASKS, rowToTask, wholeNumber, type BuilderDraft, type Cell, type TaskRow } from "./model";

/** Problems of one row, by cell. */
export type RowProblems = Partial<Record<Cell, string>>;

export interface DraftProblems {
  /** By row id. */
  rows: Record<string, RowProblems>;
  /** About the whole batch (no tasks, too many). */
  batch: string[];
  concurrency?: string;
}

export function isWebUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
  } catch {
    return false;
  }
}

const U32_MAX = 4_294_967_295;

function numberProblem(text: string, n: number, what: string, max = Number.MAX_SAFE_INTEGER): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const v = wholeNumber(t);
  if (v === undefined || v < 1 || v > max) {
    return `Task ${n}: ${what} must be a whole number of at least 1${max === U32_MAX ? ` (at most ${max.toLocaleString("en-US")})` : ""}.`;
  }
  return undefined;
}

/** The local checks of row `index` (0-based; shown to people as task `index + 1`). */
export function localRowProblems(r: TaskRow, index: number): RowProblems {
  const n = index + 1;
  const p: RowProblems = {};
  const url = r.url.trim();
  if (!url) p.url = `Task ${n} has no start address. Enter the page it starts on.`;
  else if (!isWebUrl(url)) p.url = `Task ${n}: "${url}" is not a full web address. Start it with https:// or http://.`;

  const names = new Set<string>();
  for (const pair of r.inputs) {
    const name = pair.name.trim();
    if (!name) {
      if (pair.value) {
        p.input = `Task ${n}: give every input value a name.`;
        break;
      }
      continue;
    }
    if (names.has(name)) {
      p.input = `Task ${n}: the input name “${name}” is used twice.`;
      break;
    }
    names.add(name);
  }

  if (r.output.trim()) {
    try {
      const v: unknown = JSON.parse(r.output);
      if (!v || typeof v !== "object" || Array.isArray(v)) p.output = `Task ${n}: the output schema must be a JSON object.`;
    } catch (e) {
      p.output = `Task ${n}: the output schema is not valid JSON (${e instanceof Error ? e.message : "it does not parse"}).`;
    }
  }

  const timeout = numberProblem(r.timeoutMs, n, "the time limit (ms)");
  if (timeout) p.timeoutMs = timeout;
  const steps = numberProblem(r.maxSteps, n, "the step limit", U32_MAX);
  if (steps) p.maxSteps = steps;
  const duration = numberProblem(r.maxDurationSeconds, n, "the duration limit (s)");
  if (duration) p.maxDurationSeconds = duration;
  return p;
}

export function concurrencyProblem(text: string): string | undefined {
  const v = wholeNumber(text);
  if (v === undefined || v < 1 || v > 20) return "Tasks at once must be a whole number from 1 to 20.";
  return undefined;
}

/** Where an error's `field` points: a row's cell, the concurrency, or the batch. */
export type FieldTarget = { kind: "row"; index: number; cell: Cell | null } | { kind: "concurrency" } | { kind: "batch" };

/** `tasks[3].url` → row 3, cell url; `tasks[2].input.email` → row 2, cell input; `concurrency`; else the batch. */
export function fieldTarget(field: string | undefined): FieldTarget {
  if (!field) return { kind: "batch" };
  if (field === "concurrency") return { kind: "concurrency" };
  const m = /^tasks\[(\d+)\](?:\.([A-Za-z]+))?/.exec(field);
  if (!m) return { kind: "batch" };
  const cell = (CELL_ORDER as string[]).includes(m[2] ?? "") ? (m[2] as Cell) : null;
  return { kind: "row", index: Number(m[1]), cell };
}

/**
 * Errors from a check of the tasks as they were (`snapshot`: each row's id and its task as sent),
 * kept by row id so a reorder or an edit since never puts them on the wrong row.
 */
export interface RemoteCheck {
  /** Row id → the task JSON the check saw. */
  seen: Record<string, string>;
  rows: Record<string, RowProblems>;
  batch: string[];
  concurrency?: string;
  /** The concurrency the check saw. */
  concurrencySeen: string;
}

/** A row's task as a check sees it (values included: they change nothing but blank-vs-set). */
export function taskKey(r: TaskRow): string {
  return JSON.stringify(rowToTask(r, { withValues: false }));
}

export function remoteCheck(rows: TaskRow[], concurrency: string, errors: IpcError[]): RemoteCheck {
  const out: RemoteCheck = { seen: {}, rows: {}, batch: [], concurrencySeen: concurrency };
  rows.forEach((r) => {
    out.seen[r.id] = taskKey(r);
  });
  for (const e of errors) {
    const t = fieldTarget(e.field);
    if (t.kind === "concurrency") out.concurrency = e.message;
    else if (t.kind === "batch") out.batch.push(e.message);
    else {
      const row = rows[t.index];
      if (!row) {
        out.batch.push(e.message);
        continue;
      }
      const cell: Cell = t.cell ?? "url";
      const mine = (out.rows[row.id] ??= {});
      if (!mine[cell]) mine[cell] = e.message;
    }
  }
  return out;
}

/**
 * Every problem of the draft: local checks first; a remote check's error where the local checks
 * have none and the row is as the check saw it.
 */
export function draftProblems(d: BuilderDraft, ...remotes: (RemoteCheck | null)[]): DraftProblems {
  const out: DraftProblems = { rows: {}, batch: [] };
  const checks = remotes.filter((r): r is RemoteCheck => r !== null);
  d.rows.forEach((r, i) => {
    const key = taskKey(r);
    const merged: RowProblems = {};
    for (const remote of checks) {
      const seen = remote.seen[r.id] === key ? remote.rows[r.id] : undefined;
      if (seen) for (const [cell, message] of Object.entries(seen)) merged[cell as Cell] ??= message;
    }
    Object.assign(merged, localRowProblems(r, i));
    if (Object.keys(merged).length > 0) out.rows[r.id] = merged;
  });
  if (d.rows.length > MAX_TASKS) {
    out.batch.push(`A batch can hold at most ${MAX_TASKS} tasks; this one has ${d.rows.length}. Split it into smaller batches.`);
  }
  for (const remote of checks) {
    const sameRows = d.rows.length === Object.keys(remote.seen).length && d.rows.every((r) => r.id in remote.seen);
    if (sameRows) for (const b of remote.batch) if (!out.batch.includes(b)) out.batch.push(b);
  }
  const fromRemote = checks.find((c) => c.concurrency && c.concurrencySeen === d.concurrency)?.concurrency;
  const c = concurrencyProblem(d.concurrency) ?? fromRemote;
  if (c) out.concurrency = c;
  return out;
}

/** The first bad place, in row then cell order. */
export function firstProblem(d: BuilderDraft, p: DraftProblems): { rowId: string; cell: Cell } | "concurrency" | null {
  for (const r of d.rows) {
    const rp = p.rows[r.id];
    if (!rp) continue;
    const cell = CELL_ORDER.find((c) => rp[c]);
    if (cell) return { rowId: r.id, cell };
  }
  return p.concurrency ? "concurrency" : null;
}

/** The Run line's sentence: "2 tasks have problems." (null when none). */
export function problemSentence(p: DraftProblems): string | null {
  const n = Object.keys(p.rows).length;
  const parts: string[] = [];
  if (n > 0) parts.push(n === 1 ? "1 task has a problem" : `${n.toLocaleString("en-US")} tasks have problems`);
  if (p.concurrency) parts.push("tasks at once needs a fix");
  if (parts.length === 0) return null;
  const text = parts.join(", and ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The least a batch of `n` tasks costs: 0.1 credit a task. */
export function minimumCredits(n: number): number {
  return n / 10;
}
