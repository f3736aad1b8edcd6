// The library a fresh mock starts with (three specs, a plan, a batch, media, a conversation, the
// catalogs), and `createDb`, the state of a fresh install on the built-in Sandbox.
import type { Batch, BrowserTask } from "../ipc/contract";
import type { CatalogModel } from "../bindings/CatalogModel";
import type { PlanPoint } from "../bindings/PlanPoint";
import type { PlanResponse } from "../bindings/PlanResponse";
import type { ScopeOfWork } from "../bindings/ScopeOfWork";
import type { SpecStatusResponse } from "../bindings/SpecStatusResponse";
import type { TaskResult } from "../bindings/TaskResult";
import { SANDBOX_ID, SANDBOX_URL, maskedTail, type MockDb, type SpecDocs } from "./state";


// ---------------------------------------------------------------------------------------------
// The library a fresh mock starts with.

export const SPEC_HABITS = "6741a0c3e4b0f1a2b3c4d5e6";
export const SPEC_CLIMBING = "6741a0c3e4b0f1a2b3c4d5e7";
export const SPEC_FAILED = "6741a0c3e4b0f1a2b3c4d5e8";
export const PROJECT_HABITS = "6741a0c3e4b0f1a2b3c4d5f0";
export const BATCH_DONE = "6741a0c3e4b0f1a2b3c4d600";

export const HABITS_INPUT =
  "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";

export function habitsScope(): ScopeOfWork {
  return {
    title: "Team habit tracker",
    executiveSummary:
      "A web app where small teams check in on shared habits every day, see their streaks and get a weekly summary by email.",
    coreFunctionalities: [
      { name: "Daily check-in", description: "One tap to mark today's habits as done.", priority: "High" },
      { name: "Streaks", description: "Consecutive days per person and per team.", priority: "High" },
      { name: "Weekly summary", description: "An email every Monday with last week's results.", priority: "Medium" },
    ],
    techStack: [
      { name: "React", category: "Frontend" },
      { name: "Node.js", category: "Backend" },
      { name: "PostgreSQL", category: "Database" },
    ],
    techStackGrouped: { Frontend: ["React"], Backend: ["Node.js"], Database: ["PostgreSQL"] },
    milestones: [
      {
        milestoneNumber: 1,
        description: "Accounts and teams",
        hours: 24,
        stories: [
          { id: "1.1", title: "Sign up and sign in", hours: 10, complexity: "M", subTasks: [] },
          { id: "1.2", title: "Create a team and invite members", hours: 14, complexity: "M", subTasks: [] },
        ],
      },
      {
        milestoneNumber: 2,
        description: "Habits and check-ins",
        hours: 38,
        stories: [
          { id: "2.1", title: "Define a team habit", hours: 12, complexity: "S", subTasks: [] },
          { id: "2.2", title: "Check in for today", hours: 10, complexity: "S", subTasks: [] },
          { id: "2.3", title: "See streaks", hours: 16, complexity: "M", subTasks: [] },
        ],
      },
      {
        milestoneNumber: 3,
        description: "Deployment and CI/CD",
        hours: 24,
        stories: [{ id: "3.1", title: "Deploy with a CI pipeline", hours: 24, complexity: "M", subTasks: [] }],
      },
    ],
    personas: [{ title: "Team lead", description: "Keeps a small team's routines on track." }],
    roles: [{ name: "Full-stack developer", shortHand: "FS" }],
    totalHours: 86,
  };
}

export function habitsMarkdown(scope: ScopeOfWork): SpecDocs {
  const milestones = scope.milestones
    .map(
      (m) =>
        `## Milestone ${m.milestoneNumber}: ${m.description}\n\n` +
        m.stories.map((s) => `- ${s.id ?? ""} ${s.title} (${s.hours ?? 0} h)`).join("\n"),
    )
    .join("\n\n");
  const human = `# ${scope.title ?? "Spec"}\n\n${scope.executiveSummary}\n\n${milestones}\n`;
  return { human, codingAgent: `# ${scope.title ?? "Spec"}: instructions for a coding agent\n\n${milestones}\n` };
}

