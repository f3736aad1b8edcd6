// When a task's `data` reads best as a table: an array of records (plain objects) that mostly
// share the same keys. Columns are the keys in order of first appearance.
import type { JsonValue } from "../../../bindings/serde_json/JsonValue";

export type JsonRecord = { [key: string]: JsonValue | undefined };

export function isRecord(v: unknown): v is JsonRecord {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The share of keys a record must have in common with the columns: at least this. */
export const SHARED_KEYS_MIN = 0.6;

/**
 * The columns of a table for `data`, or null when it is not a list of like records: an array of
 * at least one object, every item an object, and each item holding at least 60% of the keys
 * that appear in over half of the items (and at least one of them).
 */
export function tableColumns(data: JsonValue | null | undefined): string[] | null {
  if (!Array.isArray(data) || data.length === 0) return null;
  if (!data.every(isRecord)) return null;
  const rows = data as JsonRecord[];
  const seen = new Map<string, number>();
  for (const r of rows) for (const k of Object.keys(r)) seen.set(k, (seen.get(k) ?? 0) + 1);
  const common = [...seen.entries()].filter(([, n]) => n > rows.length / 2).map(([k]) => k);
  if (common.length === 0) return null;
  const like = rows.every((r) => {
    const have = common.filter((k) => Object.prototype.hasOwnProperty.call(r, k)).length;
    return have >= 1 && have / common.length >= SHARED_KEYS_MIN;
  });
  return like ? [...seen.keys()] : null;
}

/** A cell's text: strings as they are, other values as compact JSON, missing as "". */
export function cellText(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}
