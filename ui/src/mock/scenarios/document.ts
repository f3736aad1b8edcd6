// Scenario of a spec's document view (find in the document, the contents following the section
// in view, the stories exported as CSV): the deep spec of "specs-deep" with a long human spec and
// stories whose cells need CSV quoting and a guard against spreadsheet formulas.
// Open it with ?scenario=document (see ../registry.ts).
import type { Rendered } from "../../ipc/contract";
import type { Milestone } from "../../bindings/Milestone";
import { baseHandlers, type MockDb } from "../base";
import { defineScenario } from "../registry";
import { DEEP_AGENT_MARKDOWN, SPEC_DEEP, deepSpec } from "./specs";

/** The word the find test looks for: it appears exactly DOC_PANTRY_COUNT times (any case). */
export const DOC_PANTRY_COUNT = 6;

/** Text with none of the searched word: enough of it that each section is taller than the window. */
function filler(section: string, paragraphs: number): string[] {
  return Array.from(
    { length: paragraphs },
    (_, i) =>
      `<p>${section}, note ${i + 1}: each change is reviewed by a second person before it is merged, the tests run on every push, ` +
      "and a failing check blocks the release until someone looks at it. Small steps keep the history readable and make a " +
      "rollback a one-line change. Write down what was decided and why, so the next person does not have to guess.</p>",
  );
}

export const LONG_HUMAN: Rendered = {
  toc: [
    { level: 1, text: "Recipe Box", id: "recipe-box" },
    { level: 2, text: "Milestone 1: Project setup", id: "milestone-1-project-setup" },
    { level: 3, text: "Story 1.1: Repository and CI", id: "story-1-1-repository-and-ci" },
    { level: 2, text: "Milestone 2: Pantry and shopping", id: "milestone-2-pantry-and-shopping" },
    { level: 2, text: "Milestone 3: Deployment", id: "milestone-3-deployment" },
  ],
  html: [
    '<h1 id="recipe-box">Recipe Box</h1>',
    "<p>A web app where home cooks share recipes, keep a <strong>pantry</strong> list and get a merged shopping list.</p>",
    '<h2 id="milestone-1-project-setup">Milestone 1: Project setup</h2>',
    '<h3 id="story-1-1-repository-and-ci">Story 1.1: Repository and CI</h3>',
    ...filler("Setup", 8),
    '<pre><code class="language-ts">// Items of the pantry, newest first.\nexport async function getItems(limit: number = 20) {\n  return db.item.findMany({ take: limit });\n}\n</code></pre>',
    '<h2 id="milestone-2-pantry-and-shopping">Milestone 2: Pantry and shopping</h2>',
    "<p>What is in the PANTRY is left off the shopping list; see <a href=\"#milestone-3-deployment\">the deployment milestone</a>.</p>",
    ...filler("Shopping", 8),
    '<h2 id="milestone-3-deployment">Milestone 3: Deployment</h2>',
    "<ul>\n<li>[QA] Smoke tests of pantry sync (6.5 h, L)</li>\n<li>[Docs] Runbook: a Pantry outage (10 h, XL)</li>\n</ul>",
    ...filler("Deployment", 8),
  ].join("\n"),
};

/** Stories whose cells a spreadsheet would misread without quoting and the formula guard. */
const MILESTONES: Milestone[] = [
  {
    milestoneNumber: 1,
    description: "Project setup",
    hours: 24,
    stories: [
      {
        id: "1.1",
        title: "Repository and CI",
        acceptanceCriteria: ["A push to main runs the tests", "A tag deploys to staging"],
        complexity: "M",
        hours: 8,
        subTasks: [],
      },
      {
        id: "1.2",
        title: 'Import "legacy" recipes, with tags',
        acceptanceCriteria: ["=HYPERLINK(\"http://example.com\")", "Tags keep their order,\nand their case"],
        complexity: "L",
        hours: 16,
        subTasks: [],
      },
    ],
  },
  {
    milestoneNumber: 2,
    description: "Deployment, CI/CD and monitoring",
    hours: 16.5,
    stories: [
      {
        title: "-1 day shows yesterday's plan",
        acceptanceCriteria: ["@mention notifies the cook", "+ adds an item"],
        hours: 16.5,
        subTasks: [],
      },
    ],
  },
];

function setup(db: MockDb) {
  const spec = deepSpec();
  if (spec.humanSpecJson) spec.humanSpecJson.milestones = MILESTONES;
  db.specs.unshift(spec);
  db.docs[SPEC_DEEP] = { human: "# Recipe Box\n", codingAgent: DEEP_AGENT_MARKDOWN };
}

defineScenario(
  "document",
  {
    render_spec: (args, ctx) => (args.specId === SPEC_DEEP && args.doc === "human" ? LONG_HUMAN : baseHandlers.render_spec(args, ctx)),
  },
  {
    description: "The deep spec with a long human spec (\"pantry\" six times, five sections) and stories that need CSV quoting.",
    setup,
  },
);
