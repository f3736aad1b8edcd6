// Scenarios of the Specs area: an empty library, a slow first read, refusals with an action, long
// lists, a deep spec with graphs, a generation followed live, and the library read offline.
// Open one with ?scenario=<name> (see ../registry.ts).
import type { Job, JobEvent, Rendered, SpecPage, SpecView } from "../../ipc/contract";
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { PROJECT_HABITS, baseHandlers, type MockDb } from "../base";
import { defineScenario, ipcError } from "../registry";

export const UPGRADE_URL = "https://example.com/account/upgrade";
export const DEEP_REFUSED = "Deep specs need a paid plan. Upgrade your plan to use it.";
export const KEY_REFUSED =
  "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.";

export const SPEC_DEEP = "6741a0c3e4b0f1a2b3c4d5ea";
export const SPEC_RUNNING = "6741a0c3e4b0f1a2b3c4d5eb";
export const RUNNING_JOB_ID = 50;
export const RUNNING_INPUT = "A recipe box with weekly meal plans and one shopping list";

// A small inline image, so the infographic loads without the network.
const INFOGRAPHIC =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"><rect width="320" height="120" fill="#e8e7fb"/><text x="20" y="64" font-size="20" fill="#1b1d2a">Web app → API → PostgreSQL</text></svg>',
  );

