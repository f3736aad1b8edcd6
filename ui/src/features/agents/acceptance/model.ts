// An acceptance run: a spec's stories checked on the user's running app. Each acceptance
// criterion of each story becomes one browser task (the app's URL, an instruction built from the
// criterion and its story, an output schema asking for `passed` and `evidence`); each task's
// result becomes the criterion's verdict, and a story passes when all of its criteria do. Runs
// are kept per spec in localStorage (verdicts and evidence only, never screenshots), so a later
// run says which criteria changed.
import type { BrowserTask } from "../../../ipc/contract";
import type { ScopeOfWork } from "../../../bindings/ScopeOfWork";
import type { JsonValue } from "../../../bindings/serde_json/JsonValue";
import { loadJson, saveJson } from "../../../lib/storage";
import { taskToRow, type TaskRow } from "../builder/model";
import type { TaskView } from "../watch/reducer";
import { statusInfo } from "../watch/statuses";

/** The output every acceptance task asks the agent for. */
export const ACCEPTANCE_SCHEMA = {
  type: "object",
  properties: { passed: { type: "boolean" }, evidence: { type: "string" } },
  required: ["passed", "evidence"],
} as const;

/** One acceptance criterion of one story. */
export interface Criterion {
  /** `<story key>#<criterion index>`, the story key as the scope explorer's ("0.1"). */
  key: string;
  storyKey: string;
  index: number;
  text: string;
  storyTitle: string;
}

/** A story that has acceptance criteria. */
export interface AcceptanceStory {
  /** "milestone index.story index", as the scope explorer keys its stories. */
  key: string;
  id?: string;
  title: string;
  milestone: number;
  criteria: Criterion[];
}

export function criterionKey(storyKey: string, index: number): string {
  return `${storyKey}#${index}`;
}

/** The stories of the scope of work with at least one (non-blank) acceptance criterion, in order. */
export function acceptanceStories(sow: ScopeOfWork): AcceptanceStory[] {
  const out: AcceptanceStory[] = [];
  sow.milestones.forEach((m, mi) =>
    m.stories.forEach((s, si) => {
      const storyKey = `${mi}.${si}`;
      const criteria: Criterion[] = [];
      (s.acceptanceCriteria ?? []).forEach((c, ci) => {
        const text = c.trim();
        if (text) criteria.push({ key: criterionKey(storyKey, ci), storyKey, index: ci, text, storyTitle: s.title.trim() });
      });
      if (criteria.length > 0) out.push({ key: storyKey, id: s.id, title: s.title.trim(), milestone: m.milestoneNumber, criteria });
    }),
  );
  return out;
}

/** Stories of the scope of work without any acceptance criterion (nothing to check for them). */
export function storiesWithoutCriteria(sow: ScopeOfWork): number {
  let n = 0;
  for (const m of sow.milestones) for (const s of m.stories) if (!(s.acceptanceCriteria ?? []).some((c) => c.trim())) n++;
  return n;
}

/** The instruction of a criterion's task. */
export function instructionFor(c: Pick<Criterion, "text" | "storyTitle">): string {
  return `Check this on the page: ${c.text} (story: ${c.storyTitle})`;
}

/** The browser task that checks one criterion on the app at `url`. */
export function criterionTask(c: Criterion, url: string): BrowserTask {
  return { url: url.trim(), instruction: instructionFor(c), output: structuredClone(ACCEPTANCE_SCHEMA) as unknown as JsonValue };
}

/** One task per criterion, in the order of the stories. */
export function acceptanceTasks(stories: AcceptanceStory[], url: string): { criterion: string; task: BrowserTask }[] {
  return stories.flatMap((s) => s.criteria.map((c) => ({ criterion: c.key, task: criterionTask(c, url) })));
}

