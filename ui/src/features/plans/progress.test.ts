import { describe, expect, it } from "vitest";
import planFixture from "../../../../crates/types/tests/fixtures/plans/plan-response.json";
import storiesFixture from "../../../../crates/types/tests/fixtures/plans/plan-response-stories-basis.json";
import type { PlanResponse } from "../../bindings/PlanResponse";
import type { PlanPoint } from "../../bindings/PlanPoint";
import { CHART_BOX, chartData, cutLabel, featureRows, historyStatuses, parseAnchor, progressFacts } from "./progress";

function planOf(r: unknown) {
  const plan = (r as PlanResponse).plan;
  if (!plan) throw new Error("fixture without a plan");
  return plan;
}
const plan = planOf(planFixture);

describe("plan progress", () => {
  it("gives the progress numbers", () => {
    expect(progressFacts(plan.progress)).toEqual({
      percent: 63,
      built: 5,
      provenWorking: 1,
      total: 8,
      left: 3,
      proposed: 1,
      unit: "features",
      basisText: "Counted by features.",
      provenShare: 12.5,
      builtShare: 50,
      headline: "5 of 8 features built",
    });
    const stories = progressFacts(planOf(storiesFixture).progress);
    expect(stories.headline).toBe("3 of 5 stories built");
    expect(stories.basisText).toBe("Counted by stories: this project's tasks are not grouped into features yet.");
    expect([stories.provenShare, stories.builtShare]).toEqual([40, 20]);
  });

  it("puts partOf items under their feature and marks what is not counted", () => {
    const rows = featureRows(plan.features);
    expect(rows.map((r) => [r.feature.name, r.depth, r.notCounted, r.proposed])).toEqual([
      ["Sign in with email", 0, false, false],
      ["Recipes", 0, false, false],
      ["Recipe photos", 1, false, false],
      ["Weekly meal plan", 0, false, false],
      ["Shopping list", 0, false, false],
      ["Share a recipe by link", 0, false, false],
      ["Search recipes", 0, false, false],
      ["Comments", 0, false, false],
      ["Pantry tracking", 0, true, true],
      ["Grocery delivery", 0, true, false],
      ["Nutrition facts", 0, true, false],
    ]);
  });

  it("moves a partOf item listed away from its feature under it, and keeps one whose feature is missing", () => {
    const base = plan.features[0];
    if (!base) throw new Error("fixture without features");
    const rows = featureRows([
      { ...base, id: "x1", name: "Extra export", partOf: "Reports" },
      { ...base, id: "r", name: "Reports", partOf: null },
      { ...base, id: "o", name: "Orphan", partOf: "Gone" },
    ]);
    expect(rows.map((r) => [r.feature.name, r.depth, r.orphanOf])).toEqual([
      ["Reports", 0, null],
      ["Extra export", 1, null],
      ["Orphan", 0, "Gone"],
    ]);
  });

  it("says 25 of N when the app map list is cut", () => {
    expect(cutLabel({ count: 40, items: new Array(25).fill({}) })).toBe("25 of 40");
    expect(cutLabel(plan.appMap?.screens ?? { count: -1, items: [] })).toBe("2");
    expect(cutLabel({ count: 0, items: [] })).toBe("0");
    expect(parseAnchor("app/recipes/page.tsx:12")).toEqual({ file: "app/recipes/page.tsx", line: 12 });
    expect(parseAnchor("app/api/recipes/route.ts")).toEqual({ file: "app/api/recipes/route.ts", line: null });
    expect(parseAnchor(null)).toBeNull();
  });
});

describe("progress over time chart", () => {
  const history: PlanPoint[] = [
    { computedAt: "2026-11-20T08:00:00Z", percent: 0, built: 0, provenWorking: 0, total: 4, statuses: { planned: 4 } },
    { computedAt: "2026-11-21T08:00:00Z", percent: 50, built: 2, provenWorking: 1, total: 4, statuses: { works: 1, built_not_checked: 1, planned: 2 } },
    { computedAt: "2026-11-22T08:00:00Z", percent: 100, built: 4, provenWorking: 2, total: 4, statuses: { works: 2, needs_a_look: 1, built_not_checked: 1, beta: 1 } },
  ];

  it("places one column per snapshot with the percent line", () => {
    // Plot: x 44..592 (548 wide, 3 bands of 182.67), y 16..204 (188 high).
    const d = chartData(history, CHART_BOX);
    expect(d.points.map((p) => [p.x, p.y, p.percent])).toEqual([
      [135.33, 204, 0],
      [318, 110, 50],
      [500.67, 16, 100],
    ]);
    expect(d.path).toBe("M135.33,204 L318,110 L500.67,16");
    expect(d.barWidth).toBe(28);
    expect(d.maxCount).toBe(5);
    expect(d.statuses).toEqual(["works", "built_not_checked", "needs_a_look", "planned", "beta"]);
  });

  it("stacks the status counts from the bottom", () => {
    const d = chartData(history, CHART_BOX);
    expect(d.points[0]?.bars).toEqual([{ status: "planned", count: 4, y: 53.6, height: 150.4 }]);
    expect(d.points[1]?.bars).toEqual([
      { status: "works", count: 1, y: 166.4, height: 37.6 },
      { status: "built_not_checked", count: 1, y: 128.8, height: 37.6 },
      { status: "planned", count: 2, y: 53.6, height: 75.2 },
    ]);
    expect(d.points[2]?.bars.map((b) => [b.status, b.count, b.y])).toEqual([
      ["works", 2, 128.8],
      ["built_not_checked", 1, 91.2],
      ["needs_a_look", 1, 53.6],
      ["beta", 1, 16],
    ]);
  });

  it("handles one snapshot and none", () => {
    const one = chartData(history.slice(1, 2), CHART_BOX);
    expect(one.points.map((p) => [p.x, p.y])).toEqual([[318, 110]]);
    expect(one.path).toBe("M318,110");
    expect(chartData([], CHART_BOX).points).toEqual([]);
    expect(historyStatuses([])).toEqual([]);
  });
});
