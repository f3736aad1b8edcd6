// Scenarios of a connection whose service cannot be reached: specs read from this computer's
// copy, some of whose documents were never downloaded. Open one with ?scenario=<name> (see
// ../registry.ts).
import type { Rendered, SpecDoc, SpecPage, SpecView } from "../../ipc/contract";
import { baseHandlers } from "../base";
import { SPEC_HABITS } from "../fixtures";
import { defineScenario, ipcError, type MockContext } from "../registry";

export const WORK_ID = "p_work";
export const BACK_ONLINE = "back-online";
/** What `render_spec` answers offline for a document whose markdown was never kept (crates/core `spec_markdown`). */
export const NO_AGENT_DOC = "This spec has no coding-agent spec yet. It appears when the spec is completed.";

// Set once the test releases the gate "back-online": from then on the service answers.
let reachable = false;

function online(ctx: MockContext): boolean {
  void ctx.gate(BACK_ONLINE).then(() => {
    reachable = true;
  });
  return reachable;
}

/** Whether this computer kept the markdown of a document: only the habit tracker's human spec. */
function saved(specId: string, doc: SpecDoc): boolean {
  return specId === SPEC_HABITS && doc === "human";
}

function notSaved(doc: SpecDoc): never {
  // crates/core: offline, get_spec falls back to the cache, then the missing markdown is "not found".
  throw ipcError("notFound", doc === "human" ? "This spec has no human spec yet. It appears when the spec is completed." : NO_AGENT_DOC);
}

defineScenario(
  "offline-docs",
  {
    list_specs: (args, ctx) => {
      const page = baseHandlers.list_specs(args, ctx) as SpecPage;
      return online(ctx) ? page : { ...page, offline: true };
    },
    get_spec: (args, ctx) => {
      const view = baseHandlers.get_spec(args, ctx) as SpecView;
      if (online(ctx)) return view;
      return {
        ...view,
        offline: true,
        hasHumanMarkdown: saved(args.specId, "human"),
        hasAgentMarkdown: saved(args.specId, "codingAgent"),
        cachedAt: "2026-11-21T18:00:00.000Z",
      };
    },
    render_spec: (args, ctx) => {
      if (!online(ctx) && !saved(args.specId, args.doc)) notSaved(args.doc);
      return baseHandlers.render_spec(args, ctx) as Rendered;
    },
    spec_markdown: (args, ctx) => {
      if (!online(ctx) && !saved(args.specId, args.doc)) notSaved(args.doc);
      return baseHandlers.spec_markdown(args, ctx) as string;
    },
  },
  {
    description:
      'The "Work" connection cannot be reached: specs come from this computer, where only the habit tracker\'s human spec was downloaded. The test brings the service back with the gate "back-online".',
    setup: (db) => {
      db.profiles.push({
        id: WORK_ID,
        name: "Work",
        baseUrl: "https://api.example.com",
        keyKind: "organization",
        builtIn: false,
        active: false,
        key: { hasKey: true, maskedTail: "••••9f2c" },
      });
      db.credits[WORK_ID] = 2500;
      db.settings.activeProfileId = WORK_ID;
    },
  },
);