/** The builder's rows for these tasks, and which criterion each row checks (by row id). */
export function acceptanceRows(stories: AcceptanceStory[], url: string): { rows: TaskRow[]; criterionByRow: Record<string, string> } {
  const rows: TaskRow[] = [];
  const criterionByRow: Record<string, string> = {};
  for (const { criterion, task } of acceptanceTasks(stories, url)) {
    const row = taskToRow(task);
    rows.push(row);
    criterionByRow[row.id] = criterion;
  }
  return { rows, criterionByRow };
}

/** Which criterion each task of the batch sent checks (null: a task the user added). */
export function taskCriteria(sentRows: Pick<TaskRow, "id">[], criterionByRow: Record<string, string>): (string | null)[] {
  return sentRows.map((r) => criterionByRow[r.id] ?? null);
}

// ---- The app's address ----

/** Null when `raw` is an absolute http(s) address of the running app, else the message to show. */
export function checkAppUrl(raw: string): string | null {
  const value = raw.trim();
  if (!value) return "Enter the address of your running app, for example http://localhost:3000.";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a full web address. Write it like http://localhost:3000 or https://staging.example.com.`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `Addresses starting with ${url.protocol} cannot be opened by a browser task. Use http:// or https://.`;
  }
  if (!url.hostname) return `"${value}" has no host name. Write it like http://localhost:3000.`;
  return null;
}

// ---- Verdicts ----

/** A criterion's verdict: its task said yes or no, could not say, or has not finished. */
export type Verdict = "passed" | "failed" | "unchecked" | "pending";

export interface CriterionOutcome {
  /** The agent's answer; null when the task gave none (or has not finished). */
  passed: boolean | null;
  evidence: string;
  /** The task's status (`SUCCESS`, `NO_TARGET`...), once finished. */
  status?: string;
}

export function verdictOf(o: CriterionOutcome | undefined): Verdict {
  if (!o) return "pending";
  if (o.passed === true) return "passed";
  if (o.passed === false) return "failed";
  return o.status ? "unchecked" : "pending";
}

function isRecord(v: unknown): v is Record<string, JsonValue> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** A task's outcome as a criterion's: the agent's `passed` and `evidence`, or why there is none. */
export function outcomeOf(task: Pick<TaskView, "phase" | "data" | "error"> | undefined): CriterionOutcome {
  if (!task || task.phase === "queued" || task.phase === "running") return { passed: null, evidence: "" };
  const status = task.phase;
  if (status === "SUCCESS") {
    const d = task.data;
    if (isRecord(d) && typeof d.passed === "boolean") {
      return { passed: d.passed, evidence: typeof d.evidence === "string" ? d.evidence.trim() : "", status };
    }
    return { passed: null, evidence: "The agent finished without a yes-or-no answer.", status };
  }
  const label = statusInfo(status).label;
  return { passed: null, evidence: task.error ? `${label}: ${task.error}` : `${label}. ${statusInfo(status).meaning}`, status };
}

/** Each criterion's outcome from the batch's tasks (`tasks[i]` checks `criteria[i]`). */
export function outcomesOf(tasks: TaskView[], criteria: (string | null)[]): Record<string, CriterionOutcome> {
  const out: Record<string, CriterionOutcome> = {};
  criteria.forEach((key, i) => {
    if (key !== null) out[key] = outcomeOf(tasks[i]);
  });
  return out;
}

export type StoryVerdict = "passes" | "fails" | "unchecked" | "pending";

export interface StoryResult {
  key: string;
  verdict: StoryVerdict;
  passed: number;
  failed: number;
  unchecked: number;
  pending: number;
  /** Criteria of the story that were part of the run. */
  total: number;
}

/**
 * A story's verdict: fails when any criterion fails; else waits while any is pending; else
 * "unchecked" when any could not be checked; passes when every criterion passed. Criteria left
 * out of the run (a row deleted before running) are not counted.
 */
