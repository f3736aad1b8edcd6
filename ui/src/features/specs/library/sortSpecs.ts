// Sorting the library's rows. The service has no sort order to ask for (list-specs and find-specs
// take only limit, skip, endpoint, status and a search, and list the newest first), so a column
// sorts the page the service returned; rows without a value (no hours yet) always come last.
import type { SpecRecord } from "../../../bindings/SpecRecord";

/** The sortable columns, as the library's address names them (./listAddress.ts). */
export const SORT_KEYS = ["description", "status", "depth", "created", "hours", "credits"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = "ascending" | "descending";

export interface SortOrder {
  key: SortKey;
  direction: SortDirection;
}

/** Statuses in the order a spec goes through them (a failed one last). */
const STATUS_RANK: Record<string, number> = { pending: 0, processing: 1, completed: 2, failed: 3 };
const DEPTH_RANK: Record<string, number> = { fast_spec: 0, deep_spec: 1 };

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** What a row shows as its name: the local title, else the description, else the file's name. */
export type NameOf = (spec: SpecRecord) => string;

function value(spec: SpecRecord, key: SortKey, nameOf: NameOf): string | number | undefined {
  switch (key) {
    case "description":
      return nameOf(spec);
    case "status":
      return STATUS_RANK[spec.status] ?? 4;
    case "depth":
      return DEPTH_RANK[spec.endpoint] ?? 2;
    case "created": {
      const t = Date.parse(spec.created);
      return Number.isNaN(t) ? undefined : t;
    }
    case "hours":
      return spec.totalHumanHours;
    case "credits":
      return spec.creditsUsed;
  }
}

/** The rows in `order` (a new array; equal rows keep the service's order). */
export function sortSpecs(specs: readonly SpecRecord[], order: SortOrder | null, nameOf: NameOf): SpecRecord[] {
  if (!order) return [...specs];
  const sign = order.direction === "ascending" ? 1 : -1;
  const keyed = specs.map((spec) => ({ spec, v: value(spec, order.key, nameOf) }));
  keyed.sort((a, b) => {
    if (a.v === undefined || b.v === undefined) return (a.v === undefined ? 1 : 0) - (b.v === undefined ? 1 : 0);
    const c = typeof a.v === "string" && typeof b.v === "string" ? collator.compare(a.v, b.v) : Number(a.v) - Number(b.v);
    return sign * c;
  });
  return keyed.map((k) => k.spec);
}

/** A header clicked: its column ascending first (dates newest first), then the other way. */
export function nextSort(current: SortOrder | null, key: SortKey): SortOrder {
  if (current?.key === key) return { key, direction: current.direction === "ascending" ? "descending" : "ascending" };
  return { key, direction: key === "created" ? "descending" : "ascending" };
}
