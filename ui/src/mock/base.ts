// Base answers of the mock IPC: every command of ../ipc/contract.ts, on an in-memory state that
// starts like a fresh install on the built-in Sandbox (offline, simulated, 10000 credits), with a
// small library already in it (three specs, a plan, a batch, media, a conversation). Handlers
// read and write `db`, so a flow (add a connection, submit a spec, follow it) stays consistent
// within one page load. Words and rules follow the Rust side (crates/core, crates/client).
import type {
  AppInfo,
  CommandName,
  Batch,
  BatchEvent,
  BrowserTask,
  CachedSpec,
  ChatEvent,
  Conversation,
  ConversationMessage,
  CreditEntry,
  CreditsView,
  FileInfo,
  Job,
  JobEvent,
  MediaItem,
  MessagesResponse,
  ModelList,
  PlanView,
  ProfileInput,
  ProfileView,
  PublicCatalog,
  Rendered,
  Settings,
  SpecPage,
  SpecView,
} from "../ipc/contract";
import type { CatalogModel } from "../bindings/CatalogModel";
import type { PlanPoint } from "../bindings/PlanPoint";
import type { PlanResponse } from "../bindings/PlanResponse";
import type { RecentProject } from "../bindings/RecentProject";
import type { ScopeOfWork } from "../bindings/ScopeOfWork";
import type { SpecRecord } from "../bindings/SpecRecord";
import type { SpecStatusResponse } from "../bindings/SpecStatusResponse";
import type { TaskResult } from "../bindings/TaskResult";
import { checkApiKey, checkBaseUrl, checkProfileName, checkProjectId } from "../lib/validate";
import { ipcError, type Handler, type MockContext } from "./registry";

/** The two markdown documents of a spec. */
export interface SpecDocs {
  human: string;
  codingAgent: string;
}

/** The page's mutable state. Scenarios change it in `setup(db)`. */
export interface MockDb {
  appInfo: AppInfo;
  /** Every profile, the Sandbox first; `active` is derived from `settings.activeProfileId`. */
  profiles: ProfileView[];
  settings: Settings;
  /** Balance per profile id. */
  credits: Record<string, number>;
  ledger: CreditEntry[];
  jobs: Job[];
  /** Full spec-status answers, newest first (markdown kept apart in `docs`). */
  specs: SpecStatusResponse[];
  docs: Record<string, SpecDocs>;
  /** Plans by project id. */
  plans: Record<string, { response: PlanResponse; history: PlanPoint[] }>;
  /** Projects whose plan was opened, per profile id, most recent first (as the library keeps them). */
  recentProjects: RecentProject[];
  batches: Batch[];
  /** The tasks of batches still processing, by batch id. */
  batchTasks: Record<string, BrowserTask[]>;
  media: MediaItem[];
  conversations: Conversation[];
  messages: ConversationMessage[];
  /** What a file or folder dialog answers (`null`: the user cancelled); `choose_file` too. */
  dialog: { open: string | string[] | null; save: string | null };
  /** The system clipboard the copy commands write (`null`: out of reach, they reject). */
  clipboard: { text: string } | null;
  /** Fake clock (ms since epoch); `now()` advances it one second per read. */
  clock: number;
  seq: number;
}

export const SANDBOX_ID = "sandbox";
export const SANDBOX_URL = "http://127.0.0.1:8787";
export const ROTATION_NOTICE =
  "Your new key is saved. If you replaced the old key on the service, the old key keeps working for 15 minutes, then stops.";
const NOT_FOUND =
  "The service could not find that. It may have been deleted, or it belongs to another account.";
const NO_PROJECT_YET =
  "This spec has no project yet. Wait until the spec is completed, then open its plan again.";
const MISSING_KEY = "The service needs an API key for this. Add your key in Settings, then try again.";

export function now(db: MockDb): string {
  db.clock += 1000;
  return new Date(db.clock).toISOString();
}