export function storyResult(story: AcceptanceStory, outcomes: Record<string, CriterionOutcome>): StoryResult {
  const r: StoryResult = { key: story.key, verdict: "passes", passed: 0, failed: 0, unchecked: 0, pending: 0, total: 0 };
  for (const c of story.criteria) {
    if (!(c.key in outcomes)) continue;
    r.total++;
    const v = verdictOf(outcomes[c.key]);
    if (v === "passed") r.passed++;
    else if (v === "failed") r.failed++;
    else if (v === "unchecked") r.unchecked++;
    else r.pending++;
  }
  r.verdict = r.failed > 0 ? "fails" : r.pending > 0 ? "pending" : r.unchecked > 0 || r.total === 0 ? "unchecked" : "passes";
  return r;
}

export const STORY_WORDS: Record<StoryVerdict, string> = {
  passes: "Passes",
  fails: "Fails",
  unchecked: "Not checked",
  pending: "Checking…",
};

export const VERDICT_WORDS: Record<Verdict, string> = {
  passed: "Passed",
  failed: "Failed",
  unchecked: "Could not check",
  pending: "Checking…",
};

/** "2 of 3 criteria pass". */
export function storyCount(r: StoryResult): string {
  return `${r.passed} of ${r.total} ${r.total === 1 ? "criterion passes" : "criteria pass"}`;
}

// ---- History ----

export interface AcceptanceRun {
  /** The batch id once the service named it, else `job-<job id>`. */
  id: string;
  batchId?: string;
  jobId?: number;
  /** When it was sent (ISO). */
  at: string;
  url: string;
  /** Tasks in the batch. */
  total: number;
  /** The criterion each task checks, by task index (null: a task the user added). */
  tasks: (string | null)[];
  /** Each criterion's outcome (only once finished). */
  criteria: Record<string, CriterionOutcome>;
  finished: boolean;
}

export const RUNS_STORAGE_KEY = "specdesk.acceptance.runs";
/** Runs kept per spec (the oldest are dropped). */
export const MAX_RUNS = 20;

interface StoredRuns {
  version: 1;
  specs: Record<string, AcceptanceRun[]>;
}

function isStoredRuns(v: unknown): v is StoredRuns {
  return isRecord(v) && v.version === 1 && isRecord(v.specs);
}

function isRun(v: unknown): v is AcceptanceRun {
  return (
    isRecord(v) &&
    typeof v.id === "string" &&
    typeof v.at === "string" &&
    typeof v.url === "string" &&
    typeof v.finished === "boolean" &&
    Array.isArray(v.tasks) &&
    isRecord(v.criteria)
  );
}

function loadAll(): StoredRuns {
  return loadJson(RUNS_STORAGE_KEY, isStoredRuns) ?? { version: 1, specs: {} };
}

/** A spec's runs, newest first. */
export function loadRuns(specId: string): AcceptanceRun[] {
  const list = loadAll().specs[specId];
  return Array.isArray(list) ? list.filter(isRun).sort((a, b) => b.at.localeCompare(a.at)) : [];
}

/** Adds a run, or replaces the one with the same id (or the same job); keeps the newest MAX_RUNS. */
export function saveRun(specId: string, run: AcceptanceRun): AcceptanceRun[] {
  const all = loadAll();
  const same = (r: AcceptanceRun) => r.id === run.id || (run.jobId !== undefined && r.jobId === run.jobId);
  const runs = [run, ...loadRuns(specId).filter((r) => !same(r))].sort((a, b) => b.at.localeCompare(a.at)).slice(0, MAX_RUNS);
  saveJson(RUNS_STORAGE_KEY, { ...all, specs: { ...all.specs, [specId]: runs } });
  return runs;
}

/** The newest finished run. */
export function latestFinished(runs: AcceptanceRun[]): AcceptanceRun | undefined {
  return runs.find((r) => r.finished);
}

/** The finished run before `run` (runs newest first). */
export function previousRun(runs: AcceptanceRun[], run: AcceptanceRun): AcceptanceRun | undefined {
  const i = runs.findIndex((r) => r.id === run.id);
  return runs.slice(i < 0 ? 0 : i + 1).find((r) => r.finished && r.id !== run.id && r.at <= run.at);
}

