// Filtering a plan's features: "All", one chip per status present (in the chart's order, then
// statuses this version does not know, in the service's order) and "Suggested" (scope
// `proposed`), each with its count. Pure functions, tested in featureFilter.test.ts.
import type { Feature } from "../../bindings/Feature";
import { STATUS_ORDER, humanize, isKnownStatus, statusLabel } from "./status";

/** `all`, `suggested`, or `status:<status>` (prefixed so no status can be taken for the others). */
export type FeatureFilterKey = string;

export const ALL: FeatureFilterKey = "all";
export const SUGGESTED: FeatureFilterKey = "suggested";
export const statusKey = (status: string): FeatureFilterKey => `status:${status}`;

export interface FilterChip {
  key: FeatureFilterKey;
  label: string;
  count: number;
}

export function isSuggested(f: Feature): boolean {
  return f.scope === "proposed";
}

/** The chips for these features; only statuses present get one, and "Suggested" only if any is. */
export function filterChips(features: Feature[]): FilterChip[] {
  const counts = new Map<string, number>();
  const unknownText = new Map<string, string>();
  for (const f of features) {
    counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
    if (!isKnownStatus(f.status) && !unknownText.has(f.status) && f.statusText.trim()) unknownText.set(f.status, f.statusText.trim());
  }
  const chips: FilterChip[] = [{ key: ALL, label: "All", count: features.length }];
  for (const s of STATUS_ORDER) {
    const n = counts.get(s);
    if (n) chips.push({ key: statusKey(s), label: statusLabel(s), count: n });
  }
  for (const [s, n] of counts) {
    if (!isKnownStatus(s)) chips.push({ key: statusKey(s), label: unknownText.get(s) ?? humanize(s), count: n });
  }
  const suggested = features.filter(isSuggested).length;
  if (suggested > 0) chips.push({ key: SUGGESTED, label: "Suggested", count: suggested });
  return chips;
}

/** The features a chip shows, in the service's order. An unknown key shows them all. */
export function filterFeatures(features: Feature[], key: FeatureFilterKey): Feature[] {
  if (key === SUGGESTED) return features.filter(isSuggested);
  if (key.startsWith("status:")) {
    const status = key.slice("status:".length);
    return features.filter((f) => f.status === status);
  }
  return features;
}

/** The chip in effect: `key` while it still has features, else "All" (after a refresh). */
export function effectiveKey(chips: FilterChip[], key: FeatureFilterKey): FeatureFilterKey {
  return chips.some((c) => c.key === key && c.count > 0) ? key : ALL;
}
