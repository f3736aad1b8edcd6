// A task's timeline in words, as the trace viewer lists actions: each step's title, its details
// and its time from the task's first event; and how steps and screenshots select each other.
import { formatDuration } from "../../../lib/format";
import type { Step, TaskView } from "./reducer";
import { statusInfo } from "./statuses";

export interface StepText {
  /** Short kind, e.g. "Navigation". */
  title: string;
  /** The one-line detail: the page title, the plan's notes, the waiting's reason... */
  detail: string;
  /** Further lines (a plan's actions). */
  more: string[];
  /** "ok", "bad" or "info", for the icon beside the step. */
  tone: "ok" | "bad" | "info";
}

const SANDBOX_WORDS: Record<string, string> = {
  starting: "Starting a browser",
  starting_local: "Starting a local browser",
  ready: "Browser ready",
  running: "Browser running",
  stopped: "Browser stopped",
};

function actionLine(a: { type?: string; selector?: string; value?: string }): string {
  const what = a.type ?? "action";
  const on = a.selector ? ` ${a.selector}` : "";
  // Rust blanks every typed value before it reaches the window (they may be input values, which
  // are secrets): a blank one was typed, and is not shown.
  const val = a.value === undefined ? "" : a.value === "" ? " with a value not shown here" : ` with “${a.value}”`;
  return `${what}${on}${val}`;
}

/** The words of one step. */
export function describeStep(step: Step, task: Pick<TaskView, "shots">): StepText {
  if (step.kind === "shot") {
    const shot = task.shots[step.shot];
    return { title: "Screenshot", detail: shot?.url ?? "", more: [], tone: "info" };
  }
  const e = step.event;
  switch (e.type) {
    case "sandbox":
      return { title: "Browser", detail: SANDBOX_WORDS[e.status] ?? e.status, more: [], tone: "info" };
    case "navigation":
      return { title: "Navigation", detail: e.title ? `${e.title} — ${e.url}` : e.url, more: [], tone: "info" };
    case "plan": {
      const notes = e.notes ?? (e.done ? "The agent considers the goal reached." : "");
      const more = e.actions.map(actionLine);
      if (e.captchaDetected) more.push("A CAPTCHA was detected on the page.");
      return { title: e.done ? "Plan (finishing)" : "Plan", detail: notes || `${e.actions.length} ${e.actions.length === 1 ? "action" : "actions"}`, more, tone: "info" };
    }
    case "action": {
      const what = [e.actionType ?? "action", e.selector].filter(Boolean).join(" ");
      return { title: e.success ? "Action" : "Action failed", detail: e.message ? `${what}: ${e.message}` : what, more: [], tone: e.success ? "ok" : "bad" };
    }
    case "waiting":
      return { title: "Waiting", detail: e.reason, more: [], tone: "info" };
    case "validation":
      return {
        title: "Validation",
        detail: e.ok ? "The data matches the output schema." : "The data does not match the output schema.",
        more: [],
        tone: e.ok ? "ok" : "bad",
      };
    case "done": {
      const info = statusInfo(e.status);
      const took = e.durationMs !== undefined ? ` after ${formatDuration(e.durationMs)}` : "";
      return { title: "Done", detail: `${info.label}${took}`, more: [], tone: e.status === "SUCCESS" ? "ok" : "bad" };
    }
    case "error": {
      const info = statusInfo(e.status);
      const took = e.durationMs !== undefined ? ` after ${formatDuration(e.durationMs)}` : "";
      return { title: "Error", detail: `${info.label}${took}${e.error ? `: ${e.error}` : ""}`, more: [], tone: "bad" };
    }
    default: {
      const type = (e as { type?: unknown }).type;
      return { title: "Other event", detail: typeof type === "string" ? type : "", more: [], tone: "info" };
    }
  }
}

/** A step's time from the task's first event: "+0.0 s", "+12.4 s", "+2 min 3 s"; "" when unknown. */
export function stepTime(at: number | undefined, firstAt: number | undefined): string {
  if (at === undefined || firstAt === undefined) return "";
  const ms = Math.max(0, at - firstAt);
  if (ms < 60_000) return `+${(ms / 1000).toFixed(1)} s`;
  return `+${formatDuration(ms)}`;
}

/** The screenshot to show for a step: the last one taken at or before it, or null. */
export function shotForStep(task: Pick<TaskView, "shots">, step: number): number | null {
  let found: number | null = null;
  for (let i = 0; i < task.shots.length; i++) {
    const s = task.shots[i];
    if (s && s.step <= step) found = i;
    else break;
  }
  return found;
}
