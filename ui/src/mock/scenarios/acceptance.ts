// Scenario of an acceptance run ("Check these stories on my app"): a spec whose stories carry
// acceptance criteria, and a watch_batch that answers each acceptance task with `passed` and
// `evidence` (and a screenshot), some criteria passing and some failing; the second run of the
// page changes some of them, so a re-run shows what changed. Open it with ?scenario=acceptance.
import type { Batch, BatchEvent, BrowserTask } from "../../ipc/contract";
import type { ScopeOfWork } from "../../bindings/ScopeOfWork";
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import type { TaskResult } from "../../bindings/TaskResult";
import type { TaskEvent } from "../../bindings/TaskEvent";
import { baseHandlers, type MockDb } from "../base";
import { defineScenario, type Args, type MockContext } from "../registry";
import { clone, now } from "../state";

export const SPEC_ACCEPT = "6741a0c3e4b0f1a2b3c4d5f9";
export const ACCEPT_INPUT = "A shared bookshelf for a book club: members list their books, borrow them and leave reviews.";

/** The five criteria, in the order of the stories. */
export const CRITERIA = [
  "The home page shows a Sign in button",
  "A wrong password shows an error message",
  "The shelf lists every book with its title and author",
  "A borrowed book shows who has it",
  "The Borrow button is disabled for a borrowed book",
] as const;

type Answer = { status: "SUCCESS"; passed: boolean; evidence: string } | { status: string; error: string };

/** What the agent finds for each criterion, on the first run and on the runs after it. */
export const ANSWERS: Record<(typeof CRITERIA)[number], [Answer, Answer]> = {
  "The home page shows a Sign in button": [
    { status: "SUCCESS", passed: true, evidence: "The header shows a Sign in button at the top right." },
    { status: "SUCCESS", passed: true, evidence: "The header shows a Sign in button at the top right." },
  ],
  "A wrong password shows an error message": [
    { status: "SUCCESS", passed: false, evidence: "After a wrong password the form was cleared with no message." },
    { status: "SUCCESS", passed: true, evidence: "The form says: Wrong email or password." },
  ],
  "The shelf lists every book with its title and author": [
    { status: "SUCCESS", passed: true, evidence: "12 books listed, each with its title and author." },
    { status: "SUCCESS", passed: false, evidence: "The shelf page shows: Something went wrong." },
  ],
  "A borrowed book shows who has it": [
    { status: "SUCCESS", passed: false, evidence: "Borrowed books show a Borrowed label but no member name." },
    { status: "SUCCESS", passed: false, evidence: "Borrowed books show a Borrowed label but no member name." },
  ],
  "The Borrow button is disabled for a borrowed book": [
    { status: "NO_TARGET", error: "No Borrow button was found on the page." },
    { status: "SUCCESS", passed: true, evidence: "The Borrow button of a borrowed book is greyed out and cannot be clicked." },
  ],
};

export function acceptanceSpec(): SpecStatusResponse {
  const scope: ScopeOfWork = {
    title: "Book Club Shelf",
    executiveSummary: "A web app where a book club shares its members' books, lends them and reviews them.",
    coreFunctionalities: [{ name: "Shared shelf", description: "Every member's books in one list.", priority: "High" }],
    techStack: [{ name: "React", category: "Frontend" }],
    techStackGrouped: { Frontend: ["React"] },
    milestones: [
      {
        milestoneNumber: 1,
        description: "Accounts",
        hours: 12,
        stories: [
          { id: "1.1", title: "Sign in", hours: 8, complexity: "S", acceptanceCriteria: [CRITERIA[0], CRITERIA[1]], subTasks: [] },
          { id: "1.2", title: "Member profile", hours: 4, complexity: "S", subTasks: [] },
        ],
      },
      {
        milestoneNumber: 2,
        description: "The shelf",
        hours: 20,
        stories: [
          { id: "2.1", title: "List the shelf", hours: 8, complexity: "M", acceptanceCriteria: [CRITERIA[2]], subTasks: [] },
          { id: "2.2", title: "Borrow a book", hours: 12, complexity: "M", acceptanceCriteria: [CRITERIA[3], CRITERIA[4]], subTasks: [] },
        ],
      },
    ],
    totalHours: 32,
  };
  return {
    _id: SPEC_ACCEPT,
    specId: SPEC_ACCEPT,
    endpoint: "fast_spec",
    input: ACCEPT_INPUT,
    status: "completed",
    success: true,
    created: "2026-11-22T08:00:00.000Z",
    creditsUsed: 2.5,
    executionTime: 38.4,
    totalHumanHours: 32,
    humanSpecJson: scope,
    codingAgentSpecJson: scope,
    zippedDocsUrls: [],
  };
}

