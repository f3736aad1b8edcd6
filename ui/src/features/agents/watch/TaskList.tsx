// A batch's tasks as a virtualized list: number, status chip, URL, an excerpt of the instruction,
// duration and credits. Rows are memoized on their task, so a frame re-renders only the tasks
// it touched (smooth with 1000 tasks and thousands of events a second).
import { memo } from "react";
import { formatCredits, formatDuration } from "../../../lib/format";
import type { TaskView } from "./reducer";
import { StatusChip } from "./StatusChip";
import { VirtualListbox } from "./VirtualListbox";

export const TASK_ROW_HEIGHT = 60;

/** The first `max` characters of an instruction, on one line. */
export function excerpt(text: string | undefined, max = 90): string {
  if (!text) return "";
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

/** A task's credits, short for its row: "0.1 cr"; "—" when not known yet. */
export function taskCredits(n: number | undefined): string {
  return n === undefined ? "—" : `${formatCredits(n)} cr`;
}

const TaskRow = memo(function TaskRow({ task }: { task: TaskView }) {
  const instruction = excerpt(task.instruction ?? task.title);
  return (
    <div className="task-row">
      <span className="task-row-num">{task.index + 1}</span>
      <StatusChip phase={task.phase} />
      <span className="task-row-main">
        <span className="task-row-url mono">{task.url ?? "Not started yet"}</span>
        {instruction && <span className="task-row-text">{instruction}</span>}
      </span>
      <span className="task-row-facts">
        <span>{task.durationMs !== undefined ? formatDuration(task.durationMs) : "—"}</span>
        <span>{taskCredits(task.creditsUsed)}</span>
      </span>
    </div>
  );
});

/** The list of the tasks `shown` (indices into `tasks`, as the filter kept them); `selected` and
 * `onSelect` speak of a task's index in the batch. */
export function TaskList({
  idPrefix,
  tasks,
  shown,
  selected,
  onSelect,
}: {
  idPrefix: string;
  tasks: TaskView[];
  shown: readonly number[];
  selected: number | null;
  onSelect: (index: number) => void;
}) {
  if (tasks.length === 0) return <p className="empty">No task has reported yet.</p>;
  if (shown.length === 0) return <p className="empty">No task matches. Choose another status or search, or Show every task.</p>;
  const at = selected === null ? -1 : shown.indexOf(selected);
  return (
    <VirtualListbox
      idPrefix={idPrefix}
      label="Tasks"
      className="task-list"
      count={shown.length}
      selected={at === -1 ? null : at}
      onSelect={(position) => {
        const index = shown[position];
        if (index !== undefined) onSelect(index);
      }}
      estimateSize={TASK_ROW_HEIGHT}
      renderOption={(position) => {
        const t = tasks[shown[position] ?? -1];
        return t ? <TaskRow task={t} /> : null;
      }}
    />
  );
}
