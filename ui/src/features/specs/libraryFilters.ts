// The spec library's filters, checked before a query is sent. The search is plain text by default
// (escaped into the regular expression the service's find-specs takes, so "c++" finds "c++");
// "Pattern" sends the user's own regular expression, checked first.
import type { SpecQuery } from "../../ipc/contract";
import type { SpecRecord } from "../../bindings/SpecRecord";

export interface LibraryFilters {
  endpoint: "" | "fast_spec" | "deep_spec";
  status: "" | "pending" | "processing" | "completed" | "failed";
  /** What the user typed (trimmed). */
  search: string;
  /** True: `search` is a regular expression; false: plain text. */
  pattern: boolean;
  pageSize: number;
  skip: number;
}

/** The page sizes the library offers. */
export const PAGE_SIZES = [10, 25, 50] as const;

export const DEFAULT_FILTERS: LibraryFilters = { endpoint: "", status: "", search: "", pattern: false, pageSize: 25, skip: 0 };

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

/**
 * Plain text as a regular expression that matches exactly that text: every special character
 * escaped (a set every engine in the chain reads the same way: the browser, Rust's regex on the
 * sandbox and the offline search, the service's), and any run of white space matching any run.
 */
export function plainToPattern(text: string): string {
  return text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "")
    .map((w) => w.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&"))
    .join("\\s+");
}

/** The regular expression sent for the filters' search ("" when there is none). */
export function searchPattern(f: Pick<LibraryFilters, "search" | "pattern">): string {
  if (!f.search.trim()) return "";
  return f.pattern ? f.search : plainToPattern(f.search);
}

export function toQuery(f: LibraryFilters): SpecQuery {
  const q: SpecQuery = { limit: f.pageSize, skip: f.skip };
  if (f.endpoint) q.endpoint = f.endpoint;
  if (f.status) q.status = f.status;
  const search = searchPattern(f);
  if (search) q.search = search;
  return q;
}

/**
 * Whether a spec passes the filters, by the service's rules (a case-insensitive regular expression
 * on the description): for the archived specs, which are listed from this computer.
 */
export function matchesFilters(spec: SpecRecord, f: LibraryFilters): boolean {
  if (f.endpoint && spec.endpoint !== f.endpoint) return false;
  if (f.status && spec.status !== f.status) return false;
  const pattern = searchPattern(f);
  if (!pattern) return true;
  try {
    return new RegExp(pattern, "i").test(spec.input);
  } catch {
    return false;
  }
}

/** "21–40 of 57"; "No specs" when empty. */
export function pageRange(skip: number, shown: number, total: number): string {
  if (shown === 0) return total > 0 ? `None here of ${total}` : "No specs";
  return `${skip + 1}–${skip + shown} of ${total}`;
}
