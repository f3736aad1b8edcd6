// Tasks from outside the app: rows pasted from a spreadsheet (URL, tab, instruction), a CSV file
// with a header row, or a JSON file (an array of tasks or `{tasks: [...]}`). Every reader either
// gives all its tasks or refuses the whole input with a sentence; nothing is half imported.
import Papa from "papaparse";
import { MAX_TASKS, taskToRow, type TaskRow } from "./model";

export type ImportResult = { ok: true; rows: TaskRow[]; note?: string } | { ok: false; message: string };

/** The refusal of an input with more tasks than a batch holds. */
export function tooManyMessage(count: number): string {
  return `This file has ${count} tasks; a batch holds at most ${MAX_TASKS}. Nothing was imported.`;
}

/** The CSV columns read (besides `input.<name>`). */
export const CSV_COLUMNS = [
  "url",
  "instruction",
  "successCondition",
  "timeoutMs",
  "maxSteps",
  "maxDurationSeconds",
  "mode",
  "output",
] as const;

const NUMBER_COLUMNS = new Set(["timeoutMs", "maxSteps", "maxDurationSeconds"]);

function refuse(message: string): ImportResult {
  return { ok: false, message };
}

/**
 * Rows pasted from a spreadsheet: one task a line, URL then instruction, separated by a tab. When
 * the first row names the columns ("url", "instruction", "maxSteps", "input.email"…, as a CSV
 * file's header does), every named column is read, as in a CSV file.
 */
export function parsePastedRows(text: string): ImportResult {
  const clean = text.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
  const parsed = Papa.parse<string[]>(clean, {
    delimiter: "\t",
    skipEmptyLines: "greedy",
  });
  let lines = parsed.data.filter((cells) => cells.some((c) => c.trim()));
  const header = lines[0]?.map((c) => c.trim()) ?? [];
  const named = header[0]?.toLowerCase() === "url";
  if (named && header.some((h, i) => i > 0 && h !== "instruction" && h !== "")) return parseTable(clean, "\t", PASTED);
  // A copied header row ("url  instruction") is not a task.
  if (named) lines = lines.slice(1);
  if (lines.length === 0) return refuse("Nothing to add: paste one task a line, its URL, a tab, then its instruction.");
  if (lines.length > MAX_TASKS) {
    return refuse(`These rows hold ${lines.length} tasks; a batch holds at most ${MAX_TASKS}. Nothing was added.`);
  }
  const rows = lines.map((cells) =>
    taskToRow({ url: (cells[0] ?? "").trim(), instruction: cells.slice(1).join("\t").trim() }),
  );
  return { ok: true, rows };
}

/** How a table's refusals name it: a CSV file, or rows pasted with a header. */
interface TableWords {
  noUrl: string;
  unclosed: (where: string) => string;
  tooMany: (count: number) => string;
  empty: string;
}

const CSV_FILE: TableWords = {
  noUrl: "This CSV file has no “url” column. Its first row must name the columns: url, instruction, and any of the others.",
  unclosed: (where) => `This CSV file could not be read${where}: a quoted value is not closed. Nothing was imported.`,
  tooMany: tooManyMessage,
  empty: "This CSV file has a header row but no tasks. Nothing was imported.",
};

const PASTED: TableWords = {
  noUrl: "The first pasted row must name the columns, starting with url.",
  unclosed: (where) => `The pasted rows could not be read${where}: a quoted value is not closed. Nothing was added.`,
  tooMany: (count) => `These rows hold ${count} tasks; a batch holds at most ${MAX_TASKS}. Nothing was added.`,
  empty: "The pasted rows name their columns but hold no task. Nothing was added.",
};

/** A CSV file with a header row (see CSV_COLUMNS and `input.<name>` columns). */
export function parseCsv(text: string): ImportResult {
  return parseTable(text, undefined, CSV_FILE);
}

/** A table whose first row names its columns (CSV_COLUMNS and `input.<name>`), comma- or tab-separated. */
function parseTable(text: string, delimiter: string | undefined, words: TableWords): ImportResult {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim(),
    ...(delimiter ? { delimiter } : {}),
  });
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes("url")) return refuse(words.noUrl);
  const broken = parsed.errors.find((e) => e.type === "Quotes");
  if (broken) return refuse(words.unclosed(broken.row !== undefined ? ` near task ${broken.row + 1}` : ""));
  const records = parsed.data.filter((r) => Object.values(r).some((v) => typeof v === "string" && v.trim()));
  if (records.length > MAX_TASKS) return refuse(words.tooMany(records.length));
  if (records.length === 0) return refuse(words.empty);
  const known = new Set<string>(CSV_COLUMNS);
  const inputColumns = fields.filter((f) => f.startsWith("input.") && f.length > "input.".length);
  const ignored = fields.filter((f) => f && !known.has(f) && !f.startsWith("input."));
  const rows = records.map((r) => {
    const cell = (k: string) => (typeof r[k] === "string" ? r[k] : "");
    const task: Record<string, unknown> = {};
    for (const k of CSV_COLUMNS) task[k] = NUMBER_COLUMNS.has(k) || k === "url" ? cell(k).trim() : cell(k);
    const input: Record<string, string> = {};
    for (const col of inputColumns) {
      const v = cell(col);
      if (v !== "") input[col.slice("input.".length)] = v;
    }
    task.input = input;
    const row = taskToRow(task);
    // A schema written compactly in one cell is shown laid out.
    try {
      if (row.output.trim()) row.output = JSON.stringify(JSON.parse(row.output), null, 2);
    } catch {
      // Kept as written: the row's check says what is wrong with it.
    }
    return row;
  });
  const note = ignored.length > 0 ? `Columns not read: ${ignored.join(", ")}.` : undefined;
  return note ? { ok: true, rows, note } : { ok: true, rows };
}

/** A JSON file: an array of tasks, or an object with a `tasks` array. */
export function parseJsonTasks(text: string): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return refuse(`This file is not valid JSON (${e instanceof Error ? e.message : "it does not parse"}). Nothing was imported.`);
  }
  const list =
    Array.isArray(data) ? data : data && typeof data === "object" && Array.isArray((data as { tasks?: unknown }).tasks) ? (data as { tasks: unknown[] }).tasks : null;
  if (!list) return refuse("This JSON file holds no tasks: it must be an array of tasks, or an object with a “tasks” array.");
  if (list.length > MAX_TASKS) return refuse(tooManyMessage(list.length));
  if (list.length === 0) return refuse("This JSON file has no tasks. Nothing was imported.");
  const bad = list.findIndex((t) => !t || typeof t !== "object" || Array.isArray(t));
  if (bad >= 0) return refuse(`Item ${bad + 1} of this file is not a task (an object with a “url”). Nothing was imported.`);
  return { ok: true, rows: list.map((t) => taskToRow(t as Record<string, unknown>)) };
}

/** Reads a file's text by its name: `.json` as JSON, anything else as CSV. */
export function parseTaskFile(name: string, text: string): ImportResult {
  const trimmed = text.replace(/^\uFEFF/, "");
  if (/\.json$/i.test(name) || (!/\.csv$/i.test(name) && /^\s*[[{]/.test(trimmed))) return parseJsonTasks(trimmed);
  return parseCsv(trimmed);
}
