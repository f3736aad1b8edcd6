// What the capacity snapshot means for the user's wait, in one plain sentence.
import type { CapacitySnapshot } from "../../../bindings/CapacitySnapshot";

function seconds(ms: number): number {
  return Math.max(1, Math.round(ms / 1000));
}

/** Whole percent of utilization (0–100), clamped. */
export function utilizationPercent(s: CapacitySnapshot): number {
  const u = Number.isFinite(s.utilization) ? s.utilization : 0;
  return Math.round(Math.min(1, Math.max(0, u)) * 100);
}

export function waitSentence(s: CapacitySnapshot): string {
  const full = s.utilization >= 1 || (s.maxSandboxes > 0 && s.totalActive >= s.maxSandboxes);
  if (full && s.pending > 0) return `All workers are busy; a new task waits about ${seconds(s.oldestQueuedAgeMs)} s to start.`;
  if (full) return "All workers are busy; a new task starts as soon as one finishes.";
  if (s.pending > 0) {
    return `${s.pending.toLocaleString("en-US")} ${s.pending === 1 ? "task is" : "tasks are"} queued; a new task waits about ${seconds(s.oldestQueuedAgeMs)} s to start.`;
  }
  if (s.utilization >= 0.8) return "Workers are nearly all busy; a new task should start within a few seconds.";
  return "Workers are free; a new task starts right away.";
}