function svgShot(caption: string, good: boolean): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#f0f1f7"/><rect width="320" height="32" fill="${good ? "#166534" : "#991b1b"}"/><text x="16" y="110" font-size="14" fill="#1b1d2a">${caption}</text></svg>`;
  return btoa(svg);
}

/** Batches sent in this page, and their results once finished (replayed when watched again). */
let runsSent = 0;
const finished = new Map<string, TaskResult[]>();

function answerFor(task: BrowserTask, run: number): Answer {
  const c = CRITERIA.find((text) => task.instruction?.includes(text));
  if (!c) return { status: "SUCCESS", passed: true, evidence: "Done." };
  return run === 0 ? ANSWERS[c][0] : ANSWERS[c][1];
}

function resultOf(task: BrowserTask, answer: Answer, i: number): TaskResult {
  const base = { url: task.url, ...(task.instruction ? { instruction: task.instruction } : {}), cost: 0.012, creditsUsed: 0.12, durationMs: 2000 + i * 300 };
  return "passed" in answer
    ? { ...base, status: "SUCCESS", data: { passed: answer.passed, evidence: answer.evidence } }
    : { ...base, status: answer.status, error: answer.error };
}

function eventsOf(r: TaskResult, i: number, at: number): BatchEvent[] {
  const good = r.status === "SUCCESS" && (r.data as { passed?: boolean } | undefined)?.passed === true;
  const list: TaskEvent[] = [
    { taskIndex: i, timestamp: at, type: "sandbox", status: "starting" },
    { taskIndex: i, timestamp: at + 300, type: "navigation", url: r.url, title: "Book Club Shelf" },
    { taskIndex: i, timestamp: at + 600, type: "screenshot", url: r.url, mimeType: "image/svg+xml", chunkIndex: 0, chunkCount: 1, data: svgShot(`Task ${i + 1}`, good) },
  ];
  if (r.status === "SUCCESS") list.push({ taskIndex: i, timestamp: at + r.durationMs, type: "done", status: r.status, data: r.data, durationMs: r.durationMs });
  else list.push({ taskIndex: i, timestamp: at + r.durationMs, type: "error", status: r.status, error: r.error, durationMs: r.durationMs });
  return [...list.map((event): BatchEvent => ({ type: "taskEvent", event })), { type: "taskResult", result: { taskIndex: i, status: r.status, data: r.data ?? null } }];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function watchBatch(args: Args<"watch_batch">, ctx: MockContext): Promise<Batch> {
  const db = ctx.db;
  const id = args.batchId ?? db.jobs.find((j) => j.id === args.jobId)?.remoteId;
  const batch = db.batches.find((b) => b.id === id);
  if (!batch || (!db.batchTasks[batch.id] && !finished.has(batch.id))) return baseHandlers.watch_batch(args, ctx);
  const channel = ctx.channel<BatchEvent[]>(args.onEvent);
  let results = finished.get(batch.id);
  if (!results) {
    const run = runsSent++;
    results = (db.batchTasks[batch.id] ?? []).map((t, i) => resultOf(t, answerFor(t, run), i));
    finished.set(batch.id, results);
  }
  const start = db.clock;
  for (const [i, r] of results.entries()) {
    channel.send(eventsOf(r, i, start + i * 1000));
    await sleep(5);
  }
  if (batch.status === "processing") {
    batch.results = clone(results);
    batch.completed = batch.total;
    batch.totalCost = results.reduce((s, r) => s + r.cost, 0);
    batch.totalCreditsUsed = Math.round(results.reduce((s, r) => s + r.creditsUsed, 0) * 100) / 100;
    batch.status = "completed";
    batch.completedAt = now(db);
    db.batchTasks = Object.fromEntries(Object.entries(db.batchTasks).filter(([k]) => k !== batch.id));
    const job = db.jobs.find((j) => j.remoteId === batch.id);
    if (job) job.status = "completed";
  }
  const done = clone(batch);
  channel.send([{ type: "done", batch: done }]);
  return done;
}

function setup(db: MockDb) {
  db.specs.unshift(acceptanceSpec());
  db.docs[SPEC_ACCEPT] = { human: "# Book Club Shelf\n", codingAgent: "# Book Club Shelf\n" };
}

defineScenario(
  "acceptance",
  { watch_batch: watchBatch },
  {
    description:
      "A spec with five acceptance criteria in three stories; acceptance tasks answer passed/evidence (two pass, two fail, one NO_TARGET on the first run; a later run changes three).",
    setup,
  },
);