// ---- What changed ----

export type Change = "nowPasses" | "nowFails" | "unchanged" | "notChecked" | "new";

export const CHANGE_WORDS: Record<Change, string> = {
  nowPasses: "Now passes",
  nowFails: "Now fails",
  unchanged: "Unchanged",
  notChecked: "Not checked this time",
  new: "New",
};

/** How a criterion's outcome compares with the previous run's. */
export function changeOf(now: CriterionOutcome | undefined, before: CriterionOutcome | undefined): Change {
  if (!before || (before.passed === null && !before.status)) return "new";
  const n = now?.passed ?? null;
  if (n === before.passed) return "unchanged";
  if (n === true) return "nowPasses";
  if (n === false) return "nowFails";
  return "notChecked";
}

/** Each criterion of `newer` compared with `older`. */
export function diffRuns(newer: Pick<AcceptanceRun, "criteria">, older: Pick<AcceptanceRun, "criteria">): Record<string, Change> {
  const out: Record<string, Change> = {};
  for (const [key, o] of Object.entries(newer.criteria)) out[key] = changeOf(o, older.criteria[key]);
  return out;
}

const CHANGE_COUNT: Record<Change, [string, string]> = {
  nowPasses: ["now passes", "now pass"],
  nowFails: ["now fails", "now fail"],
  unchanged: ["unchanged", "unchanged"],
  notChecked: ["not checked this time", "not checked this time"],
  new: ["new", "new"],
};

/** "2 now pass, 1 now fails, 2 unchanged" (kinds with none left out). */
export function changeSummary(diff: Record<string, Change>): string {
  const counts = new Map<Change, number>();
  for (const c of Object.values(diff)) counts.set(c, (counts.get(c) ?? 0) + 1);
  const order: Change[] = ["nowPasses", "nowFails", "unchanged", "notChecked", "new"];
  const parts = order.flatMap((c) => {
    const n = counts.get(c) ?? 0;
    return n > 0 ? [`${n} ${CHANGE_COUNT[c][n === 1 ? 0 : 1]}`] : [];
  });
  return parts.join(", ");
}

/** The totals of a run: "3 of 5 criteria pass · 1 fails · 1 could not be checked". */
export function runSummary(outcomes: Record<string, CriterionOutcome>): string {
  let passed = 0;
  let failed = 0;
  let unchecked = 0;
  let pending = 0;
  const total = Object.keys(outcomes).length;
  for (const o of Object.values(outcomes)) {
    const v = verdictOf(o);
    if (v === "passed") passed++;
    else if (v === "failed") failed++;
    else if (v === "unchecked") unchecked++;
    else pending++;
  }
  const parts = [`${passed} of ${total} ${total === 1 ? "criterion passes" : "criteria pass"}`];
  if (failed) parts.push(`${failed} ${failed === 1 ? "fails" : "fail"}`);
  if (unchecked) parts.push(`${unchecked} could not be checked`);
  if (pending) parts.push(`${pending} still running`);
  return parts.join(" · ");
}

/** What the spec's scope shows for a finished run: each story's and each criterion's result. */
export interface ScopeMarks {
  run: AcceptanceRun;
  stories: Record<string, StoryResult>;
  changes: Record<string, Change> | null;
}

export function scopeMarks(sow: ScopeOfWork, runs: AcceptanceRun[]): ScopeMarks | null {
  const run = latestFinished(runs);
  if (!run) return null;
  const stories: Record<string, StoryResult> = {};
  for (const s of acceptanceStories(sow)) {
    const r = storyResult(s, run.criteria);
    if (r.total > 0) stories[s.key] = r;
  }
  const prev = previousRun(runs, run);
  return { run, stories, changes: prev ? diffRuns(run, prev) : null };
}
