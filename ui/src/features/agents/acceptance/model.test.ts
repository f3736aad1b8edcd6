import { afterEach, describe, expect, it } from "vitest";
import type { ScopeOfWork } from "../../../bindings/ScopeOfWork";
import { emptyTask, type TaskView } from "../watch/reducer";
import { rowToTask } from "../builder/model";
import {
  ACCEPTANCE_SCHEMA,
  MAX_RUNS,
  RUNS_STORAGE_KEY,
  acceptanceRows,
  acceptanceStories,
  acceptanceTasks,
  changeSummary,
  checkAppUrl,
  diffRuns,
  loadRuns,
  outcomesOf,
  previousRun,
  runSummary,
  saveRun,
  scopeMarks,
  storiesWithoutCriteria,
  storyCount,
  storyResult,
  taskCriteria,
  type AcceptanceRun,
  type CriterionOutcome,
} from "./model";

const SOW: ScopeOfWork = {
  title: "Book Club Shelf",
  executiveSummary: "",
  coreFunctionalities: [],
  techStack: [],
  techStackGrouped: {},
  milestones: [
    {
      milestoneNumber: 1,
      description: "Accounts",
      stories: [
        { title: "Sign in", acceptanceCriteria: ["The home page shows a Sign in button", "  A wrong password shows an error message ", "   "], subTasks: [] },
        { title: "Member profile", subTasks: [] },
      ],
    },
    {
      milestoneNumber: 2,
      description: "The shelf",
      stories: [{ title: "Borrow a book", acceptanceCriteria: ["A borrowed book shows who has it"], subTasks: [] }],
    },
  ],
};

const SCHEMA = { type: "object", properties: { passed: { type: "boolean" }, evidence: { type: "string" } }, required: ["passed", "evidence"] };

function task(phase: TaskView["phase"], data?: TaskView["data"], error?: string): TaskView {
  return { ...emptyTask(0), phase, ...(data !== undefined ? { data } : {}), ...(error ? { error } : {}) };
}

function run(id: string, at: string, criteria: Record<string, CriterionOutcome>, finished = true): AcceptanceRun {
  return { id, batchId: id, at, url: "http://localhost:3000", total: Object.keys(criteria).length, tasks: Object.keys(criteria), criteria, finished };
}

const yes = (evidence = "seen"): CriterionOutcome => ({ passed: true, evidence, status: "SUCCESS" });
const no = (evidence = "not seen"): CriterionOutcome => ({ passed: false, evidence, status: "SUCCESS" });
const unchecked: CriterionOutcome = { passed: null, evidence: "Nothing to click", status: "NO_TARGET" };

afterEach(() => window.localStorage.clear());

/** `list[i]`, which the test knows is there. */
function at<T>(list: T[], i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`nothing at ${i}`);
  return v;
}

