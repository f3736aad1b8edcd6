// The spec library's filters, checked before a query is sent.
import type { SpecQuery } from "../../ipc/contract";

export interface LibraryFilters {
  endpoint: "" | "fast_spec" | "deep_spec";
  status: "" | "pending" | "processing" | "completed" | "failed";
  search: string;
  pageSize: number;
  skip: number;
}

export const DEFAULT_FILTERS: LibraryFilters = { endpoint: "", status: "", search: "", pageSize: 20, skip: 0 };

/** Null when `pattern` is a usable search (empty, or a valid regular expression). */
export function checkPattern(pattern: string): string | null {
  if (!pattern.trim()) return null;
  try {
    new RegExp(pattern, "i");
    return null;
  } catch {
    return `“${pattern}” is not a search pattern the service can use: a bracket or a special character such as ( [ { * + ? \\ is out of place. Close every bracket, or put a \\ before a special character to search for it as it is.`;
  }
}

export const PAGE_SIZE_MESSAGE = "Show between 1 and 100 specs per page (a whole number).";

/** The page size, or null when the text is not a whole number from 1 to 100. */
export function parsePageSize(raw: string): number | null {
  if (!/^\s*\d+\s*$/.test(raw)) return null;
  const n = Number(raw.trim());
  return n >= 1 && n <= 100 ? n : null;
}

export function toQuery(f: LibraryFilters): SpecQuery {
  const q: SpecQuery = { limit: f.pageSize, skip: f.skip };
  if (f.endpoint) q.endpoint = f.endpoint;
  if (f.status) q.status = f.status;
  if (f.search.trim()) q.search = f.search;
  return q;
}

/** "21–40 of 57"; "No specs" when empty. */
export function pageRange(skip: number, shown: number, total: number): string {
  if (shown === 0) return total > 0 ? `None here of ${total}` : "No specs";
  return `${skip + 1}–${skip + shown} of ${total}`;
}