/** A deep spec with everything the service can send: subtasks by layer, graphs, enriched stack. */
export function deepSpec(): SpecStatusResponse {
  return {
    _id: SPEC_DEEP,
    specId: SPEC_DEEP,
    endpoint: "deep_spec",
    input: "A recipe-sharing app with meal plans and shopping lists",
    status: "completed",
    success: true,
    created: "2026-11-21T10:00:00.000Z",
    creditsUsed: 23.4,
    executionTime: 148230,
    totalHumanHours: 40.5,
    projectId: PROJECT_HABITS,
    svcUrl: "https://example.com/projects/recipe-box",
    toolAUrl: "https://tool-a.example.com/new?prompt=Download%20the%20spec",
    toolBUrl: "https://tool-b.example.com/#prompt=Download%20the%20spec",
    toolCUrl: "https://tool-c.example.com/start?q=Download%20the%20spec",
    toolDUrl: "tool-d://prompt?text=Download%20the%20spec",
    architectureInfographicUrl: INFOGRAPHIC,
    zippedDocsUrls: [
      {
        platform: "nextjs.org",
        masterZipShortUrl: "https://example.com/z/nextjs-docs.zip",
        masterMarkdownShortUrl: "https://example.com/z/nextjs-docs.md",
      },
      { platform: "www.prisma.io", masterZipShortUrl: "https://example.com/z/prisma-docs.zip" },
    ],
    humanSpecJson: {
      title: "Recipe Box",
      executiveSummary: "A web app where home cooks share recipes, plan a week of meals and get a merged shopping list.",
      coreFunctionalities: [
        { name: "Recipe sharing", description: "Create, edit and publish recipes with photos.", priority: "High" },
        { name: "Meal planning", description: "Drag recipes onto a weekly calendar.", priority: "Medium" },
        { name: "Shopping list", description: "Merge ingredients of the week's meals.", priority: "Low" },
      ],
      techStack: [
        { name: "Next.js", category: "Frontend" },
        { name: "PostgreSQL", category: "Database" },
        { name: "GitHub Actions", category: "CI/CD" },
      ],
      techStackGrouped: { Frontend: ["Next.js"], Database: ["PostgreSQL"], "CI/CD": ["GitHub Actions"] },
      milestones: [
        {
          milestoneNumber: 1,
          description: "Project setup",
          hours: 24,
          stories: [
            {
              id: "1.1",
              title: "Repository and CI",
              description: "Monorepo with lint, test and deploy pipelines.",
              acceptanceCriteria: ["A push to main runs the tests", "A tag deploys to staging"],
              complexity: "M",
              hours: 8,
              subTasks: [
                { id: "1.1.1", description: "[DB] Create schema for users and recipes", complexity: "S", hours: 3, roles: ["BE"] },
                { id: "1.1.2", description: "[Infra] CI pipeline with test and deploy jobs", complexity: "M", hours: 5, roles: ["DO", "BE"] },
              ],
            },
            {
              id: "1.2",
              title: "Recipe pages",
              description: "List, read and edit recipes.",
              acceptanceCriteria: ["A recipe shows its photo, ingredients and steps"],
              complexity: "L",
              hours: 16,
              subTasks: [
                { id: "1.2.1", description: "[API] Recipe CRUD routes", complexity: "M", hours: 6, roles: ["BE"] },
                { id: "1.2.2", description: "[FE] Recipe list and detail pages", complexity: "L", hours: 10, roles: ["FE"] },
              ],
            },
          ],
        },
        {
          milestoneNumber: 2,
          description: "Deployment, CI/CD and monitoring",
          hours: 16.5,
          stories: [
            {
              id: "2.1",
              title: "Production deployment",
              description: "Deploy to the production environment with health checks.",
              acceptanceCriteria: ["Health endpoint answers 200"],
              complexity: "L",
              hours: 16.5,
              subTasks: [
                { id: "2.1.1", description: "[QA] Smoke tests against production", complexity: "L", hours: 6.5, roles: ["QA"] },
                { id: "2.1.2", description: "[Docs] Runbook for incidents", complexity: "XL", hours: 10, roles: ["DO"] },
              ],
            },
          ],
        },
      ],
      personas: [
        {
          title: "Home cook",
          description: "Cooks most evenings and plans the week on Sunday.",
          primaryGoals: ["Plan a week of meals in ten minutes"],
          painPoints: ["Recipes scattered across apps"],
          keyTasks: ["Save a recipe", "Build a shopping list"],
        },
      ],
      roles: [
        { name: "Backend engineer", shortHand: "BE" },
        { name: "Frontend engineer", shortHand: "FE" },
        { name: "DevOps engineer", shortHand: "DO" },
        { name: "QA engineer", shortHand: "QA" },
      ],
      totalHours: 40.5,
    },
    userFlowGraph: {
      nodes: [
        { id: "signup", label: "Sign up", type: "screen", description: "Email sign-up", level: "1", hours: 6 },
        { id: "browse", label: "Browse recipes", type: "screen", description: "Search and filter recipes", level: "2", hours: 8 },
        { id: "plan", label: "Plan week", type: "action", description: "Drag recipes onto days", level: "2", hours: 12.5 },
        { id: "list", label: "Shopping list", type: "screen", description: "Merged ingredients of the week", level: "3", hours: 7 },
      ],
      edges: [
        { source: "signup", target: "browse", description: "after first login", edgeType: "navigation" },
        { source: "browse", target: "plan", description: "add to plan", edgeType: "action" },
        { source: "plan", target: "list", description: "generate the list", edgeType: "action" },
      ],
    },
    architectureGraph: {
      nodes: [
        { id: "web", label: "Next.js app", type: "frontend", description: "Server-rendered UI", level: "presentation", hours: 60 },
        { id: "api", label: "API routes", type: "backend", description: "Recipes, plans and lists", level: "application", hours: 30 },
        { id: "db", label: "PostgreSQL", type: "database", description: "Recipes, plans, lists", level: "data", hours: 20 },
      ],
      edges: [
        { source: "web", target: "api", description: "fetch", edgeType: "http" },
        { source: "api", target: "db", description: "Prisma queries", edgeType: "data" },
      ],
    },
    enrichedTechStack: [
      {
        name: "Next.js",
        useFor: "Frontend and API routes",
        reason: "One framework for UI and server code",
        description: "React framework with server rendering",
        link: "https://nextjs.org",
        helpfulLinks: [{ url: "https://nextjs.org/docs/app", description: "App router guide" }],
        alternatives: [{ name: "Remix", link: "https://remix.run", description: "Web-standards React framework" }],
      },
    ],
  };
}

