// Scenarios of failures the screen tests prove in both themes: a screen that fails to render (its
// area's error boundary), an error toast with its action, and a connection switched while the
// Specs library is open. Open one with ?scenario=<name> (see ../registry.ts).
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { baseHandlers } from "../base";
import { defineScenario, ipcError } from "../registry";
import { MISSING_KEY } from "../state";
import { PROJECT_ALL, everyStatusPlan } from "./plans";

defineScenario("screen-break", {}, {
  description: "The test build (app_info.testHooks): the e2e://break-screen event makes the named area's screen fail.",
  setup: (db) => {
    db.appInfo.testHooks = true;
  },
});

defineScenario(
  "plans-missing-key",
  {
    plan_markdown: () => {
      throw ipcError("missingKey", MISSING_KEY);
    },
  },
  {
    description: "A plan on screen whose Markdown export needs a key the connection lacks: an error toast with Open Settings.",
    setup: (db) => {
      db.plans[PROJECT_ALL] = everyStatusPlan();
    },
  },
);

export const WORK_PROFILE = "p_work";

/** The specs of the Work connection (the Sandbox keeps the base ones). */
const WORK_SPECS: SpecStatusResponse[] = [
  {
    _id: "6741a0c3e4b0f1a2b3c4e101",
    specId: "6741a0c3e4b0f1a2b3c4e101",
    endpoint: "fast_spec",
    input: "An invoicing tool for a small bakery: orders, invoices and a monthly statement.",
    status: "completed",
    success: true,
    created: "2026-11-22T09:30:00.000Z",
    creditsUsed: 2.5,
  },
  {
    _id: "6741a0c3e4b0f1a2b3c4e102",
    specId: "6741a0c3e4b0f1a2b3c4e102",
    endpoint: "fast_spec",
    input: "A shift planner for a hospital ward: rotas, swaps and leave requests.",
    status: "completed",
    success: true,
    created: "2026-11-21T08:00:00.000Z",
    creditsUsed: 2.5,
  },
];

// Each connection lists its own specs; the Work list waits for the test's "work-specs" gate.
let sandboxSpecs: SpecStatusResponse[] | null = null;
defineScenario(
  "connection-switch",
  {
    list_specs: async (args, ctx) => {
      sandboxSpecs ??= ctx.db.specs;
      if (ctx.db.settings.activeProfileId === WORK_PROFILE) {
        await ctx.gate("work-specs");
        ctx.db.specs = WORK_SPECS;
      } else {
        ctx.db.specs = sandboxSpecs;
      }
      return baseHandlers.list_specs(args, ctx);
    },
  },
  {
    description: "The Sandbox in use with its specs, and Work (with a key) whose specs differ; Work's list waits for the gate \"work-specs\".",
    setup: (db) => {
      db.profiles.push({
        id: WORK_PROFILE,
        name: "Work",
        baseUrl: "https://api.example.com",
        keyKind: "organization",
        projectId: "6741a0c3e4b0f1a2b3c4d5aa",
        builtIn: false,
        active: false,
        key: { hasKey: true, maskedTail: "••••9f2c" },
      });
      db.credits[WORK_PROFILE] = 2500;
    },
  },
);