describe("criteria → tasks", () => {
  it("makes one task per non-blank criterion with the exact instruction, URL and schema", () => {
    const stories = acceptanceStories(SOW);
    expect(stories.map((s) => [s.key, s.title, s.criteria.map((c) => c.key)])).toEqual([
      ["0.0", "Sign in", ["0.0#0", "0.0#1"]],
      ["1.0", "Borrow a book", ["1.0#0"]],
    ]);
    expect(storiesWithoutCriteria(SOW)).toBe(1);
    expect(acceptanceTasks(stories, " http://localhost:3000 ")).toEqual([
      {
        criterion: "0.0#0",
        task: { url: "http://localhost:3000", instruction: "Check this on the page: The home page shows a Sign in button (story: Sign in)", output: SCHEMA },
      },
      {
        criterion: "0.0#1",
        task: { url: "http://localhost:3000", instruction: "Check this on the page: A wrong password shows an error message (story: Sign in)", output: SCHEMA },
      },
      {
        criterion: "1.0#0",
        task: { url: "http://localhost:3000", instruction: "Check this on the page: A borrowed book shows who has it (story: Borrow a book)", output: SCHEMA },
      },
    ]);
    expect(ACCEPTANCE_SCHEMA).toEqual(SCHEMA);
  });

  it("gives builder rows that send the same tasks, each row known by its id", () => {
    const { rows, criterionByRow } = acceptanceRows(acceptanceStories(SOW), "https://staging.example.com");
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => rowToTask(r))).toEqual(acceptanceTasks(acceptanceStories(SOW), "https://staging.example.com").map((t) => t.task));
    expect(Object.values(criterionByRow)).toEqual(["0.0#0", "0.0#1", "1.0#0"]);
    // Reordered, one deleted, one added by the user: each task still knows its criterion.
    expect(taskCriteria([at(rows, 2), { id: "mine" }, at(rows, 0)], criterionByRow)).toEqual(["1.0#0", null, "0.0#0"]);
  });

  it("checks the app's address before anything is sent", () => {
    expect(checkAppUrl("http://localhost:3000")).toBeNull();
    expect(checkAppUrl(" https://staging.example.com/app ")).toBeNull();
    expect(checkAppUrl("")).toBe("Enter the address of your running app, for example http://localhost:3000.");
    expect(checkAppUrl("my app")).toBe('"my app" is not a full web address. Write it like http://localhost:3000 or https://staging.example.com.');
    expect(checkAppUrl("ftp://example.com")).toBe("Addresses starting with ftp: cannot be opened by a browser task. Use http:// or https://.");
  });
});

describe("results → verdicts", () => {
  it("reads passed and evidence from each task, and says why when a task gave no answer", () => {
    const tasks = [
      task("SUCCESS", { passed: true, evidence: " Sign in at the top right " }),
      task("SUCCESS", { passed: false, evidence: "No message" }),
      task("NO_TARGET", null, "No Borrow button"),
      task("SUCCESS", { title: "Page" }),
      task("running"),
    ];
    expect(outcomesOf(tasks, ["0.0#0", "0.0#1", "1.0#0", null, "2.0#0"])).toEqual({
      "0.0#0": { passed: true, evidence: "Sign in at the top right", status: "SUCCESS" },
      "0.0#1": { passed: false, evidence: "No message", status: "SUCCESS" },
      "1.0#0": { passed: null, evidence: "Nothing to act on: No Borrow button", status: "NO_TARGET" },
      "2.0#0": { passed: null, evidence: "" },
    });
    expect(outcomesOf([task("SUCCESS", { title: "x" })], ["a"])).toEqual({
      a: { passed: null, evidence: "The agent finished without a yes-or-no answer.", status: "SUCCESS" },
    });
  });

  it("gives each story its verdict: fails on any failure, passes only when all pass", () => {
    const stories = acceptanceStories(SOW);
    const signIn = at(stories, 0);
    const borrow = at(stories, 1);
    const r1 = storyResult(signIn, { "0.0#0": yes(), "0.0#1": no() });
    expect(r1).toEqual({ key: "0.0", verdict: "fails", passed: 1, failed: 1, unchecked: 0, pending: 0, total: 2 });
    expect(storyCount(r1)).toBe("1 of 2 criteria pass");
    expect(storyResult(signIn, { "0.0#0": yes(), "0.0#1": yes() }).verdict).toBe("passes");
    expect(storyResult(signIn, { "0.0#0": yes(), "0.0#1": unchecked }).verdict).toBe("unchecked");
    expect(storyResult(signIn, { "0.0#0": yes(), "0.0#1": { passed: null, evidence: "" } }).verdict).toBe("pending");
    // A criterion left out of the run is not counted.
    const r2 = storyResult(signIn, { "0.0#0": yes() });
    expect([r2.verdict, r2.total, storyCount(r2)]).toEqual(["passes", 1, "1 of 1 criterion passes"]);
    expect(storyResult(borrow, {}).verdict).toBe("unchecked");
    expect(runSummary({ a: yes(), b: no(), c: no(), d: unchecked, e: yes() })).toBe("2 of 5 criteria pass · 2 fail · 1 could not be checked");
    expect(runSummary({ a: yes(), b: { passed: null, evidence: "" } })).toBe("1 of 2 criteria pass · 1 still running");
  });
});

