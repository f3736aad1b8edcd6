// Which plan to open, checked before it is asked for, and the plans opened recently.
import type { PlanTarget } from "../../ipc/contract";
import { loadJson, saveJson } from "../../lib/storage";

export const PROJECT_ID_MESSAGE = "A project id is 24 characters, each a digit 0–9 or a letter a–f.";

/** Null when `raw` is a 24-hex-character id; else the message to show. */
export function checkHexId(raw: string): string | null {
  const v = raw.trim();
  if (!v) return "Enter the project id to open its plan.";
  return /^[0-9a-fA-F]{24}$/.test(v) ? null : PROJECT_ID_MESSAGE;
}

export function targetKey(t: PlanTarget): string {
  return t.specId ? `spec:${t.specId}` : `project:${t.projectId ?? ""}`;
}

export function sameTarget(a: PlanTarget | undefined, b: PlanTarget | undefined): boolean {
  return !!a && !!b && targetKey(a) === targetKey(b);
}

export interface RecentPlan {
  target: PlanTarget;
  name: string | null;
  projectId: string;
  openedAt: string;
}

const RECENT_KEY = "specdesk.plans.recent";
const RECENT_MAX = 8;

function isRecentList(v: unknown): v is RecentPlan[] {
  return Array.isArray(v) && v.every((x) => x && typeof x === "object" && "target" in x && "projectId" in x);
}

export function loadRecent(): RecentPlan[] {
  return loadJson(RECENT_KEY, isRecentList) ?? [];
}

/** Puts a plan first in the recent list (one entry per project). */
export function rememberPlan(entry: RecentPlan): RecentPlan[] {
  const list = [entry, ...loadRecent().filter((r) => r.projectId !== entry.projectId)].slice(0, RECENT_MAX);
  saveJson(RECENT_KEY, list);
  return list;
}
