// Which of a batch's tasks the list shows: a status (or every task that did not succeed) and a
// search over each task's URL, instruction, page title and error. Pure: tested in
// taskFilter.test.ts; the filter lives in the batch's address (`?status=…&q=…`).
import type { TaskView } from "./reducer";
import type { TaskPhase } from "./statuses";

/** "failed": every task that did not succeed (once the batch ended, one that never reported too). */
export type StatusFilter = TaskPhase | "failed";

export interface TaskFilter {
  status?: StatusFilter;
  q?: string;
}

/** Whether a filter narrows the list at all. */
export function isFiltered(f: TaskFilter): boolean {
  return f.status !== undefined || (f.q ?? "").trim() !== "";
}

function statusMatches(task: TaskView, status: StatusFilter | undefined, finished: boolean): boolean {
  if (status === undefined) return true;
  if (status === "failed") return task.phase !== "SUCCESS" && (finished || (task.phase !== "queued" && task.phase !== "running"));
  return task.phase === status;
}

/** The words of a search, lower case: a task matches when each is in one of its texts. */
function words(q: string | undefined): string[] {
  return (q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

function textMatches(task: TaskView, wanted: string[]): boolean {
  if (wanted.length === 0) return true;
  const text = [task.url, task.instruction, task.title, task.error].filter(Boolean).join("\n").toLowerCase();
  return wanted.every((w) => text.includes(w));
}

/** The indices of the tasks `filter` keeps, in the batch's order. */
export function filterTasks(tasks: readonly TaskView[], filter: TaskFilter, finished: boolean): number[] {
  const wanted = words(filter.q);
  const kept: number[] = [];
  for (const task of tasks) {
    if (statusMatches(task, filter.status, finished) && textMatches(task, wanted)) kept.push(task.index);
  }
  return kept;
}

/** How many tasks did not succeed, as the "Did not succeed" chip counts them. */
export function notSucceeded(tasks: readonly TaskView[], finished: boolean): number {
  return tasks.reduce((n, t) => n + (statusMatches(t, "failed", finished) ? 1 : 0), 0);
}
