// Which plan to open, checked before it is asked for.
import type { PlanTarget } from "../../ipc/contract";

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
