// The Plans home: completed specs (one whose project was opened, two never opened), specs not
// completed (left out), and a project opened by its id with no spec; the opened project's plan has
// every feature status and a suggested feature. Open it with ?scenario=plans-home.
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { SANDBOX_ID } from "../state";
import { baseHandlers } from "../base";
import { defineScenario, ipcError } from "../registry";
import { PROJECT_ALL, everyStatusPlan } from "./plans";

export const SPEC_RECIPES = "6741a0c3e4b0f1a2b3c4d7a1";
export const SPEC_RUNNING = "6741a0c3e4b0f1a2b3c4d7a2";
export const PROJECT_CRM = "6741a0c3e4b0f1a2b3c4d7b1";

defineScenario("plans-home", {}, {
  description:
    "Plans home: Recipe Box (completed spec, opened, every status), the habits and climbing specs (completed, never opened), a spec still processing, and Legacy CRM opened by id.",
  setup: (db) => {
    const recipes: SpecStatusResponse = {
      _id: SPEC_RECIPES,
      specId: SPEC_RECIPES,
      endpoint: "fast_spec",
      input: "A recipe box for home cooks: share recipes, plan a week of meals and get one shopping list.",
      status: "completed",
      success: true,
      created: "2026-11-15T09:30:00.000Z",
      creditsUsed: 2.5,
      totalHumanHours: 60,
      zippedDocsUrls: [],
      projectId: PROJECT_ALL,
    };
    const running: SpecStatusResponse = {
      _id: SPEC_RUNNING,
      specId: SPEC_RUNNING,
      endpoint: "fast_spec",
      input: "A parking spot finder for a small town.",
      status: "processing",
      success: false,
      created: "2026-11-23T11:00:00.000Z",
      progress: "Writing stories",
    };
    db.specs = [running, ...db.specs, recipes];
    const plan = everyStatusPlan();
    plan.response.specId = SPEC_RECIPES;
    db.plans[PROJECT_ALL] = plan;
    db.recentProjects = [
      {
        projectId: PROJECT_ALL,
        profileId: SANDBOX_ID,
        name: "Recipe Box",
        specId: SPEC_RECIPES,
        percent: 56,
        built: 5,
        total: 9,
        computedAt: "2026-11-22T07:30:00.000Z",
        openedAt: "2026-11-22T09:00:00.000Z",
      },
      {
        projectId: PROJECT_CRM,
        profileId: SANDBOX_ID,
        name: "Legacy CRM",
        percent: 80,
        built: 4,
        total: 5,
        computedAt: "2026-11-19T15:00:00.000Z",
        openedAt: "2026-11-19T16:00:00.000Z",
      },
    ];
  },
});

/** How many completed specs the "plans-home-many" scenario holds: more than one page of 100. */
export const MANY_COMPLETED = 130;

/** The second page of completed specs fails once (the connection dropped), then is read. */
let secondPageRefused = false;

defineScenario("plans-home-many", {
  list_specs: (args, ctx) => {
    if (args.query.status === "completed" && (args.query.skip ?? 0) >= 100 && !secondPageRefused) {
      secondPageRefused = true;
      throw ipcError("network", "Specdesk could not reach the service. Check your connection, then try again.");
    }
    return baseHandlers.list_specs(args, ctx);
  },
}, {
  description: `Plans home over ${MANY_COMPLETED} completed specs (Project 1 the newest): the first 100 are listed, the rest come with "Show older projects" (refused once, then read).`,
  setup: (db) => {
    db.specs = Array.from({ length: MANY_COMPLETED }, (_, i): SpecStatusResponse => {
      const id = `6741a0c3e4b0f1a2b3c5${String(i).padStart(4, "0")}`;
      return {
        _id: id,
        specId: id,
        endpoint: "fast_spec",
        input: `Project ${i + 1}: a tool for a small team.`,
        status: "completed",
        success: true,
        created: new Date(Date.UTC(2026, 10, 20, 12) - i * 3_600_000).toISOString(),
        creditsUsed: 2.5,
        totalHumanHours: 40,
        zippedDocsUrls: [],
      };
    });
    db.recentProjects = [];
  },
});
