// Above a batch's task list: a search over the tasks' URL, instruction, page title and error, and
// how many tasks the list shows of how many (said politely when it changes), with Show every task
// while a filter narrows it.
import { useId, useState } from "react";
import { plural } from "../../../lib/format";
import { phaseInfo } from "./statuses";
import type { TaskFilter } from "./taskFilter";

/** "50 of 1,000 tasks: did not succeed, matching “cart”". */
export function shownSentence(shown: number, total: number, filter: TaskFilter): string {
  if (shown === total && !filter.status && !filter.q) return `${plural(total, "task")}`;
  const why = [
    filter.status === "failed" ? "did not succeed" : filter.status ? phaseInfo(filter.status).label.toLowerCase() : "",
    filter.q ? `matching “${filter.q}”` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `${shown.toLocaleString("en-US")} of ${plural(total, "task")}${why ? `: ${why}` : ""}`;
}

export function TaskFilterBar({
  filter,
  shown,
  total,
  onFilter,
}: {
  filter: TaskFilter;
  shown: number;
  total: number;
  onFilter: (f: TaskFilter) => void;
}) {
  const id = useId();
  // What is typed, spaces and all; the address keeps it trimmed (and is followed when it changes
  // by itself: Back, a link).
  const q = filter.q ?? "";
  const [text, setText] = useState(q);
  const [seen, setSeen] = useState(q);
  if (q !== seen) {
    setSeen(q);
    if (text.trim() !== q) setText(q);
  }
  const narrowed = !!filter.status || !!filter.q;
  return (
    <div className="task-filter">
      <label className="visually-hidden" htmlFor={`${id}-q`}>
        Search tasks
      </label>
      <input
        id={`${id}-q`}
        className="input"
        type="search"
        placeholder="Search URL, instruction or error"
        value={text}
        maxLength={200}
        onChange={(e) => {
          setText(e.target.value);
          onFilter({ ...filter, q: e.target.value.trim() || undefined });
        }}
      />
      <p className="muted task-filter-count" aria-live="polite">
        {shownSentence(shown, total, filter)}
      </p>
      {narrowed && (
        <button className="btn btn-ghost" type="button" onClick={() => onFilter({})}>
          Show every task
        </button>
      )}
    </div>
  );
}