export function habitsPlan(): { response: PlanResponse; history: PlanPoint[] } {
  const features = [
    { id: "f1", name: "Sign up and sign in", status: "works", statusText: "Works" },
    { id: "f2", name: "Teams and invitations", status: "built_not_checked", statusText: "Built, not checked yet" },
    { id: "f3", name: "Daily check-in", status: "in_progress", statusText: "In progress" },
    { id: "f4", name: "Streaks", status: "planned", statusText: "Planned" },
    { id: "f5", name: "Weekly summary email", status: "planned", statusText: "Planned" },
  ].map((f) => ({
    ...f,
    scope: "confirmed",
    addedByAgent: false,
    stories: { done: f.status === "works" ? 1 : 0, total: 2 },
    counted: true,
    removedParts: [],
    partOf: null,
  }));
  const markdown =
    "# Team habit tracker — plan\n\n2 of 5 features built, 1 proven working (20%).\n\n" +
    features.map((f) => `- ${f.name}: ${f.statusText}`).join("\n") +
    "\n";
  return {
    response: {
      projectId: PROJECT_HABITS,
      specId: SPEC_HABITS,
      markdown,
      plan: {
        projectId: PROJECT_HABITS,
        name: "Team habit tracker",
        computedAt: "2026-11-21T16:40:00.000Z",
        codeVersion: { tree: "9f3c2ab71e", short: "9f3c2ab" },
        intent: { text: HABITS_INPUT, proposedBySvc: false, removedSince: [] },
        progress: { basis: "features", built: 2, provenWorking: 1, total: 5, left: 3, percent: 20, proposed: 0 },
        features,
        readyToLaunch: {
          ready: false,
          items: [
            { id: "tests", label: "Automated tests pass", state: "ok", detail: null, fix: null },
            {
              id: "env",
              label: "Production settings are complete",
              state: "needs_fix",
              detail: "SMTP_HOST is not set.",
              fix: { action: "Set SMTP_HOST", how: "Add the mail server's host name to the production settings." },
            },
          ],
        },
        appMap: {
          codeVersion: "9f3c2ab",
          mappedAt: "2026-11-21T16:40:00.000Z",
          screens: { count: 2, items: [{ name: "Sign in", anchor: null, path: "/signin" }, { name: "Today", anchor: null, path: "/" }] },
          endpoints: { count: 1, items: [{ name: "POST /api/checkins", anchor: null, writes: true }] },
          storage: { count: 1, items: [{ name: "checkins", anchor: null, kind: "table", where: "PostgreSQL" }] },
        },
      },
    },
    history: [
      { computedAt: "2026-11-20T15:00:00.000Z", percent: 0, built: 0, provenWorking: 0, total: 5, statuses: { planned: 5 } },
      {
        computedAt: "2026-11-21T16:40:00.000Z",
        percent: 20,
        built: 2,
        provenWorking: 1,
        total: 5,
        statuses: { works: 1, built_not_checked: 1, in_progress: 1, planned: 2 },
      },
    ],
  };
}

/** Results as the sandbox gives them: the target of an instruction like Click "Buy" is not
 * on the mock's pages, so that task ends NO_TARGET; every other task succeeds. */
export function batchResults(tasks: BrowserTask[]): TaskResult[] {
  return tasks.map((t, i) => {
    const target = /^Click "([^"]+)"/.exec(t.instruction ?? "")?.[1];
    const base = { url: t.url, ...(t.instruction ? { instruction: t.instruction } : {}), cost: 0.012, creditsUsed: 0.12, durationMs: 3200 + i * 400 };
    return target
      ? { ...base, status: "NO_TARGET", data: null, error: `Could not find text="${target}" on the page.` }
      : { ...base, status: "SUCCESS", data: { title: `Page ${i + 1}` } };
  });
}

export function model(id: string, type: string, input: string[], output: string[], extra: Partial<CatalogModel> = {}): CatalogModel {
  const [lab = "", name = id] = id.split("/");
  return { id, name, lab, type, input, output, context_length: type === "text" ? 200000 : undefined, ...extra };
}

/** A text model's price per million tokens read and written (the authed catalog's `svc`). */
const perMtok = (input: number, output: number) => ({ svc: { credits_per_mtok_input: input, credits_per_mtok_output: output } as CatalogModel["svc"] });

