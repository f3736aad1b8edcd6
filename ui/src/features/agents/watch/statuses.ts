// What each task status of the spec means and what to try, shown with its own label and icon
// (never colour alone). Typed over the statuses the service documents: a missing one is a type
// error. A status this version does not know is shown as sent, with a neutral sentence.
import type { TaskStatus } from "../../../bindings/TaskStatus";

/** The documented task statuses (TaskStatus without its open `string & {}` arm). */
export type KnownTaskStatus = TaskStatus extends infer S ? (S extends string ? (string extends S ? never : S) : never) : never;

/** Icons of StatusChip (inline SVG: no font needed). */
export type StatusIcon = "check" | "cross" | "clock" | "blocked" | "warning" | "loop" | "empty" | "dots" | "play" | "question";

/** How a status is drawn: its tone (colour) and an icon that says the same without colour. */
export type StatusTone = "success" | "danger" | "warning" | "neutral" | "info";

export interface StatusInfo {
  /** Short label for a chip: "Succeeded". */
  label: string;
  /** The icon drawn before the label (StatusChip): the chip means the same in greyscale. */
  icon: StatusIcon;
  tone: StatusTone;
  /** One sentence: what happened and what to try. */
  meaning: string;
}

export const TASK_STATUSES: Record<KnownTaskStatus, StatusInfo> = {
  SUCCESS: {
    label: "Succeeded",
    icon: "check",
    tone: "success",
    meaning: "The agent reached the goal and its data passed the checks; nothing to do.",
  },
  ERROR: {
    label: "Error",
    icon: "cross",
    tone: "danger",
    meaning: "The page could not be used (it did not load, or answered with an error); check the URL opens in your browser, then run the task again.",
  },
  TIMEOUT: {
    label: "Timed out",
    icon: "clock",
    tone: "warning",
    meaning: "The task ran out of time before reaching its goal; give it a longer timeout or more steps, or split the instruction into smaller tasks.",
  },
  BLOCKED: {
    label: "Blocked",
    icon: "blocked",
    tone: "danger",
    meaning: "The site refused the agent (a bot wall or an access rule); try a page that does not need a login or bot check, or run it at a quieter time.",
  },
  CAPTCHA_FAILED: {
    label: "CAPTCHA not solved",
    icon: "warning",
    tone: "warning",
    meaning: "The site showed a CAPTCHA the agent could not solve; start from a page past the CAPTCHA, or check the page by hand.",
  },
  LOOP: {
    label: "Stuck in a loop",
    icon: "loop",
    tone: "warning",
    meaning: "The agent kept repeating the same steps without progress; make the instruction more specific (which button, which field) or lower the step limit.",
  },
  NO_TARGET: {
    label: "Nothing to act on",
    icon: "empty",
    tone: "neutral",
    meaning: "The agent could not find what the instruction asks for on the page; check the instruction matches the page, or start from the page that has it.",
  },
};

/** The documented statuses in the order they are listed (success first). */
export const KNOWN_STATUSES = Object.keys(TASK_STATUSES) as KnownTaskStatus[];

/** Whether a status is documented. */
export function isKnownStatus(status: string): status is KnownTaskStatus {
  return Object.prototype.hasOwnProperty.call(TASK_STATUSES, status);
}

/** A status's label, icon, tone and sentence; an unknown status keeps its name. */
export function statusInfo(status: TaskStatus): StatusInfo {
  if (isKnownStatus(status)) return TASK_STATUSES[status];
  return {
    label: status,
    icon: "question",
    tone: "neutral",
    meaning: "The service reported a status this version of Specdesk does not know; open the task's timeline to see what happened.",
  };
}

/** Where a task is: not started, running, or a final status. */
export type TaskPhase = "queued" | "running" | TaskStatus;

/** Label and icon of the two phases before a final status. */
export const PHASES: Record<"queued" | "running", StatusInfo> = {
  queued: { label: "Queued", icon: "dots", tone: "neutral", meaning: "Waiting for a free browser to start." },
  running: { label: "Running", icon: "play", tone: "info", meaning: "A browser is working on this task now." },
};

export function phaseInfo(phase: TaskPhase): StatusInfo {
  if (phase === "queued" || phase === "running") return PHASES[phase as "queued" | "running"];
  return statusInfo(phase);
}
