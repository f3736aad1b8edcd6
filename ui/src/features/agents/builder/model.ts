// The batch builder's draft: rows as the user edits them (text, so a half-typed number or schema
// is kept as typed), turned into the `BrowserTask`s the commands take. Input values are secrets:
// they live in memory only (this module keeps them for the run, so switching areas loses
// nothing) and are never written to localStorage — the stored draft keeps the input names only.
import type { BrowserTask } from "../../../ipc/contract";
import type { JsonValue } from "../../../bindings/serde_json/JsonValue";
import { loadJson, removeKey, saveJson } from "../../../lib/storage";

/** A batch holds at most this many tasks (the service's limit). */
export const MAX_TASKS = 1000;

export interface InputPair {
  id: string;
  name: string;
  /** A secret: memory only. */
  value: string;
}

export interface TaskRow {
  id: string;
  url: string;
  instruction: string;
  inputs: InputPair[];
  /** The output JSON Schema as typed ("" for none). */
  output: string;
  successCondition: string;
  timeoutMs: string;
  maxSteps: string;
  maxDurationSeconds: string;
  mode: string;
}

export interface BuilderDraft {
  rows: TaskRow[];
  /** As typed; 1–20. */
  concurrency: string;
}

/** The cells of a row an error can sit beside (the names `check_tasks` uses in `field`). */
export type Cell =
  | "url"
  | "instruction"
  | "input"
  | "output"
  | "successCondition"
  | "timeoutMs"
  | "maxSteps"
  | "maxDurationSeconds"
  | "mode";

/** Cells in the order they appear (the first bad one gets the focus). */
export const CELL_ORDER: Cell[] = [
  "url",
  "instruction",
  "input",
  "output",
  "successCondition",
  "timeoutMs",
  "maxSteps",
  "maxDurationSeconds",
  "mode",
];

/** Cells shown in a row's details (not in the table line itself). */
export const DETAIL_CELLS: ReadonlySet<Cell> = new Set<Cell>([
  "input",
  "output",
  "successCondition",
  "timeoutMs",
  "maxSteps",
  "maxDurationSeconds",
  "mode",
]);

export const DEFAULT_CONCURRENCY = "5";

let seq = 0;
/** A fresh id for a row or an input (unique within the run). */
export function newId(prefix = "t"): string {
  seq += 1;
  return `${prefix}${Date.now().toString(36)}${seq.toString(36)}`;
}

export function emptyRow(): TaskRow {
  return {
    id: newId(),
    url: "",
    instruction: "",
    inputs: [],
    output: "",
    successCondition: "",
    timeoutMs: "",
    maxSteps: "",
    maxDurationSeconds: "",
    mode: "",
  };
}

export function emptyDraft(): BuilderDraft {
  return { rows: [emptyRow()], concurrency: DEFAULT_CONCURRENCY };
}

/** A copy of `row` with new ids (its input values copied too: same run, same memory). */
export function duplicateRow(row: TaskRow): TaskRow {
  return { ...row, id: newId(), inputs: row.inputs.map((p) => ({ ...p, id: newId("i") })) };
}

/** True when nothing was typed in the row. */
export function isBlankRow(r: TaskRow): boolean {
  return (
    !r.url.trim() &&
    !r.instruction.trim() &&
    r.inputs.every((p) => !p.name.trim() && !p.value) &&
    !r.output.trim() &&
    !r.successCondition.trim() &&
    !r.timeoutMs.trim() &&
    !r.maxSteps.trim() &&
    !r.maxDurationSeconds.trim() &&
    !r.mode.trim()
  );
}

