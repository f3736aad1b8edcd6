// Scenarios of the Specs library: specs whose descriptions hold characters a pattern would read
// as special ("C++", "(beta)", "$5"), with hours and credits that sort differently from their
// dates, for the search as you type, sorting, local titles and the local archive.
// Open one with ?scenario=<name> (see ../registry.ts).
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { baseHandlers } from "../base";
import { defineScenario } from "../registry";
import type { MockDb } from "../state";

export const SPEC_CPP = "6744a0c3e4b0f1a2b3c4d501";
export const SPEC_SHOPPING = "6744a0c3e4b0f1a2b3c4d502";
export const SPEC_DEALS = "6744a0c3e4b0f1a2b3c4d503";

const cpp: SpecStatusResponse = {
  _id: SPEC_CPP,
  specId: SPEC_CPP,
  endpoint: "deep_spec",
  input: "A C++ build dashboard for game studios: nightly builds, crash reports and a leaderboard of slow targets.",
  status: "completed",
  success: true,
  created: "2026-11-19T09:30:00.000Z",
  creditsUsed: 18,
  executionTime: 150.2,
  totalHumanHours: 210,
  zippedDocsUrls: [],
};

const shopping: SpecStatusResponse = {
  _id: SPEC_SHOPPING,
  specId: SPEC_SHOPPING,
  endpoint: "fast_spec",
  input: "A shared shopping list for roommates, with who pays for what.",
  status: "completed",
  success: true,
  created: "2026-11-21T07:15:00.000Z",
  creditsUsed: 4,
  executionTime: 38.4,
  totalHumanHours: 24,
  zippedDocsUrls: [],
};

const deals: SpecStatusResponse = {
  _id: SPEC_DEALS,
  specId: SPEC_DEALS,
  endpoint: "fast_spec",
  input: "Student deals (beta): offers under $5 near campus?",
  status: "completed",
  success: true,
  created: "2026-11-16T12:00:00.000Z",
  creditsUsed: 3,
  executionTime: 36.9,
  totalHumanHours: 52,
  zippedDocsUrls: [],
};

function librarySetup(db: MockDb): void {
  const [habits, climbing, failed] = db.specs;
  db.specs = [shopping, ...(habits ? [habits] : []), cpp, ...(climbing ? [climbing] : []), ...(failed ? [failed] : []), deals];
}

defineScenario("library", {}, {
  description:
    "Six specs, newest first: shopping list (24 h), habits (86 h), C++ dashboard (210 h), climbing gym (140 h), a failed one and student deals (52 h).",
  setup: librarySetup,
});

/** The gate that lets the service answer the library's searches (scenario "library-held"). */
export const SERVICE_SEARCH_GATE = "service-search";

defineScenario(
  "library-held",
  {
    list_specs: async (args, ctx) => {
      if (args.query.search) await ctx.gate(SERVICE_SEARCH_GATE);
      return baseHandlers.list_specs(args, ctx);
    },
  },
  {
    description: `The "library" specs; the service answers a search only once the test releases the gate "${SERVICE_SEARCH_GATE}" (the specs kept on this computer answer at once).`,
    setup: librarySetup,
  },
);
