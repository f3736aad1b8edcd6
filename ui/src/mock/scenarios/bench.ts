// Scenarios of the benchmarks (bench/*.mjs), not of the screen tests.
//
// "spec-1mb": the library holds a completed deep spec whose two documents are the ~1 MB deep spec
// of crates/core/benches/markdown.rs, with the HTML Rust renders for it (`markdown::render`), and
// the small deep spec of "specs-deep" beside it. The 1 MB fixture is not in the bundle: the bench
// generates it (crates/core/examples/render_markdown.rs) and injects it before the app starts as
// `window.__SPECDESK_BENCH_SPEC_1MB__` (page.addInitScript). `render_spec` parses the rendered
// JSON on every call, as the web view parses the answer of the real command.
import type { Rendered } from "../../ipc/contract";
import { baseHandlers } from "../base";
import { defineScenario } from "../registry";
import { DEEP_AGENT_MARKDOWN, DEEP_HUMAN, SPEC_DEEP, deepSpec } from "./specs";

export const SPEC_1MB = "6741a0c3e4b0f1a2b3c4d5ee";
export const SPEC_1MB_INPUT = "A team task board (a 1 MB deep spec)";

/** What bench/spec-view.mjs injects: the markdown, and the `Rendered` of it as JSON text. */
export interface BenchSpecFixture {
  markdown: string;
  renderedJson: string;
}

declare global {
  interface Window {
    __SPECDESK_BENCH_SPEC_1MB__?: BenchSpecFixture;
  }
}

function fixture(): BenchSpecFixture {
  const f = window.__SPECDESK_BENCH_SPEC_1MB__;
  if (!f) {
    throw new Error(
      'The mock scenario "spec-1mb" needs its fixture (window.__SPECDESK_BENCH_SPEC_1MB__), which bench/spec-view.mjs injects: run `npm run bench:spec-view` in ui/.',
    );
  }
  return f;
}

defineScenario(
  "spec-1mb",
  {
    render_spec: (args, ctx) => {
      if (args.specId === SPEC_1MB) return JSON.parse(fixture().renderedJson) as Rendered;
      if (args.specId === SPEC_DEEP && args.doc === "human") return DEEP_HUMAN;
      return baseHandlers.render_spec(args, ctx);
    },
  },
  {
    description: "A 1 MB deep spec rendered by Rust (both documents) and the small deep spec, for bench/spec-view.mjs.",
    setup: (db) => {
      const { markdown } = fixture();
      db.specs.unshift(deepSpec(), {
        _id: SPEC_1MB,
        specId: SPEC_1MB,
        endpoint: "deep_spec",
        input: SPEC_1MB_INPUT,
        status: "completed",
        success: true,
        created: "2026-11-22T09:00:00.000Z",
        creditsUsed: 48.2,
        executionTime: 171_400,
      });
      db.docs[SPEC_DEEP] = { human: "# Recipe Box\n", codingAgent: DEEP_AGENT_MARKDOWN };
      db.docs[SPEC_1MB] = { human: markdown, codingAgent: markdown };
    },
  },
);
