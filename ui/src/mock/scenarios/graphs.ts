// Graph shapes for the screen tests of the spec view's graphs (playwright/graphs.test.mjs): a tall
// chain of nine steps, a wide fan-out of eight services under one gateway, and a small graph.
// Open with ?scenario=graphs-shapes, then a spec of the library by its input.
import type { Graph } from "../../bindings/Graph";
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { defineScenario } from "../registry";
import { deepSpec } from "./specs";

export const SPEC_CHAIN = "6741a0c3e4b0f1a2b3c4d6a1";
export const SPEC_SMALL = "6741a0c3e4b0f1a2b3c4d6a2";
export const CHAIN_INPUT = "A nine-step onboarding checklist for new hires";
export const SMALL_INPUT = "A kitchen timer with presets";

const STEPS = ["Invite", "Sign up", "Profile", "Team", "Tools", "Training", "Buddy", "Review", "Done"];

/** Nine steps, each leading to the next: the user flow SpecView asks top to bottom for. */
export const CHAIN: Graph = {
  nodes: STEPS.map((label, i) => ({ id: `s${i + 1}`, label, type: "screen", level: String(i + 1), hours: 2 })),
  edges: STEPS.slice(1).map((_, i) => ({ source: `s${i + 1}`, target: `s${i + 2}`, description: "next", edgeType: "navigation" })),
};

const SERVICES = ["Accounts", "Billing", "Search", "Mail", "Files", "Reports", "Audit", "Chat"];

/** A gateway and the eight services it calls: the architecture SpecView asks left to right for. */
export const FAN_OUT: Graph = {
  nodes: [
    { id: "gw", label: "API gateway", type: "backend", hours: 10 },
    ...SERVICES.map((label) => ({ id: label.toLowerCase(), label, type: "service", hours: 8 })),
  ],
  edges: SERVICES.map((label) => ({ source: "gw", target: label.toLowerCase(), edgeType: "http" })),
};

/** A start screen with two ways on. */
export const SMALL_FLOW: Graph = {
  nodes: [
    { id: "home", label: "Presets", type: "screen", hours: 3 },
    { id: "timer", label: "Timer", type: "screen", hours: 4 },
    { id: "edit", label: "Edit preset", type: "screen", hours: 2 },
  ],
  edges: [
    { source: "home", target: "timer", description: "start" },
    { source: "home", target: "edit", description: "edit" },
  ],
};

/** An app and where it keeps its presets. */
export const SMALL_ARCH: Graph = {
  nodes: [
    { id: "app", label: "Timer app", type: "frontend", hours: 9 },
    { id: "store", label: "Local storage", type: "database", hours: 1 },
  ],
  edges: [{ source: "app", target: "store", description: "saves presets" }],
};

function spec(id: string, input: string, title: string, userFlowGraph: Graph, architectureGraph: Graph): SpecStatusResponse {
  const base = deepSpec();
  return {
    ...base,
    _id: id,
    specId: id,
    input,
    architectureInfographicUrl: undefined,
    humanSpecJson: base.humanSpecJson ? { ...base.humanSpecJson, title } : base.humanSpecJson,
    userFlowGraph,
    architectureGraph,
  };
}

defineScenario("graphs-shapes", {}, {
  description: "Two specs whose graphs are a chain of nine, a fan-out of eight, and two small graphs.",
  setup: (db) => {
    db.specs.unshift(
      spec(SPEC_CHAIN, CHAIN_INPUT, "Onboarding Checklist", CHAIN, FAN_OUT),
      spec(SPEC_SMALL, SMALL_INPUT, "Kitchen Timer", SMALL_FLOW, SMALL_ARCH),
    );
    db.docs[SPEC_CHAIN] = { human: "# Onboarding Checklist\n", codingAgent: "# Onboarding Checklist\n" };
    db.docs[SPEC_SMALL] = { human: "# Kitchen Timer\n", codingAgent: "# Kitchen Timer\n" };
  },
});