export const TEXT_MODELS: CatalogModel[] = [
  model("anthropic/claude-sonnet-4.5", "text", ["text", "image"], ["text"], perMtok(30, 150)),
  model("openai/gpt-5-mini", "text", ["text", "image"], ["text"], perMtok(2.5, 20)),
  model("mistral/mistral-medium-3", "text", ["text", "image"], ["text"], perMtok(3, 25)),
  model("openai/gpt-4o-mini-audio", "text", ["text", "audio"], ["text", "audio"], perMtok(1.5, 6)),
  model("openai/gpt-4o-transcribe", "text", ["audio"], ["text"], { svc: { credits_per_minute: 0.06 } as CatalogModel["svc"] }),
];
export const IMAGE_MODELS: CatalogModel[] = [
  model("openai/gpt-image-1", "image", ["text"], ["image"], { svc: { credits_per_image: 0.4 } }),
];
export const VIDEO_MODELS: CatalogModel[] = [
  model("google/veo-3-fast", "video", ["text"], ["video"], { svc: { credits_per_second: 1.5 } }),
];

/** A fresh state: the Sandbox active with its well-known org key, 10000 credits, a small library. */
export function createDb(): MockDb {
  const scope = habitsScope();
  const habits: SpecStatusResponse = {
    _id: SPEC_HABITS,
    specId: SPEC_HABITS,
    endpoint: "fast_spec",
    input: HABITS_INPUT,
    status: "completed",
    success: true,
    created: "2026-11-20T14:12:00.000Z",
    creditsUsed: 2.5,
    executionTime: 41.2,
    totalHumanHours: 86,
    humanSpecJson: scope,
    codingAgentSpecJson: scope,
    zippedDocsUrls: [],
    projectId: PROJECT_HABITS,
  };
  const climbing: SpecStatusResponse = {
    _id: SPEC_CLIMBING,
    specId: SPEC_CLIMBING,
    endpoint: "deep_spec",
    input: "A booking app for a climbing gym: time slots, memberships and a waiver signed on first visit.",
    status: "completed",
    success: true,
    created: "2026-11-18T10:03:00.000Z",
    creditsUsed: 10,
    executionTime: 162.5,
    totalHumanHours: 140,
    zippedDocsUrls: [],
  };
  const failed: SpecStatusResponse = {
    _id: SPEC_FAILED,
    specId: SPEC_FAILED,
    endpoint: "fast_spec",
    input: "A marketplace for used lab equipment. [sandbox:fail]",
    status: "failed",
    success: false,
    created: "2026-11-17T08:45:00.000Z",
    creditsUsed: 0,
    errorMessage: "The spec could not be generated from this description. Add more detail and try again.",
  };
  const batchTasks: BrowserTask[] = [
    { url: "https://example.com", instruction: "Read the page title" },
    { url: "https://example.org/pricing", instruction: "Find the price of the Pro plan" },
  ];
  const results = batchResults(batchTasks);
  const batch: Batch = {
    id: BATCH_DONE,
    total: 2,
    completed: 2,
    results,
    totalCost: 0.024,
    totalCreditsUsed: 0.24,
    status: "completed",
    createdAt: "2026-11-21T09:00:00.000Z",
    completedAt: "2026-11-21T09:00:08.000Z",
  };
  return {
    appInfo: { version: "0.1.0", firstRun: false, dataDir: "/home/user/.local/share/dev.specdesk.app", testHooks: false },
    profiles: [
      {
        id: SANDBOX_ID,
        name: "Sandbox",
        baseUrl: SANDBOX_URL,
        keyKind: "organization",
        builtIn: true,
        active: true,
        key: { hasKey: true, maskedTail: maskedTail("sk_sandbox_org") },
      },
    ],
    settings: {
      activeProfileId: SANDBOX_ID,
      theme: "light",
      specPollIntervalSecs: 12,
      defaultSpecDepth: "fast",
      notifications: true,
      notify: { specs: true, batches: true, videos: true },
    },
    credits: { [SANDBOX_ID]: 10000 },
    ledger: [
      { at: "2026-11-20T14:12:41.000Z", profileId: SANDBOX_ID, endpoint: "fast_spec", creditsCharged: 2.5, creditsRemaining: 10000, pending: false, estimated: false },
    ],
    jobs: [
      {
        id: 2,
        kind: "batch",
        profileId: SANDBOX_ID,
        idempotencyKey: "idem-batch-2",
        request: { tasks: batchTasks },
        remoteId: BATCH_DONE,
        status: "completed",
        result: batch,
        createdAt: "2026-11-21T09:00:00.000Z",
        updatedAt: "2026-11-21T09:00:08.000Z",
      },
      {
        id: 1,
        kind: "spec",
        profileId: SANDBOX_ID,
        request: { depth: "fast", input: HABITS_INPUT, docUrls: [] },
        remoteId: SPEC_HABITS,
        status: "completed",
        progress: "Done",
        result: { ...habits, humanSpecJson: undefined, codingAgentSpecJson: undefined },
        createdAt: "2026-11-20T14:11:59.000Z",
        updatedAt: "2026-11-20T14:12:41.000Z",
      },
    ],
    specs: [habits, climbing, failed],
    docs: { [SPEC_HABITS]: habitsMarkdown(scope), [SPEC_CLIMBING]: habitsMarkdown({ ...scope, title: "Climbing gym bookings" }) },
    plans: { [PROJECT_HABITS]: habitsPlan() },
    recentProjects: [],
    batches: [batch],
    batchTasks: {},
    media: [
      {
        id: 1,
        kind: "image",
        path: "/home/user/.local/share/dev.specdesk.app/media/1.png",
        prompt: "A friendly robot watering a plant, flat illustration",
        model: "openai/gpt-image-1",
        profileId: SANDBOX_ID,
        credits: 0.4,
        createdAt: "2026-11-21T11:00:00.000Z",
      },
    ],
    activity: [
      {
        id: "stream-chat-1",
        kind: "chat",
        title: "Three names for a habit tracker?",
        state: "running",
        startedAt: "2026-11-21T12:00:00.000Z",
        place: { kind: "conversation", id: 1 },
        stop: { kind: "stream", streamId: "chat-1" },
      },
      {
        id: "job-7",
        kind: "batch",
        title: "Batch of 2 tasks",
        state: "running",
        startedAt: "2026-11-21T11:59:00.000Z",
        progress: [1, 2],
        statusText: "1 of 2 tasks finished",
        place: { kind: "batch", batchId: BATCH_DONE },
      },
      {
        id: "call-3",
        kind: "image",
        title: "A lighthouse at dusk",
        state: "failed",
        startedAt: "2026-11-21T11:50:00.000Z",
        endedAt: "2026-11-21T11:50:02.000Z",
        place: { kind: "studio", studio: "images" },
        error: { kind: "insufficientCredits", message: "Your balance cannot cover this image.", action: { label: "Top up", url: "https://example.com/account/top-up" } },
      },
      {
        id: "call-2",
        kind: "image",
        title: "A friendly robot watering a plant, flat illustration",
        state: "done",
        startedAt: "2026-11-21T11:00:00.000Z",
        endedAt: "2026-11-21T11:00:03.000Z",
        credits: 0.4,
        place: { kind: "studio", studio: "images", item: 1 },
      },
    ],
    conversations: [
      {
        id: 1,
        profileId: SANDBOX_ID,
        title: "Naming ideas",
        model: "anthropic/claude-sonnet-4.5",
        createdAt: "2026-11-21T12:00:00.000Z",
        updatedAt: "2026-11-21T12:00:05.000Z",
      },
    ],
    messages: [
      { id: 1, conversationId: 1, role: "user", content: "Three names for a habit tracker?", createdAt: "2026-11-21T12:00:00.000Z", cut: false },
      {
        id: 2,
        conversationId: 1,
        role: "assistant",
        content: [{ type: "text", text: "Streakly, Daily Loop and Team Tally." }],
        model: "anthropic/claude-sonnet-4.5",
        creditsCharged: 0.02,
        createdAt: "2026-11-21T12:00:05.000Z",
        cut: false,
      },
    ],
    conversationTrees: {},
    chatWinners: [],
    deletedConversations: [],
    dialog: { open: null, save: null },
    clipboard: { text: "" },
    textFiles: {},
    draftValues: {},
    clock: Date.parse("2026-11-22T09:00:00.000Z"),
    seq: 100,
  };
}

