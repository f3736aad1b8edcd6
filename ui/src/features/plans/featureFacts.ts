// What a feature's detail panel says, from the fields a plan's feature carries (`Feature`):
// stories done of total, the parts taken out, what it extends and what extends it, and for a
// suggested one how to confirm it. Pure functions, tested in featureFilter.test.ts.
import type { Feature } from "../../bindings/Feature";
import { isSuggested } from "./featureFilter";

/**
 * How a suggested feature becomes confirmed. The service counts a suggested (`proposed`) feature
 * only once the owner confirms it, and offers no call to confirm it: that happens on the project's
 * own page on the service (the spec's `svcUrl`, "The project" on the spec's page).
 */
export const CONFIRM_SUGGESTED =
  "Suggested by the service, so not counted yet: to confirm it, open its spec, choose “The project” and accept the suggestion there; it counts from the next read of the plan.";
/** The same when the plan names no spec (opened by project id). */
export const CONFIRM_SUGGESTED_NO_SPEC =
  "Suggested by the service, so not counted yet: to confirm it, open the project on the service and accept the suggestion there; it counts from the next read of the plan.";

/** A part taken out, as words (the service sends names; anything else is shown by its `name` or as JSON). */
export function partName(p: unknown): string {
  if (typeof p === "string") return p;
  if (typeof p === "object" && p !== null && "name" in p) return String((p as { name: unknown }).name);
  return JSON.stringify(p);
}

export function removedParts(f: Feature): string[] {
  return f.removedParts.map(partName);
}

export interface FeatureFacts {
  stories: string;
  counted: string;
  scope: string;
  /** The built feature this item extends (`partOf`), and whether it is in this plan. */
  extends: { name: string; present: boolean } | null;
  /** Items that extend this feature. */
  extendedBy: Feature[];
  removed: string[];
  /** Set on a suggested feature. */
  confirm: string | null;
}

export function featureFacts(f: Feature, all: Feature[], hasSpec: boolean): FeatureFacts {
  const suggested = isSuggested(f);
  return {
    stories: `${f.stories.done} of ${f.stories.total} ${f.stories.total === 1 ? "story" : "stories"} done`,
    counted: f.counted ? "Yes" : suggested ? "No, not until it is confirmed" : "No, listed only",
    scope: suggested ? "Suggested" : f.scope === "confirmed" ? "Confirmed" : f.scope,
    extends: f.partOf === null ? null : { name: f.partOf, present: all.some((o) => o.partOf === null && o.name === f.partOf) },
    extendedBy: f.partOf === null ? all.filter((o) => o.partOf === f.name) : [],
    removed: removedParts(f),
    confirm: suggested ? (hasSpec ? CONFIRM_SUGGESTED : CONFIRM_SUGGESTED_NO_SPEC) : null,
  };
}