/** The deep spec's human document as Rust renders it: ids on headings, web links marked external. */
export const DEEP_HUMAN: Rendered = {
  toc: [
    { level: 1, text: "Recipe Box", id: "recipe-box" },
    { level: 2, text: "Milestone 1: Project setup", id: "milestone-1-project-setup" },
    { level: 3, text: "Story 1.1: Repository and CI", id: "story-1-1-repository-and-ci" },
    { level: 2, text: "Milestone 2: Deployment", id: "milestone-2-deployment" },
  ],
  html: [
    '<h1 id="recipe-box">Recipe Box</h1>',
    "<p>A web app where home cooks share recipes, plan a week of meals and get a merged shopping list.</p>",
    '<h2 id="milestone-1-project-setup">Milestone 1: Project setup</h2>',
    '<h3 id="story-1-1-repository-and-ci">Story 1.1: Repository and CI</h3>',
    '<p>Read the <a href="https://nextjs.org/docs" data-external="true" target="_blank" rel="noopener noreferrer">Next.js docs</a>, then see <a href="#milestone-2-deployment">the deployment milestone</a>.</p>',
    // Comments and numbers too: their colours are the ones the light theme got wrong (axe checks them).
    '<pre><code class="language-ts">// The newest recipes first, 20 to a page.\nexport async function getRecipes(limit: number = 20) {\n  return db.recipe.findMany({ take: limit, skip: 0 });\n}\n</code></pre>',
    '<h2 id="milestone-2-deployment">Milestone 2: Deployment</h2>',
    "<ul>\n<li>[QA] Smoke tests against production (6.5 h, L)</li>\n<li>[Docs] Runbook for incidents (10 h, XL)</li>\n</ul>",
  ].join("\n"),
};

export const DEEP_AGENT_MARKDOWN = "# Recipe Box\n\n## Milestone 1: Project setup\n\n- [DB] Create schema (S)\n";

function addDeep(db: MockDb) {
  db.specs.unshift(deepSpec());
  db.docs[SPEC_DEEP] = { human: "# Recipe Box\n", codingAgent: DEEP_AGENT_MARKDOWN };
}

defineScenario("specs-empty", {}, {
  description: "No spec yet: an empty library and no generations.",
  setup: (db) => {
    db.specs = [];
    db.docs = {};
    db.jobs = db.jobs.filter((j) => j.kind !== "spec");
  },
});

defineScenario(
  "specs-loading",
  {
    list_specs: async (args, ctx) => {
      await ctx.gate("list_specs");
      return baseHandlers.list_specs(args, ctx);
    },
  },
  { description: "The library's first read waits until the test releases the gate \"list_specs\"." },
);

defineScenario(
  "specs-deep-refused",
  {
    submit_spec: (args, ctx) => {
      if (args.draft.depth === "deep") {
        throw ipcError("subscriptionRequired", DEEP_REFUSED, { status: 402, action: { label: "Upgrade", url: UPGRADE_URL } });
      }
      return baseHandlers.submit_spec(args, ctx);
    },
  },
  { description: "A key without a paid plan: a deep spec is refused with an Upgrade action; fast specs go through." },
);

defineScenario(
  "specs-key-refused",
  {
    list_specs: () => {
      throw ipcError("invalidKey", KEY_REFUSED, { status: 401 });
    },
  },
  { description: "The service refuses the key: the library shows the error with Try again." },
);

const INPUTS = [
  "A habit tracker with streaks",
  "A landing page for a bakery",
  "An invoicing tool for freelancers",
  "A booking app for a hair salon",
  "A recipe box with meal plans",
  "A volunteer rota for a food bank",
];

