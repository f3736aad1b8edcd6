// Scenarios of the Plans area: every feature status, a cut app map and a long history; a spec
// with no project yet; a key without a paid plan; a slow read; a project with nothing planned;
// a long plan. Open one with ?scenario=<name> (see ../registry.ts).
import type { Feature } from "../../bindings/Feature";
import type { PlanPoint } from "../../bindings/PlanPoint";
import type { PlanResponse } from "../../bindings/PlanResponse";
import { SPEC_HABITS, baseHandlers, type MockDb } from "../base";
import { defineScenario, ipcError } from "../registry";

export const PROJECT_ALL = "6741a0c3e4b0f1a2b3c4d6a1";
export const PROJECT_EMPTY = "6741a0c3e4b0f1a2b3c4d6a2";
export const PROJECT_LONG = "6741a0c3e4b0f1a2b3c4d6a3";
export const PLAN_UPGRADE_URL = "https://example.com/account/upgrade";
export const PLAN_NEEDS_PAID = "This needs a paid plan. Upgrade your plan to use it.";
export const NO_PROJECT_YET =
  "This spec has no project yet. Wait until the spec is completed, then open its plan again.";

function feature(id: string, name: string, status: string, statusText: string, over: Partial<Feature> = {}): Feature {
  return {
    id,
    name,
    status,
    statusText,
    scope: "confirmed",
    addedByAgent: false,
    stories: { done: 0, total: 2 },
    counted: true,
    removedParts: [],
    partOf: null,
    ...over,
  };
}

/** Every status of the spec's table, an unknown one, an item extending a feature, and a suggestion. */
export function everyStatusFeatures(): Feature[] {
  return [
    feature("f-sign-in", "Sign in with email", "works", "Works", { stories: { done: 3, total: 3 } }),
    feature("f-recipes", "Recipes", "built_not_checked", "Built, not checked yet", { stories: { done: 4, total: 4 }, removedParts: ["Nutrition facts"] }),
    feature("f-photos", "Recipe photos", "planned", "Planned", { addedByAgent: true, partOf: "Recipes" }),
    feature("f-meal-plan", "Weekly meal plan", "changed_since_check", "Changed since its check passed", { stories: { done: 2, total: 2 } }),
    feature("f-list", "Shopping list", "needs_a_look", "Needs a look", { stories: { done: 2, total: 3 } }),
    feature("f-share", "Share a recipe by link", "not_working", "Not working", { stories: { done: 1, total: 1 } }),
    feature("f-search", "Search recipes", "in_progress", "In progress", { stories: { done: 1, total: 3 } }),
    feature("f-comments", "Comments", "planned", "Planned"),
    feature("f-import", "Import from a website", "waiting_for_review", "Waiting for your review", { stories: { done: 1, total: 1 } }),
    feature("f-pantry", "Pantry tracking", "planned", "Suggested", { scope: "proposed", addedByAgent: true, counted: false }),
    feature("f-delivery", "Grocery delivery", "out_of_scope", "Out of scope", { counted: false, stories: { done: 0, total: 0 } }),
    feature("f-nutrition", "Nutrition facts", "removed", "Removed", { counted: false, stories: { done: 0, total: 1 } }),
  ];
}

export const ALL_HISTORY: PlanPoint[] = [
  { computedAt: "2026-11-18T09:00:00.000Z", percent: 0, built: 0, provenWorking: 0, total: 9, statuses: { planned: 9 } },
  { computedAt: "2026-11-19T09:00:00.000Z", percent: 22, built: 2, provenWorking: 1, total: 9, statuses: { works: 1, built_not_checked: 1, in_progress: 2, planned: 5 } },
  { computedAt: "2026-11-20T09:00:00.000Z", percent: 44, built: 4, provenWorking: 1, total: 9, statuses: { works: 1, built_not_checked: 2, needs_a_look: 1, in_progress: 1, planned: 4 } },
  {
    computedAt: "2026-11-22T07:30:00.000Z",
    percent: 56,
    built: 5,
    provenWorking: 1,
    total: 9,
    statuses: { works: 1, built_not_checked: 1, changed_since_check: 1, needs_a_look: 1, not_working: 1, in_progress: 1, planned: 3, waiting_for_review: 1 },
  },
];

