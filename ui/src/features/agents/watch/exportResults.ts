// A batch's results as CSV and JSON files. Input values are secrets: they are never part of an
// export (the watched state does not even keep them). Text a spreadsheet would run as a formula
// (a cell starting with =, +, -, @, a tab or a carriage return) is prefixed with ' in the CSV.
import type { TaskView } from "./reducer";

export interface ExportBatch {
  id: string;
  status?: string;
  createdAt?: string;
  completedAt?: string;
  totalCreditsUsed: number;
  totalCost?: number;
}

export interface ExportRow {
  task: number;
  url: string;
  instruction: string;
  status: string;
  durationMs: number | null;
  creditsUsed: number | null;
  cost: number | null;
  error: string;
  data: unknown;
}

/** The rows of an export, one per task (numbered from 1). */
export function exportRows(tasks: TaskView[]): ExportRow[] {
  return tasks.map((t) => ({
    task: t.index + 1,
    url: t.url ?? "",
    instruction: t.instruction ?? "",
    status: t.phase,
    durationMs: t.durationMs ?? null,
    creditsUsed: t.creditsUsed ?? null,
    cost: t.cost ?? null,
    error: t.error ?? "",
    data: t.data ?? null,
  }));
}

export const CSV_COLUMNS = ["task", "url", "instruction", "status", "durationMs", "creditsUsed", "cost", "error", "data"] as const;

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV with a header row; `data` as JSON in one column; lines end with \r\n (RFC 4180). */
export function resultsCsv(tasks: TaskView[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of exportRows(tasks)) lines.push(CSV_COLUMNS.map((c) => csvCell(r[c])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** JSON: the batch's facts and every task's result, pretty-printed. */
export function resultsJson(batch: ExportBatch, tasks: TaskView[]): string {
  const out = {
    batchId: batch.id,
    status: batch.status ?? null,
    createdAt: batch.createdAt ?? null,
    completedAt: batch.completedAt ?? null,
    totalCreditsUsed: batch.totalCreditsUsed,
    totalCost: batch.totalCost ?? null,
    results: exportRows(tasks),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** "batch-6741a0c3-results.csv": the batch id's first 8 characters. */
export function exportFileName(batchId: string, ext: "csv" | "json"): string {
  const short = batchId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 8) || "batch";
  return `batch-${short}-results.${ext}`;
}