function nextId(db: MockDb): number {
  db.seq += 1;
  return db.seq;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** `••••` and the last four characters (fewer for a short key), as crates/core masks a key. */
export function maskedTail(key: string): string {
  const chars = [...key];
  const shown = chars.length >= 12 ? 4 : Math.floor(chars.length / 4);
  return `••••${chars.slice(chars.length - shown).join("")}`;
}

// ---------------------------------------------------------------------------------------------
// The library a fresh mock starts with.

export const SPEC_HABITS = "6741a0c3e4b0f1a2b3c4d5e6";
export const SPEC_CLIMBING = "6741a0c3e4b0f1a2b3c4d5e7";
export const SPEC_FAILED = "6741a0c3e4b0f1a2b3c4d5e8";
export const PROJECT_HABITS = "6741a0c3e4b0f1a2b3c4d5f0";
export const BATCH_DONE = "6741a0c3e4b0f1a2b3c4d600";

const HABITS_INPUT =
  "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";

function habitsScope(): ScopeOfWork {
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

function habitsMarkdown(scope: ScopeOfWork): SpecDocs {
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

function habitsPlan(): { response: PlanResponse; history: PlanPoint[] } {
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

function batchResults(tasks: BrowserTask[]): TaskResult[] {
  return tasks.map((t, i) => ({
    url: t.url,
    ...(t.instruction ? { instruction: t.instruction } : {}),
    status: "SUCCESS",
    data: { title: `Page ${i + 1}` },
    cost: 0.012,
    creditsUsed: 0.12,
    durationMs: 3200 + i * 400,
  }));
}

function model(id: string, type: string, input: string[], output: string[], extra: Partial<CatalogModel> = {}): CatalogModel {
  const [lab = "", name = id] = id.split("/");
  return { id, name, lab, type, input, output, context_length: type === "text" ? 200000 : undefined, ...extra };
}

const TEXT_MODELS: CatalogModel[] = [
  model("anthropic/claude-sonnet-4.5", "text", ["text", "image"], ["text"]),
  model("openai/gpt-5-mini", "text", ["text", "image"], ["text"]),
  model("openai/gpt-4o-mini-audio", "text", ["text", "audio"], ["text", "audio"]),
  model("openai/gpt-4o-transcribe", "text", ["audio"], ["text"]),
];
const IMAGE_MODELS: CatalogModel[] = [
  model("openai/gpt-image-1", "image", ["text"], ["image"], { svc: { credits_per_image: 0.4 } }),
];
const VIDEO_MODELS: CatalogModel[] = [
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
    appInfo: { version: "0.1.0", firstRun: false, dataDir: "/home/user/.local/share/dev.specdesk.app" },
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
      { id: 1, conversationId: 1, role: "user", content: "Three names for a habit tracker?", createdAt: "2026-11-21T12:00:00.000Z" },
      {
        id: 2,
        conversationId: 1,
        role: "assistant",
        content: [{ type: "text", text: "Streakly, Daily Loop and Team Tally." }],
        model: "anthropic/claude-sonnet-4.5",
        creditsCharged: 0.02,
        createdAt: "2026-11-21T12:00:05.000Z",
      },
    ],
    dialog: { open: null, save: null },
    clipboard: { text: "" },
    clock: Date.parse("2026-11-22T09:00:00.000Z"),
    seq: 100,
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers the handlers share.

function profileViews(db: MockDb): ProfileView[] {
  return db.profiles.map((p) => ({ ...clone(p), active: p.id === db.settings.activeProfileId }));
}

function findProfile(db: MockDb, id: string): ProfileView {
  const p = db.profiles.find((x) => x.id === id);
  if (!p) throw ipcError("notFound", "That connection no longer exists.");
  return p;
}

function checkInput(input: ProfileInput): ProfileInput {
  const name = checkProfileName(input.name);
  if (name) throw ipcError("invalidInput", name, { field: "name" });
  const url = checkBaseUrl(input.baseUrl);
  if (url) throw ipcError("invalidInput", url, { field: "baseUrl" });
  const project = checkProjectId(input.projectId ?? "");
  if (project) throw ipcError("invalidInput", project, { field: "projectId" });
  const projectId = input.projectId?.trim();
  return { name: input.name.trim(), baseUrl: input.baseUrl.trim(), keyKind: input.keyKind, ...(projectId ? { projectId } : {}) };
}

function checkKey(key: string): string {
  const problem = checkApiKey(key);
  if (problem) throw ipcError("invalidInput", problem, { field: "apiKey" });
  return key.trim();
}

function activeProfile(db: MockDb): ProfileView {
  return findProfile(db, db.settings.activeProfileId);
}

function balanceView(db: MockDb, profileId: string): CreditsView {
  return { profileId, creditsRemaining: db.credits[profileId] ?? 0, at: now(db) };
}

/** Charges the active profile and broadcasts the new balance, as every metered command does. */
export function charge(db: MockDb, ctx: MockContext, endpoint: string, credits: number): void {
  const p = activeProfile(db);
  const left = Math.max(0, (db.credits[p.id] ?? 0) - credits);
  db.credits[p.id] = Math.round(left * 1000) / 1000;
  const view = balanceView(db, p.id);
  db.ledger.unshift({ at: view.at, profileId: p.id, endpoint, creditsCharged: credits, creditsRemaining: view.creditsRemaining, pending: false, estimated: false });
  ctx.emit("credits-changed", view);
}

/** What the Rust copy commands do: write the system clipboard, or say it is out of reach. */
function copyToClipboard(db: MockDb, text: string): null {
  if (!db.clipboard) throw ipcError("internal", "Specdesk could not reach the clipboard (no clipboard). Use “Download .md” instead.");
  db.clipboard.text = text;
  return null;
}

function requireKey(db: MockDb): ProfileView {
  const p = activeProfile(db);
  if (!p.key.hasKey) throw ipcError("missingKey", MISSING_KEY);
  return p;
}

function findSpec(db: MockDb, specId: string): SpecStatusResponse {
  const s = db.specs.find((x) => x.specId === specId || x._id === specId);
  if (!s) throw ipcError("notFound", NOT_FOUND, { status: 404 });
  return s;
}

function toRecord(s: SpecStatusResponse): SpecRecord {
  const id = s.specId ?? s._id ?? "";
  return {
    _id: id,
    created: s.created ?? "",
    endpoint: s.endpoint ?? "fast_spec",
    input: s.input ?? "",
    status: s.status,
    success: s.success ?? false,
    ...(s.totalHumanHours !== undefined ? { totalHumanHours: s.totalHumanHours } : {}),
    ...(s.executionTime !== undefined ? { executionTime: s.executionTime } : {}),
    ...(s.errorMessage ? { errorMessage: s.errorMessage } : {}),
    ...(s.progress ? { progress: s.progress } : {}),
    ...(s.creditsUsed !== undefined ? { creditsUsed: s.creditsUsed } : {}),
  };
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A tiny markdown renderer (headings, bullet lists, paragraphs): enough for mock documents. */
export function renderMarkdown(md: string): Rendered {
  const toc: Rendered["toc"] = [];
  const out: string[] = [];
  let list = false;
  for (const line of md.split("\n")) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (!item && list) {
      out.push("</ul>");
      list = false;
    }
    if (heading?.[1] && heading[2] !== undefined) {
      const level = heading[1].length;
      const text = heading[2].trim();
      const id = slug(text);
      toc.push({ level, text, id });
      out.push(`<h${level} id="${id}">${escapeHtml(text)}</h${level}>`);
    } else if (item?.[1] !== undefined) {
      if (!list) out.push("<ul>");
      list = true;
      out.push(`<li>${escapeHtml(item[1])}</li>`);
    } else if (line.trim()) {
      out.push(`<p>${escapeHtml(line.trim())}</p>`);
    }
  }
  if (list) out.push("</ul>");
  return { html: out.join("\n"), toc };
}

function isFinished(job: Job): boolean {
  return job.status === "completed" || job.status === "failed" || job.status === "cancelled";
}

function findJob(db: MockDb, jobId: number): Job {
  const job = db.jobs.find((j) => j.id === jobId);
  if (!job) throw ipcError("notFound", "That job is no longer in the library.");
  return job;
}

function touch(db: MockDb, ctx: MockContext, job: Job): Job {
  job.updatedAt = now(db);
  const copy = clone(job);
  ctx.emit("job-changed", copy);
  return copy;
}

/** Finishes a job as the Sandbox would (instantly), with its side effects. */
function completeJob(db: MockDb, ctx: MockContext, job: Job): void {
  if (job.kind === "spec") {
    const req = job.request as { depth?: string; input?: string };
    const specId = job.remoteId ?? newObjectId(db);
    const failed = (req.input ?? "").includes("[sandbox:fail]");
    const deep = req.depth === "deep";
    const scope = { ...habitsScope(), title: "Your spec", executiveSummary: req.input ?? "" };
    const spec: SpecStatusResponse = {
      _id: specId,
      specId,
      endpoint: deep ? "deep_spec" : "fast_spec",
      input: req.input ?? "",
      status: failed ? "failed" : "completed",
      success: !failed,
      created: job.createdAt,
      creditsUsed: failed ? 0 : deep ? 10 : 2.5,
      ...(failed
        ? { errorMessage: "The spec could not be generated from this description. Add more detail and try again." }
        : { humanSpecJson: scope, codingAgentSpecJson: scope, totalHumanHours: 86, executionTime: 40, zippedDocsUrls: [] }),
    };
    db.specs = [spec, ...db.specs.filter((s) => s.specId !== specId)];
    if (!failed) db.docs[specId] = habitsMarkdown(scope);
    job.remoteId = specId;
    job.status = failed ? "failed" : "completed";
    job.progress = failed ? undefined : "Done";
    job.result = spec;
    if (failed) job.error = spec.errorMessage === undefined ? undefined : { kind: "failed", message: spec.errorMessage };
    else charge(db, ctx, spec.endpoint === "deep_spec" ? "deep_spec" : "fast_spec", spec.creditsUsed ?? 0);
  } else if (job.kind === "batch") {
    const batch = db.batches.find((b) => b.id === job.remoteId);
    if (batch) finishBatch(db, ctx, batch);
    job.status = "completed";
    job.result = batch ? clone(batch) : null;
  } else {
    const req = job.request as { model?: string; prompt?: string };
    const id = nextId(db);
    db.media.unshift({
      id,
      kind: "video",
      path: `${db.appInfo.dataDir}/media/${id}.mp4`,
      prompt: req.prompt ?? "",
      model: req.model ?? "",
      profileId: job.profileId,
      credits: 6,
      jobId: job.id,
      createdAt: now(db),
    });
    job.status = "completed";
    job.result = { status: "completed", progress: 100 };
    charge(db, ctx, "videos", 6);
  }
}

function finishBatch(db: MockDb, ctx: MockContext, batch: Batch): void {
  if (batch.status !== "processing") return;
  const tasks = db.batchTasks[batch.id] ?? [];
  batch.results = batchResults(tasks);
  batch.completed = batch.total;
  batch.totalCost = batch.results.reduce((s, r) => s + r.cost, 0);
  batch.totalCreditsUsed = batch.results.reduce((s, r) => s + r.creditsUsed, 0);
  batch.status = "completed";
  batch.completedAt = now(db);
  db.batchTasks = Object.fromEntries(Object.entries(db.batchTasks).filter(([id]) => id !== batch.id));
  charge(db, ctx, "browser_agents", batch.totalCreditsUsed);
}

function newObjectId(db: MockDb): string {
  return (0x6750000000 + nextId(db)).toString(16).padStart(24, "0");
}

function addJob(db: MockDb, ctx: MockContext, job: Omit<Job, "id" | "createdAt" | "updatedAt" | "profileId">): Job {
  const at = now(db);
  const full: Job = { ...job, id: nextId(db), profileId: db.settings.activeProfileId, createdAt: at, updatedAt: at };
  db.jobs.unshift(full);
  ctx.emit("job-changed", clone(full));
  return clone(full);
}

function checkWebUrl(field: string, url: string, message: string): void {
  try {
    const u = new URL(url);
    if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname) return;
  } catch {
    // falls through to the error
  }
  throw ipcError("invalidInput", message, { field });
}

const SPEC_FILE_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  text: "text/plain",
  pdf: "application/pdf",
  json: "application/json",
  csv: "text/csv",
};

function lastText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((b: unknown) => (b && typeof b === "object" && "text" in b && typeof b.text === "string" ? b.text : ""))
      .join(" ");
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// The handlers: one per command of the contract (tsc fails here when a command is added there).

export type BaseHandlers = { [C in CommandName]: Handler<C> };

export const baseHandlers: BaseHandlers = {
  app_info: (_a, { db }) => clone(db.appInfo),
  finish_welcome: (_a, { db }) => {
    db.appInfo.firstRun = false;
    return null;
  },

  list_profiles: (_a, { db }) => profileViews(db),
  add_profile: ({ input, apiKey }, ctx) => {
    const { db } = ctx;
    const checked = checkInput(input);
    const key = apiKey?.trim() ? checkKey(apiKey) : undefined;
    const profile: ProfileView = {
      id: `p_${nextId(ctx.db)}`,
      ...checked,
      builtIn: false,
      active: false,
      key: key ? { hasKey: true, maskedTail: maskedTail(key) } : { hasKey: false },
    };
    db.profiles.push(profile);
    db.credits[profile.id] = 1000;
    ctx.emit("profiles-changed", null);
    return clone(profile);
  },
  update_profile: ({ id, input }, ctx) => {
    const p = findProfile(ctx.db, id);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox connection cannot be changed.");
    const checked = checkInput(input);
    p.name = checked.name;
    p.baseUrl = checked.baseUrl;
    p.keyKind = checked.keyKind;
    p.projectId = checked.projectId;
    ctx.emit("profiles-changed", null);
    return profileViews(ctx.db).find((x) => x.id === id) as ProfileView;
  },
  delete_profile: ({ id }, ctx) => {
    const p = findProfile(ctx.db, id);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox connection cannot be removed.");
    ctx.db.profiles = ctx.db.profiles.filter((x) => x.id !== id);
    if (ctx.db.settings.activeProfileId === id) ctx.db.settings.activeProfileId = SANDBOX_ID;
    ctx.emit("profiles-changed", null);
    return null;
  },
  set_active_profile: ({ id }, ctx) => {
    findProfile(ctx.db, id);
    ctx.db.settings.activeProfileId = id;
    ctx.emit("profiles-changed", null);
    return profileViews(ctx.db).find((x) => x.id === id) as ProfileView;
  },
  set_api_key: ({ profileId, apiKey }, ctx) => {
    const p = findProfile(ctx.db, profileId);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox uses its own key; it cannot be changed.");
    const key = checkKey(apiKey);
    const replaced = p.key.hasKey;
    p.key = { hasKey: true, maskedTail: maskedTail(key) };
    ctx.emit("profiles-changed", null);
    return { key: clone(p.key), ...(replaced ? { notice: ROTATION_NOTICE } : {}) };
  },
  delete_api_key: ({ profileId }, ctx) => {
    const p = findProfile(ctx.db, profileId);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox uses its own key; it cannot be removed.");
    p.key = { hasKey: false };
    ctx.emit("profiles-changed", null);
    return clone(p.key);
  },
  test_connection: ({ profileId }, ctx) => {
    const p = findProfile(ctx.db, profileId);
    if (!p.key.hasKey) throw ipcError("missingKey", MISSING_KEY);
    const view = balanceView(ctx.db, profileId);
    ctx.emit("credits-changed", view);
    return { profileId, creditsRemaining: view.creditsRemaining };
  },

  get_settings: (_a, { db }) => clone(db.settings),
  save_settings: ({ settings }, ctx) => {
    const s = settings.specPollIntervalSecs;
    if (!Number.isInteger(s) || s < 10 || s > 15) {
      throw ipcError("invalidInput", "Choose a whole number of seconds from 10 to 15.", { field: "specPollIntervalSecs" });
    }
    findProfile(ctx.db, settings.activeProfileId);
    ctx.db.settings = clone(settings);
    ctx.emit("settings-changed", clone(settings));
    return clone(settings);
  },

  credits_balance: (_a, ctx) => {
    const p = requireKey(ctx.db);
    const view = balanceView(ctx.db, p.id);
    ctx.emit("credits-changed", view);
    return view;
  },
  credit_ledger: ({ limit }, { db }) => clone(db.ledger.slice(0, limit)),
  open_external: ({ url }) => {
    checkWebUrl("url", url, "That link is not a web address.");
    return null;
  },
  cancel_stream: () => null,
  open_log_folder: () => null,
  copy_diagnostics: () => null,

  list_jobs: ({ kind, limit }, { db }) =>
    clone(db.jobs.filter((j) => j.profileId === db.settings.activeProfileId && (!kind || j.kind === kind)).slice(0, limit)),
  cancel_job: ({ jobId }, ctx) => {
    const job = findJob(ctx.db, jobId);
    if (isFinished(job)) return clone(job);
    job.status = "cancelled";
    return touch(ctx.db, ctx, job);
  },
  follow_job: ({ jobId, onEvent }, ctx) => {
    const channel = ctx.channel<JobEvent>(onEvent);
    const job = findJob(ctx.db, jobId);
    if (!isFinished(job)) {
      job.status = "running";
      job.progress = job.kind === "spec" ? "Writing the milestones" : "Working";
      channel.send({ type: "update", job: touch(ctx.db, ctx, job) });
      completeJob(ctx.db, ctx, job);
      touch(ctx.db, ctx, job);
    }
    const done = clone(job);
    channel.send({ type: "done", job: done });
    return done;
  },

  inspect_file: ({ path }) => {
    const name = path.split(/[\\/]/).pop() ?? path;
    const ext = name.includes(".") ? (name.split(".").pop() ?? "").toLowerCase() : "";
    const mime = SPEC_FILE_TYPES[ext];
    if (!mime) {
      throw ipcError(
        "invalidInput",
        `"${name}" is not a type the service can read. Use a Markdown, text, PDF, JSON or CSV file.`,
        { field: "file" },
      );
    }
    const info: FileInfo = { path, name, size: 2048 + name.length * 512, mime };
    return info;
  },
  submit_spec: ({ draft }, ctx) => {
    requireKey(ctx.db);
    const input: string = draft.input ?? "";
    if (!input.trim() && !draft.filePath) {
      throw ipcError("invalidInput", "Describe what you want to build, or attach a file that describes it.", { field: "input" });
    }
    const docUrls: string[] = (draft.docUrls ?? []).map((u: string) => u.trim()).filter((u: string) => u);
    docUrls.forEach((url, i) =>
      checkWebUrl(
        "docUrls",
        url,
        `Documentation link ${i + 1} ("${url}") is not a full web address. Write it like https://docs.example.com.`,
      ),
    );
    const fileName = draft.filePath ? draft.filePath.split(/[\\/]/).pop() : undefined;
    return addJob(ctx.db, ctx, {
      kind: "spec",
      request: {
        depth: draft.depth,
        input,
        ...(draft.currentContext ? { currentContext: draft.currentContext } : {}),
        docUrls,
        ...(fileName ? { fileName, fileSize: 4096 } : {}),
      },
      remoteId: newObjectId(ctx.db),
      status: "submitted",
      result: null,
    });
  },
  list_specs: ({ query }, { db }) => {
    requireKey(db);
    const limit: number = query.limit ?? 20;
    const skip: number = query.skip ?? 0;
    if (limit < 1 || limit > 100 || skip < 0) {
      throw ipcError("invalidInput", "The service refused the request: Invalid request. Check what you entered and try again.", {
        status: 400,
        field: limit < 1 || limit > 100 ? "limit" : "skip",
      });
    }
    let pattern: RegExp | null = null;
    if (query.search) {
      try {
        pattern = new RegExp(query.search, "i");
      } catch {
        throw ipcError("invalidInput", "The service refused the request: Invalid request. Check what you entered and try again.", {
          status: 400,
          field: "search",
        });
      }
    }
    const all = db.specs.filter(
      (s) =>
        (!query.endpoint || s.endpoint === query.endpoint) &&
        (!query.status || s.status === query.status) &&
        (!pattern || pattern.test(s.input ?? "")),
    );
    const page: SpecPage = {
      specs: all.slice(skip, skip + limit).map(toRecord),
      total: all.length,
      hasMore: skip + limit < all.length,
      offline: false,
    };
    return page;
  },
  cached_specs: ({ limit, offset }, { db }) =>
    db.specs.slice(offset, offset + limit).map((s): CachedSpec => {
      const id = s.specId ?? s._id ?? "";
      return {
        specId: id,
        profileId: SANDBOX_ID,
        input: s.input,
        status: s.status,
        endpoint: s.endpoint,
        created: s.created,
        totalHumanHours: s.totalHumanHours,
        creditsUsed: s.creditsUsed,
        hasMarkdown: id in db.docs,
        cachedAt: "2026-11-21T18:00:00.000Z",
      };
    }),
  get_spec: ({ specId }, { db }) => {
    const spec = clone(findSpec(db, specId));
    delete spec.humanSpecMarkdown;
    delete spec.codingAgentSpecMarkdown;
    const docs = db.docs[specId];
    const view: SpecView = {
      spec,
      offline: false,
      hasHumanMarkdown: !!docs?.human,
      hasAgentMarkdown: !!docs?.codingAgent,
      cachedAt: "2026-11-21T18:00:00.000Z",
    };
    return view;
  },
  render_spec: ({ specId, doc }, { db }) => {
    findSpec(db, specId);
    const docs = db.docs[specId];
    if (!docs) throw ipcError("notFound", "This spec has no document yet.");
    return renderMarkdown(doc === "human" ? docs.human : docs.codingAgent);
  },
  spec_markdown: ({ specId, doc }, { db }) => {
    findSpec(db, specId);
    const docs = db.docs[specId];
    if (!docs) throw ipcError("notFound", "This spec has no document yet.");
    return doc === "human" ? docs.human : docs.codingAgent;
  },

  get_plan: ({ target }, { db }) => {
    requireKey(db);
    let projectId: string | undefined = target.projectId;
    if (target.specId) {
      const spec = findSpec(db, target.specId);
      if (spec.status !== "completed" || !spec.projectId) throw ipcError("notFound", NO_PROJECT_YET, { status: 404 });
      projectId = spec.projectId;
    }
    const plan = projectId ? db.plans[projectId] : undefined;
    if (!plan) throw ipcError("notFound", NOT_FOUND, { status: 404 });
    const view: PlanView = { response: clone(plan.response), history: clone(plan.history), changed: false };
    const profileId = db.settings.activeProfileId;
    const p = plan.response.plan;
    db.recentProjects = [
      {
        projectId: plan.response.projectId,
        profileId,
        name: p?.name ?? undefined,
        specId: plan.response.specId ?? undefined,
        percent: p?.progress.percent,
        built: p?.progress.built,
        total: p?.progress.total,
        computedAt: p?.computedAt,
        openedAt: new Date().toISOString(),
      },
      ...db.recentProjects.filter((r) => !(r.profileId === profileId && r.projectId === plan.response.projectId)),
    ];
    return view;
  },
  recent_projects: ({ limit }, { db }) =>
    clone(db.recentProjects.filter((r) => r.profileId === db.settings.activeProfileId).slice(0, limit)),
  forget_project: ({ projectId }, { db }) => {
    db.recentProjects = db.recentProjects.filter((r) => !(r.profileId === db.settings.activeProfileId && r.projectId === projectId));
    return null;
  },
  plan_markdown: ({ target }, ctx) => {
    const view = baseHandlers.get_plan({ target }, ctx) as PlanView;
    return view.response.markdown;
  },

  copy_spec_markdown: ({ specId, doc }, ctx) => copyToClipboard(ctx.db, baseHandlers.spec_markdown({ specId, doc }, ctx) as string),
  copy_plan_markdown: ({ target }, ctx) => copyToClipboard(ctx.db, baseHandlers.plan_markdown({ target }, ctx) as string),
  copy_text: ({ text }, { db }) => copyToClipboard(db, text),

  choose_file: (_args, { db }) => (typeof db.dialog.open === "string" ? db.dialog.open : null),

  save_document: ({ fileName, choose }, { db }) => {
    if (choose) return db.dialog.save;
    return `${db.settings.downloadFolder ?? "/home/user/Downloads"}/${fileName}`;
  },

  submit_batch: ({ tasks, concurrency }, ctx) => {
    requireKey(ctx.db);
    if (tasks.length === 0) throw ipcError("invalidInput", "Add at least one task.", { field: "tasks" });
    tasks.forEach((t, i) =>
      checkWebUrl(
        `tasks[${i}].url`,
        t.url,
        `Task ${i + 1}: "${t.url}" is not a full web address. Write it like https://example.com.`,
      ),
    );
    const id = newObjectId(ctx.db);
    const batch: Batch = {
      id,
      total: tasks.length,
      completed: 0,
      results: [],
      totalCost: 0,
      totalCreditsUsed: 0,
      status: "processing",
      createdAt: now(ctx.db),
    };
    ctx.db.batches.unshift(batch);
    ctx.db.batchTasks[id] = clone(tasks);
    return addJob(ctx.db, ctx, {
      kind: "batch",
      idempotencyKey: `idem-batch-${id}`,
      request: { tasks, ...(concurrency ? { concurrency } : {}) },
      remoteId: id,
      status: "submitted",
      result: null,
    });
  },
  watch_batch: ({ batchId, onEvent }, ctx) => {
    const channel = ctx.channel<BatchEvent>(onEvent);
    const batch = ctx.db.batches.find((b) => b.id === batchId);
    if (!batch) throw ipcError("notFound", NOT_FOUND, { status: 404 });
    finishBatch(ctx.db, ctx, batch);
    batch.results.forEach((r, taskIndex) => {
      const timestamp = ctx.db.clock;
      channel.send({ type: "taskEvent", event: { taskIndex, timestamp, type: "navigation", url: r.url, title: `Page ${taskIndex + 1}` } });
      channel.send({ type: "taskEvent", event: { taskIndex, timestamp, type: "done", status: r.status, durationMs: r.durationMs } });
      channel.send({ type: "taskResult", result: { taskIndex, status: r.status, data: r.data ?? null } });
    });
    const done = clone(batch);
    channel.send({ type: "done", batch: done });
    return done;
  },
  list_batches: ({ limit, skip, status }, { db }) => {
    const all = db.batches.filter((b) => !status || b.status === status);
    return { batches: clone(all.slice(skip, skip + limit)), total: all.length, hasMore: skip + limit < all.length };
  },
  get_batch: ({ batchId, includeEvents }, { db }) => {
    const batch = db.batches.find((b) => b.id === batchId);
    if (!batch) throw ipcError("notFound", NOT_FOUND, { status: 404 });
    const copy = clone(batch);
    if (includeEvents) {
      copy.results = copy.results.map((r, taskIndex) => ({
        ...r,
        events: [
          { taskIndex, type: "navigation", url: r.url },
          { taskIndex, type: "done", status: r.status },
        ],
      }));
    }
    return copy;
  },
  agent_capacity: () => ({
    totalActive: 3,
    maxSandboxes: 50,
    perUserCap: 10,
    pending: 1,
    running: 2,
    claimed: 0,
    failed: 0,
    utilization: 0.06,
    oldestQueuedAgeMs: 1200,
    topUsers: [{ userId: "user_sandbox_org", inflight: 2 }],
    workers: [{ workerId: "worker-1", inflight: 2 }, { workerId: "worker-2", inflight: 1 }],
  }),

  public_catalog: () => {
    // The public catalog carries no prices.
    const data = [...TEXT_MODELS.slice(0, 2), ...IMAGE_MODELS, ...VIDEO_MODELS].map((m) => {
      const row = clone(m);
      delete row.svc;
      return row;
    });
    const catalog: PublicCatalog = {
      object: "list",
      total: data.length,
      counts: { text: 2, image: 1, video: 1, embeddings: 0 },
      labs: [
        { id: "anthropic", name: "Anthropic", models: 1 },
        { id: "google", name: "Google", models: 1 },
        { id: "openai", name: "OpenAI", models: 2 },
      ],
      data,
    };
    return catalog;
  },
  gateway_models: (): ModelList => ({ object: "list", data: clone([...TEXT_MODELS, ...IMAGE_MODELS, ...VIDEO_MODELS]) }),
  image_models: (): ModelList => ({ object: "list", data: clone(IMAGE_MODELS) }),
  video_models: (): ModelList => ({ object: "list", data: clone(VIDEO_MODELS) }),
  rerank: ({ request }, ctx) => {
    requireKey(ctx.db);
    const words = request.query.toLowerCase().split(/\W+/).filter(Boolean);
    const scored = request.documents.map((d, index) => {
      const text = d.toLowerCase();
      const hits = words.filter((w) => text.includes(w)).length;
      return { index, relevance_score: words.length ? Math.round((hits / words.length) * 1000) / 1000 : 0 };
    });
    scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
    charge(ctx.db, ctx, "rerank", 0.01);
    return { model: request.model, results: scored.slice(0, request.top_n ?? scored.length), usage: { total_tokens: 42 } };
  },
  speech: ({ request }, ctx) => {
    requireKey(ctx.db);
    const id = nextId(ctx.db);
    const item: MediaItem = {
      id,
      kind: "audio",
      path: `${ctx.db.appInfo.dataDir}/media/${id}.wav`,
      prompt: request.input,
      model: request.model,
      profileId: ctx.db.settings.activeProfileId,
      credits: 0.05,
      createdAt: now(ctx.db),
    };
    ctx.db.media.unshift(item);
    charge(ctx.db, ctx, "speech", 0.05);
    return clone(item);
  },
  transcribe: ({ path }, ctx) => {
    requireKey(ctx.db);
    const name = path.split(/[\\/]/).pop() ?? path;
    charge(ctx.db, ctx, "transcriptions", 0.02);
    return { text: `Sandbox transcription of ${name}.`, usage: { cost: 0.002 } };
  },
  chat_stream: ({ conversationId, request, onEvent }, ctx) => {
    const channel = ctx.channel<ChatEvent>(onEvent);
    requireKey(ctx.db);
    const { db } = ctx;
    let conversation = conversationId === undefined ? undefined : db.conversations.find((c) => c.id === conversationId);
    const last = request.messages[request.messages.length - 1];
    const asked = last ? lastText(last.content) : "";
    if (!conversation) {
      const at = now(db);
      conversation = { id: nextId(db), profileId: db.settings.activeProfileId, title: asked.slice(0, 60) || "New conversation", model: request.model, createdAt: at, updatedAt: at };
      db.conversations.unshift(conversation);
    }
    const convId = conversation.id;
    channel.send({ type: "start", conversationId: convId });
    const text = `Sandbox reply to: ${asked}`;
    const parts = text.split(/(?<= )/);
    parts.forEach((t) => channel.send({ type: "text", index: 0, text: t }));
    const message: MessagesResponse = {
      id: `msg_${nextId(db)}`,
      type: "message",
      role: "assistant",
      model: request.model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: parts.length, cost: 0.002 },
    };
    const at = now(db);
    db.messages.push(
      { id: nextId(db), conversationId: convId, role: "user", content: last?.content ?? "", createdAt: at },
      { id: nextId(db), conversationId: convId, role: "assistant", content: message.content, model: request.model, creditsCharged: 0.02, createdAt: at },
    );
    conversation.updatedAt = at;
    charge(db, ctx, "messages", 0.02);
    channel.send({ type: "done", message, conversationId: convId });
    return message;
  },
  generate_images: ({ request }, ctx) => {
    requireKey(ctx.db);
    const n = Math.min(4, Math.max(1, request.n ?? 1));
    const items: MediaItem[] = [];
    for (let i = 0; i < n; i += 1) {
      const id = nextId(ctx.db);
      items.push({
        id,
        kind: "image",
        path: `${ctx.db.appInfo.dataDir}/media/${id}.png`,
        prompt: request.prompt,
        model: request.model,
        profileId: ctx.db.settings.activeProfileId,
        credits: 0.4,
        createdAt: now(ctx.db),
      });
    }
    ctx.db.media.unshift(...items);
    charge(ctx.db, ctx, "images", 0.4 * n);
    return clone(items);
  },
  submit_video: ({ request }, ctx) => {
    requireKey(ctx.db);
    return addJob(ctx.db, ctx, {
      kind: "video",
      request,
      remoteId: `video_${nextId(ctx.db)}`,
      status: "submitted",
      result: null,
    });
  },
  list_media: ({ kind, limit, offset }, { db }) =>
    clone(db.media.filter((m) => m.profileId === db.settings.activeProfileId && (!kind || m.kind === kind)).slice(offset, offset + limit)),
  delete_media: ({ id }, { db }) => {
    db.media = db.media.filter((m) => m.id !== id);
    return null;
  },
  reveal_media: ({ id }, { db }) => {
    if (!db.media.some((m) => m.id === id)) throw ipcError("notFound", "That file is no longer in the media folder.");
    return null;
  },
  list_conversations: ({ limit, offset }, { db }) =>
    clone(db.conversations.filter((c) => c.profileId === db.settings.activeProfileId).slice(offset, offset + limit)),
  conversation_messages: ({ conversationId }, { db }) => clone(db.messages.filter((m) => m.conversationId === conversationId)),
  delete_conversation: ({ id }, { db }) => {
    db.conversations = db.conversations.filter((c) => c.id !== id);
    db.messages = db.messages.filter((m) => m.conversationId !== id);
    return null;
  },
};