export function everyStatusPlan(): { response: PlanResponse; history: PlanPoint[] } {
  const endpoints = Array.from({ length: 25 }, (_, i) => ({
    name: `${i % 2 === 0 ? "POST" : "GET"} /api/recipes/${i + 1}`,
    anchor: `app/api/recipes/${i + 1}/route.ts:${i + 3}`,
    writes: i % 2 === 0,
  }));
  return {
    history: ALL_HISTORY,
    response: {
      projectId: PROJECT_ALL,
      specId: SPEC_HABITS,
      markdown: "# Recipe Box\n\n56% built (5 of 9 features; 1 proven working).\n",
      plan: {
        projectId: PROJECT_ALL,
        name: "Recipe Box",
        computedAt: "2026-11-22T07:30:00.000Z",
        codeVersion: { tree: "9f2c4e1a7b3d5f6081a2b3c4d5e6f708192a3b4c", short: "9f2c4e1" },
        intent: {
          text: "Recipe Box lets home cooks share recipes, plan a week of meals and get one merged shopping list.",
          proposedBySvc: true,
          removedSince: ["Nutrition facts"],
        },
        progress: { basis: "features", built: 5, provenWorking: 1, total: 9, left: 4, percent: 56, proposed: 1 },
        features: everyStatusFeatures(),
        readyToLaunch: {
          ready: false,
          items: [
            { id: "l-tests", label: "Tests pass", state: "ok", detail: null, fix: null },
            {
              id: "l-env",
              label: "Email provider key is set",
              state: "needs_fix",
              detail: "SMTP_PASSWORD is not set in production",
              fix: { action: "Set SMTP_PASSWORD", how: "Add it in the hosting dashboard under Environment, then redeploy." },
            },
          ],
        },
        appMap: {
          codeVersion: "9f2c4e1",
          mappedAt: "2026-11-22T07:29:58.000Z",
          screens: {
            count: 2,
            items: [
              { name: "Recipe list", anchor: "app/recipes/page.tsx:12", path: "/recipes" },
              { name: "Settings dialog", anchor: null, path: null },
            ],
          },
          endpoints: { count: 40, items: endpoints },
          storage: {
            count: 2,
            items: [
              { name: "Recipe", anchor: "prisma/schema.prisma:20", kind: "table", where: "PostgreSQL" },
              { name: "session", anchor: null, kind: "cookie", where: "browser" },
            ],
          },
        },
        lastRun: {
          runId: "run_01JD8Z3K4M",
          kind: "coding",
          endedAt: "2026-11-22T07:25:41.000Z",
          codeVersion: { before: "1a2b3c4", after: "9f2c4e1" },
          filesChanged: { count: 2, paths: ["app/recipes/page.tsx", "app/api/recipes/route.ts"] },
          appMap: {
            added: [{ kind: "endpoint", name: "POST /api/recipes" }],
            removed: [{ kind: "screen", name: "Old recipe editor" }],
            changed: [{ kind: "screen", name: "Recipe list" }],
          },
        },
      },
    },
  };
}

function addAll(db: MockDb) {
  db.plans[PROJECT_ALL] = everyStatusPlan();
}

defineScenario("plans-statuses", {}, {
  description: "A plan with every feature status (and an unknown one), a cut app map, a last run and four snapshots.",
  setup: addAll,
});

// The first read of the habits spec's plan finds no project yet; the next one finds it.
let noProjectReads = 0;
defineScenario(
  "plans-no-project",
  {
    get_plan: (args, ctx) => {
      if (args.target.specId === SPEC_HABITS) {
        noProjectReads += 1;
        if (noProjectReads === 1) throw ipcError("notFound", NO_PROJECT_YET, { status: 404 });
      }
      return baseHandlers.get_plan(args, ctx);
    },
  },
  { description: "The completed habits spec has no project on the first read (No project yet); Try again finds it." },
);

defineScenario(
  "plans-upgrade",
  {
    get_plan: () => {
      throw ipcError("subscriptionRequired", PLAN_NEEDS_PAID, { status: 401, action: { label: "Upgrade", url: PLAN_UPGRADE_URL } });
    },
  },
  { description: "A personal key without a paid plan: every plan is refused with an Upgrade action." },
);

defineScenario(
  "plans-loading",
  {
    get_plan: async (args, ctx) => {
      await ctx.gate("get_plan");
      return baseHandlers.get_plan(args, ctx);
    },
  },
  { description: "A plan read waits until the test releases the gate \"get_plan\"." },
);

defineScenario("plans-empty", {}, {
  description: "A project with nothing planned or built yet (plan is null).",
  setup: (db) => {
    db.plans[PROJECT_EMPTY] = {
      response: { projectId: PROJECT_EMPTY, specId: null, plan: null, markdown: "" },
      history: [],
    };
  },
});

defineScenario("plans-long", {}, {
  description: "A plan with 60 features and 30 snapshots.",
  setup: (db) => {
    const base = everyStatusPlan();
    const statuses: [string, string][] = [
      ["works", "Works"],
      ["built_not_checked", "Built, not checked yet"],
      ["in_progress", "In progress"],
      ["planned", "Planned"],
    ];
    const features = Array.from({ length: 60 }, (_, i) => {
      const [status, text] = statuses[i % statuses.length] ?? ["planned", "Planned"];
      return feature(`f-${i + 1}`, `Feature ${i + 1}`, status, text, { stories: { done: status === "works" ? 2 : 0, total: 2 } });
    });
    const history: PlanPoint[] = Array.from({ length: 30 }, (_, i) => {
      const works = Math.floor(i / 2);
      const built = Math.min(60, i * 2);
      return {
        computedAt: new Date(Date.parse("2026-10-24T09:00:00.000Z") + i * 86_400_000).toISOString(),
        percent: Math.round((built / 60) * 100),
        built,
        provenWorking: works,
        total: 60,
        statuses: { works, built_not_checked: built - works, planned: 60 - built },
      };
    });
    const plan = base.response.plan;
    if (!plan) return;
    db.plans[PROJECT_LONG] = {
      history,
      response: {
        ...base.response,
        projectId: PROJECT_LONG,
        specId: null,
        plan: {
          ...plan,
          projectId: PROJECT_LONG,
          name: "Big project",
          features,
          progress: { basis: "features", built: 58, provenWorking: 14, total: 60, left: 2, percent: 97, proposed: 0 },
        },
      },
    };
  },
});