defineScenario("specs-long", {}, {
  description: "130 specs (every status and depth) and eight generations: pagination and long lists.",
  setup: (db) => {
    const statuses = ["completed", "completed", "failed", "completed", "processing", "pending"] as const;
    for (let i = 0; i < 127; i += 1) {
      const status = statuses[i % statuses.length] ?? "completed";
      const id = (0x6742000000 + i).toString(16).padStart(24, "0");
      const done = status === "completed";
      db.specs.push({
        _id: id,
        specId: id,
        endpoint: i % 3 === 0 ? "deep_spec" : "fast_spec",
        input: `${INPUTS[i % INPUTS.length] ?? "A spec"} (#${i + 1})`,
        status,
        success: done,
        created: new Date(Date.parse("2026-11-01T08:00:00.000Z") + i * 3_600_000).toISOString(),
        ...(done ? { totalHumanHours: 40 + i, creditsUsed: i % 3 === 0 ? 20 : 6, executionTime: 35_000 + i * 100 } : {}),
        ...(status === "failed" ? { errorMessage: "The spec could not be generated from this description. Add more detail and try again." } : {}),
        ...(status === "processing" ? { progress: "Drafting milestones (2 of 5)", creditsUsed: 1.5 } : {}),
      });
    }
    const jobs: Job[] = Array.from({ length: 7 }, (_, i) => ({
      id: 60 + i,
      kind: "spec",
      profileId: db.settings.activeProfileId,
      request: { depth: i % 2 ? "deep" : "fast", input: `${INPUTS[i % INPUTS.length] ?? "A spec"} (job ${i + 1})`, docUrls: [] },
      remoteId: (0x6743000000 + i).toString(16).padStart(24, "0"),
      status: i % 3 === 1 ? "failed" : "completed",
      result: i % 3 === 1 ? null : { status: "completed", creditsUsed: 6, totalHumanHours: 50 + i },
      ...(i % 3 === 1 ? { error: { kind: "failed", message: "The spec could not be generated from this description. Add more detail and try again." } } : {}),
      createdAt: new Date(Date.parse("2026-11-21T08:00:00.000Z") + i * 600_000).toISOString(),
      updatedAt: new Date(Date.parse("2026-11-21T08:00:40.000Z") + i * 600_000).toISOString(),
    }));
    db.jobs = [...jobs.reverse(), ...db.jobs];
  },
});

defineScenario(
  "specs-deep",
  {
    render_spec: (args, ctx) => (args.specId === SPEC_DEEP && args.doc === "human" ? DEEP_HUMAN : baseHandlers.render_spec(args, ctx)),
  },
  {
    description: "A completed deep spec with subtasks by layer, both graphs, an infographic, documentation packs and an enriched stack.",
    setup: addDeep,
  },
);

defineScenario(
  "specs-running",
  {
    follow_job: async (args, ctx) => {
      const job = ctx.db.jobs.find((j) => j.id === args.jobId);
      if (job && job.id === RUNNING_JOB_ID && job.status !== "completed") {
        const channel = ctx.channel<JobEvent>(args.onEvent);
        job.status = "running";
        job.progress = "Drafting milestones (2 of 5)";
        job.result = { status: "processing", progress: job.progress, creditsUsed: 3.2 };
        channel.send({ type: "update", job: structuredClone(job) });
        await ctx.gate("spec-done");
        job.status = "completed";
        job.progress = "Done";
        job.result = { status: "completed", creditsUsed: 7.5, totalHumanHours: 86 };
        job.updatedAt = new Date(Date.parse(job.createdAt) + 125_000).toISOString();
        const done = structuredClone(job);
        channel.send({ type: "done", job: done });
        ctx.emit("job-changed", done);
        return done;
      }
      return baseHandlers.follow_job(args, ctx);
    },
  },
  {
    description: "A spec generation in progress, followed live; the test ends it with the gate \"spec-done\".",
    setup: (db) => {
      const createdAt = new Date(Date.now() - 65_000).toISOString();
      db.jobs.unshift({
        id: RUNNING_JOB_ID,
        kind: "spec",
        profileId: db.settings.activeProfileId,
        request: { depth: "fast", input: RUNNING_INPUT, docUrls: [] },
        remoteId: SPEC_RUNNING,
        status: "submitted",
        result: null,
        createdAt,
        updatedAt: createdAt,
      });
    },
  },
);

defineScenario(
  "specs-offline",
  {
    list_specs: (args, ctx) => ({ ...(baseHandlers.list_specs(args, ctx) as SpecPage), offline: true }),
    get_spec: (args, ctx) => {
      const view = baseHandlers.get_spec(args, ctx) as SpecView;
      return { ...view, offline: true, cachedAt: "2026-11-21T18:00:00.000Z" };
    },
  },
  { description: "The service cannot be reached: the library and specs come from this computer." },
);