/** A whole number typed in a cell, or undefined when it is empty or not one. */
export function wholeNumber(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The schema typed, when it parses as JSON; undefined when empty or not JSON. */
export function parsedOutput(text: string): JsonValue | undefined {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * The task as the commands take it. Cells that do not parse (a schema that is not JSON, a number
 * that is not one) are left out: the row's own check says what is wrong with them.
 */
export function rowToTask(r: TaskRow, { withValues = true } = {}): BrowserTask {
  const task: BrowserTask = { url: r.url.trim() };
  if (r.instruction.trim()) task.instruction = r.instruction.trim();
  const named = r.inputs.filter((p) => p.name.trim());
  if (named.length > 0) {
    task.input = Object.fromEntries(named.map((p) => [p.name.trim(), withValues ? p.value : ""]));
  }
  const output = parsedOutput(r.output);
  if (output !== undefined) task.output = output;
  if (r.successCondition.trim()) task.successCondition = r.successCondition.trim();
  const timeoutMs = wholeNumber(r.timeoutMs);
  if (timeoutMs !== undefined) task.timeoutMs = timeoutMs;
  const maxSteps = wholeNumber(r.maxSteps);
  if (maxSteps !== undefined) task.maxSteps = maxSteps;
  const maxDuration = wholeNumber(r.maxDurationSeconds);
  if (maxDuration !== undefined) task.maxDurationSeconds = maxDuration;
  if (r.mode.trim()) task.mode = r.mode.trim();
  return task;
}

/** A row from a task read from a file or a job (its input values kept in memory). */
export function taskToRow(t: Partial<Record<keyof BrowserTask, unknown>>): TaskRow {
  const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
  const input = t.input && typeof t.input === "object" && !Array.isArray(t.input) ? (t.input as Record<string, unknown>) : {};
  let output = "";
  if (typeof t.output === "string") output = t.output;
  else if (t.output !== undefined && t.output !== null) output = JSON.stringify(t.output, null, 2);
  return {
    id: newId(),
    url: str(t.url),
    instruction: str(t.instruction),
    inputs: Object.entries(input).map(([name, value]) => ({ id: newId("i"), name, value: str(value) })),
    output,
    successCondition: str(t.successCondition),
    timeoutMs: str(t.timeoutMs),
    maxSteps: str(t.maxSteps),
    maxDurationSeconds: str(t.maxDurationSeconds),
    mode: str(t.mode),
  };
}

// ---- Keeping the draft ----

export const DRAFT_STORAGE_KEY = "specdesk.agents.draft";

/** What is written to localStorage: every cell but the input values. */
interface StoredDraft {
  version: 1;
  concurrency: string;
  rows: (Omit<TaskRow, "inputs"> & { inputs: { id: string; name: string }[] })[];
}

function isStored(v: unknown): v is StoredDraft {
  if (!v || typeof v !== "object") return false;
  const d = v as Record<string, unknown>;
  return d.version === 1 && Array.isArray(d.rows) && typeof d.concurrency === "string";
}

/** The draft as stored: input names kept, values dropped. */
export function storedForm(d: BuilderDraft): StoredDraft {
  return {
    version: 1,
    concurrency: d.concurrency,
    rows: d.rows.map((r) => ({ ...r, inputs: r.inputs.map((p) => ({ id: p.id, name: p.name })) })),
  };
}

export function isEmptyDraft(d: BuilderDraft): boolean {
  return d.rows.every(isBlankRow) && d.concurrency === DEFAULT_CONCURRENCY;
}

/** Writes the draft without its input values (removes it when empty). */
export function saveDraft(d: BuilderDraft): void {
  if (isEmptyDraft(d)) removeKey(DRAFT_STORAGE_KEY);
  else saveJson(DRAFT_STORAGE_KEY, storedForm(d));
}

/** The stored draft (input values empty: they are entered again), or an empty one. */
export function loadDraft(): BuilderDraft {
  const d = loadJson(DRAFT_STORAGE_KEY, isStored);
  if (!d) return emptyDraft();
  const rows = d.rows
    .filter((r): r is StoredDraft["rows"][number] => !!r && typeof r === "object")
    .map((r) => {
      const base = taskToRow({});
      const s = (v: unknown) => (typeof v === "string" ? v : "");
      return {
        ...base,
        id: s(r.id) || base.id,
        url: s(r.url),
        instruction: s(r.instruction),
        inputs: (Array.isArray(r.inputs) ? r.inputs : []).map((p) => ({ id: s(p?.id) || newId("i"), name: s(p?.name), value: "" })),
        output: s(r.output),
        successCondition: s(r.successCondition),
        timeoutMs: s(r.timeoutMs),
        maxSteps: s(r.maxSteps),
        maxDurationSeconds: s(r.maxDurationSeconds),
        mode: s(r.mode),
      };
    });
  return { rows: rows.length > 0 ? rows : [emptyRow()], concurrency: d.concurrency };
}

/** How many named inputs of the draft have no value yet (values are entered again after a restart). */
export function valuesMissing(d: BuilderDraft): number {
  return d.rows.reduce((n, r) => n + r.inputs.filter((p) => p.name.trim() && !p.value).length, 0);
}