describe("history and what changed", () => {
  it("compares two runs criterion by criterion", () => {
    const older = run("b1", "2026-11-22T09:00:00.000Z", { a: yes(), b: no(), c: yes(), d: no(), e: unchecked });
    const newer = run("b2", "2026-11-22T10:00:00.000Z", { a: yes(), b: yes(), c: no(), d: no(), e: yes(), f: yes() });
    const diff = diffRuns(newer, older);
    expect(diff).toEqual({ a: "unchanged", b: "nowPasses", c: "nowFails", d: "unchanged", e: "nowPasses", f: "new" });
    expect(changeSummary(diff)).toBe("2 now pass, 1 now fails, 2 unchanged, 1 new");
    expect(changeSummary(diffRuns(older, { criteria: { a: yes(), b: yes() } }))).toBe("1 now fails, 1 unchanged, 3 new");
    expect(diffRuns({ criteria: { a: unchecked } }, { criteria: { a: yes() } })).toEqual({ a: "notChecked" });
  });

  it("keeps each spec's runs in localStorage, newest first, replacing a run by its id or job", () => {
    saveRun("spec-1", { ...run("job-7", "2026-11-22T09:00:00.000Z", {}, false), batchId: undefined, jobId: 7 });
    saveRun("spec-1", { ...run("b7", "2026-11-22T09:00:00.000Z", { a: no() }), jobId: 7 });
    saveRun("spec-1", run("b8", "2026-11-22T10:00:00.000Z", { a: yes() }));
    saveRun("spec-2", run("b9", "2026-11-22T11:00:00.000Z", { x: yes() }));
    const runs = loadRuns("spec-1");
    expect(runs.map((r) => [r.id, r.finished])).toEqual([
      ["b8", true],
      ["b7", true],
    ]);
    expect(previousRun(runs, at(runs, 0))?.id).toBe("b7");
    expect(previousRun(runs, at(runs, 1))).toBeUndefined();
    expect(loadRuns("spec-2").map((r) => r.id)).toEqual(["b9"]);
    expect(JSON.parse(window.localStorage.getItem(RUNS_STORAGE_KEY) ?? "{}").version).toBe(1);
    for (let i = 0; i < MAX_RUNS + 3; i++) saveRun("spec-3", run(`r${i}`, new Date(Date.UTC(2026, 0, 1, i)).toISOString(), {}));
    expect(loadRuns("spec-3")).toHaveLength(MAX_RUNS);
    expect(loadRuns("spec-3")[0]?.id).toBe(`r${MAX_RUNS + 2}`);
  });

  it("marks the scope with the newest finished run and its changes", () => {
    const older = run("b1", "2026-11-22T09:00:00.000Z", { "0.0#0": yes(), "0.0#1": no(), "1.0#0": no() });
    const newer = run("b2", "2026-11-22T10:00:00.000Z", { "0.0#0": yes(), "0.0#1": yes(), "1.0#0": no() });
    const pending = run("b3", "2026-11-22T11:00:00.000Z", {}, false);
    const marks = scopeMarks(SOW, [pending, newer, older]);
    expect(marks?.run.id).toBe("b2");
    expect(Object.fromEntries(Object.entries(marks?.stories ?? {}).map(([k, r]) => [k, r.verdict]))).toEqual({ "0.0": "passes", "1.0": "fails" });
    expect(marks?.changes).toEqual({ "0.0#0": "unchanged", "0.0#1": "nowPasses", "1.0#0": "unchanged" });
    expect(scopeMarks(SOW, [pending])).toBeNull();
  });
});
