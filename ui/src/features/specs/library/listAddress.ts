// The library's list as part of its address (`#/specs?q=…&status=…&sort=…&page=…`): its search,
// filters, page size, page, sort and whether the archived specs are listed. Back, Forward and a
// relaunch (features/shell/history.ts keeps the last address) then reopen the very list the user
// left, not the defaults.
//
// Reading is lenient, one parameter at a time: an unknown parameter, or a value the library does
// not offer (a page size of 7, a status it has no filter for, a pattern that is not a valid regular
// expression), is dropped and its default used, so a hand-typed address or one kept by an older
// version shows a list rather than an error. Writing leaves the defaults out, in one fixed order,
// so one list has exactly one address (history.ts compares addresses as text).
//
//   q=<text>             the search (trimmed)           pattern=1   the search is a regular expression
//   depth=fast|deep      the Depth filter                status=pending|processing|completed|failed
//   size=10|50           the page size (25 left out)     page=<n>    the page, from 1 (1 left out)
//   sort=<column>        sorted by a column, ascending;  sort=-<column> descending (SORT_KEYS)
//   archived=1           the archived specs are listed instead
import { checkPattern, DEFAULT_FILTERS, PAGE_SIZES, type LibraryFilters } from "../libraryFilters";
import { SORT_KEYS, type SortKey, type SortOrder } from "./sortSpecs";

/** Everything the library's list shows besides the specs themselves. */
export interface ListView {
  filters: LibraryFilters;
  sort: SortOrder | null;
  showArchived: boolean;
}

export const DEFAULT_VIEW: ListView = { filters: DEFAULT_FILTERS, sort: null, showArchived: false };

/** The highest page an address may name: keeps the offset asked of the service sane. */
const MAX_PAGE = 100_000;
const PAGE_NUMBER = /^[1-9][0-9]{0,5}$/;
const STATUSES: readonly LibraryFilters["status"][] = ["pending", "processing", "completed", "failed"];

const isSortKey = (v: string): v is SortKey => (SORT_KEYS as readonly string[]).includes(v);

function depthOf(value: string | null): LibraryFilters["endpoint"] {
  if (value === "fast") return "fast_spec";
  if (value === "deep") return "deep_spec";
  return "";
}

function sortOf(value: string | null): SortOrder | null {
  if (!value) return null;
  const descending = value.startsWith("-");
  const key = descending ? value.slice(1) : value;
  return isSortKey(key) ? { key, direction: descending ? "descending" : "ascending" } : null;
}

/** The list an address's query names (without its `?`); the defaults for anything unusable. */
export function parseList(query: string): ListView {
  // URLSearchParams never throws, even on a malformed %-escape.
  const params = new URLSearchParams(query);
  const pattern = params.get("pattern") === "1";
  const typed = (params.get("q") ?? "").trim();
  // The search box never runs a pattern that is not a valid regular expression: neither does the address.
  const search = pattern && checkPattern(typed) ? "" : typed;
  const size = params.get("size");
  const pageSize = PAGE_SIZES.find((n) => String(n) === size) ?? DEFAULT_FILTERS.pageSize;
  const page = params.get("page") ?? "";
  const pageNumber = PAGE_NUMBER.test(page) && Number(page) <= MAX_PAGE ? Number(page) : 1;
  const status = STATUSES.find((s) => s !== "" && s === params.get("status")) ?? "";
  return {
    filters: { endpoint: depthOf(params.get("depth")), status, search, pattern, pageSize, skip: (pageNumber - 1) * pageSize },
    sort: sortOf(params.get("sort")),
    showArchived: params.get("archived") === "1",
  };
}

/** The address's query for a list (without its `?`): "" for the defaults. */
export function formatList(view: ListView): string {
  const { filters: f, sort, showArchived } = view;
  const params = new URLSearchParams();
  const search = f.search.trim();
  if (search) params.set("q", search);
  if (f.pattern) params.set("pattern", "1");
  if (f.endpoint) params.set("depth", f.endpoint === "deep_spec" ? "deep" : "fast");
  if (f.status) params.set("status", f.status);
  if (f.pageSize !== DEFAULT_FILTERS.pageSize) params.set("size", String(f.pageSize));
  const page = Math.floor(f.skip / f.pageSize) + 1;
  if (page > 1) params.set("page", String(page));
  if (sort) params.set("sort", `${sort.direction === "descending" ? "-" : ""}${sort.key}`);
  if (showArchived) params.set("archived", "1");
  return params.toString();
}

/** A list address's query in its one written form (what the router keeps). */
export function canonicalList(query: string): string {
  return formatList(parseList(query));
}
