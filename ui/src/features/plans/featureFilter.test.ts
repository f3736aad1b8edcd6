import { describe, expect, it } from "vitest";
import type { Feature } from "../../bindings/Feature";
import { CONFIRM_SUGGESTED, CONFIRM_SUGGESTED_NO_SPEC, featureFacts } from "./featureFacts";
import { ALL, SUGGESTED, effectiveKey, filterChips, filterFeatures, statusKey } from "./featureFilter";

function f(id: string, name: string, status: string, over: Partial<Feature> = {}): Feature {
  return {
    id,
    name,
    status,
    statusText: "",
    scope: "confirmed",
    addedByAgent: false,
    stories: { done: 0, total: 2 },
    counted: true,
    removedParts: [],
    partOf: null,
    ...over,
  };
}

const FEATURES: Feature[] = [
  f("a", "Sign in", "works", { stories: { done: 3, total: 3 } }),
  f("b", "Recipes", "built_not_checked", { removedParts: ["Nutrition facts", { name: "Ratings" }] }),
  f("c", "Recipe photos", "planned", { partOf: "Recipes", addedByAgent: true, stories: { done: 0, total: 1 } }),
  f("d", "Comments", "planned"),
  f("e", "Import", "waiting_for_review", { statusText: "Waiting for your review" }),
  f("g", "Pantry", "planned", { scope: "proposed", counted: false }),
  f("h", "Delivery", "out_of_scope", { counted: false }),
  f("i", "Export", "in_progress", { partOf: "Reports" }),
];

describe("filterChips", () => {
  it("counts All, each status present in the chart's order, unknown ones, then Suggested", () => {
    expect(filterChips(FEATURES).map((c) => [c.key, c.label, c.count])).toEqual([
      ["all", "All", 8],
      ["status:works", "Works", 1],
      ["status:built_not_checked", "Built, not checked yet", 1],
      ["status:in_progress", "In progress", 1],
      ["status:planned", "Planned", 3],
      ["status:out_of_scope", "Out of scope", 1],
      ["status:waiting_for_review", "Waiting for your review", 1],
      ["suggested", "Suggested", 1],
    ]);
  });

  it("has only All without features, and no Suggested chip without a suggestion", () => {
    expect(filterChips([])).toEqual([{ key: "all", label: "All", count: 0 }]);
    expect(filterChips([f("x", "X", "mystery")]).map((c) => c.label)).toEqual(["All", "Mystery"]);
  });
});

describe("filterFeatures", () => {
  it("keeps the service's order for a status, Suggested and All", () => {
    expect(filterFeatures(FEATURES, statusKey("planned")).map((x) => x.id)).toEqual(["c", "d", "g"]);
    expect(filterFeatures(FEATURES, SUGGESTED).map((x) => x.id)).toEqual(["g"]);
    expect(filterFeatures(FEATURES, statusKey("removed"))).toEqual([]);
    expect(filterFeatures(FEATURES, ALL)).toHaveLength(8);
    expect(filterFeatures(FEATURES, "nonsense")).toHaveLength(8);
  });

  it("falls back to All when the chosen chip has nothing left", () => {
    const chips = filterChips(FEATURES);
    expect(effectiveKey(chips, statusKey("planned"))).toBe("status:planned");
    expect(effectiveKey(chips, statusKey("removed"))).toBe("all");
  });
});

describe("featureFacts", () => {
  it("says stories, removed parts, what it extends and what extends it", () => {
    const recipes = featureFacts(FEATURES[1] as Feature, FEATURES, true);
    expect(recipes).toEqual({
      stories: "0 of 2 stories done",
      counted: "Yes",
      scope: "Confirmed",
      extends: null,
      extendedBy: [FEATURES[2]],
      removed: ["Nutrition facts", "Ratings"],
      confirm: null,
    });
    expect(featureFacts(FEATURES[2] as Feature, FEATURES, true)).toMatchObject({ stories: "0 of 1 story done", extends: { name: "Recipes", present: true }, extendedBy: [] });
    expect(featureFacts(FEATURES[7] as Feature, FEATURES, true).extends).toEqual({ name: "Reports", present: false });
  });

  it("tells how to confirm a suggested feature, with or without a spec", () => {
    expect(featureFacts(FEATURES[5] as Feature, FEATURES, true)).toMatchObject({ scope: "Suggested", counted: "No, not until it is confirmed", confirm: CONFIRM_SUGGESTED });
    expect(featureFacts(FEATURES[5] as Feature, FEATURES, false).confirm).toBe(CONFIRM_SUGGESTED_NO_SPEC);
    expect(featureFacts(FEATURES[6] as Feature, FEATURES, true)).toMatchObject({ counted: "No, listed only", confirm: null });
  });
});
