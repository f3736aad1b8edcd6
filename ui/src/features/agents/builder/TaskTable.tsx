// The task table: one line per task (start URL, instruction, a summary of its details, and the
// row's actions: details, move up/down, duplicate, delete), with the task's details under its
// line when open. Errors sit beside their field; a closed row with a problem in its details
// opens by itself.
import { DETAIL_CELLS, type Cell, type TaskRow } from "./model";
import type { RowProblems } from "./checks";
import { cellId, errorId } from "./ids";
import { TaskDetails } from "./TaskDetails";

export interface RowActions {
  change: (rowId: string, patch: Partial<TaskRow>) => void;
  move: (rowId: string, by: -1 | 1) => void;
  duplicate: (rowId: string) => void;
  remove: (rowId: string) => void;
  toggle: (rowId: string) => void;
}

function summary(r: TaskRow): string {
  const parts: string[] = [];
  const named = r.inputs.filter((p) => p.name.trim()).length;
  if (named) parts.push(named === 1 ? "1 input" : `${named} inputs`);
  if (r.output.trim()) parts.push("schema");
  if (r.successCondition.trim()) parts.push("success condition");
  if (r.timeoutMs.trim() || r.maxSteps.trim() || r.maxDurationSeconds.trim()) parts.push("limits");
  if (r.mode.trim()) parts.push(`mode ${r.mode.trim()}`);
  return parts.length ? parts.join(", ") : "Defaults";
}

export function hasDetailProblem(p: RowProblems | undefined): boolean {
  return !!p && (Object.keys(p) as Cell[]).some((c) => DETAIL_CELLS.has(c));
}

export function TaskTable({
  rows,
  start,
  total,
  problems,
  open,
  actions,
}: {
  /** The rows of this page. */
  rows: TaskRow[];
  /** Index of the first of them in the draft. */
  start: number;
  total: number;
  problems: Record<string, RowProblems>;
  open: ReadonlySet<string>;
  actions: RowActions;
}) {
  return (
    <div className="table-wrap">
      <table className="data-table task-table">
        <caption className="visually-hidden">Tasks of the batch</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Start URL</th>
            <th scope="col">Instruction</th>
            <th scope="col">Details</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, k) => {
            const index = start + k;
            const n = index + 1;
            const p = problems[r.id] ?? {};
            const detailsOpen = open.has(r.id) || hasDetailProblem(p);
            const bad = Object.keys(p).length > 0;
            const described = (cell: Cell) => (p[cell] ? errorId(r.id, cell) : undefined);
            return [
              <tr key={r.id} className="task-line" data-bad={bad}>
                <th scope="row" className="num task-number">
                  {n}
                </th>
                <td className="task-url">
                  <input
                    id={cellId(r.id, "url")}
                    className="input mono"
                    value={r.url}
                    placeholder="https://example.com"
                    aria-label={`Task ${n} start URL`}
                    aria-invalid={!!p.url}
                    aria-describedby={described("url")}
                    onChange={(e) => actions.change(r.id, { url: e.target.value })}
                    autoComplete="off"
                    spellCheck={false}
                  />
                  {p.url && (
                    <span className="error-text" id={errorId(r.id, "url")}>
                      {p.url}
                    </span>
                  )}
                </td>
                <td className="task-instruction">
                  <textarea
                    id={cellId(r.id, "instruction")}
                    className="textarea"
                    rows={2}
                    value={r.instruction}
                    placeholder="What the agent should do there"
                    aria-label={`Task ${n} instruction`}
                    aria-invalid={!!p.instruction}
                    aria-describedby={described("instruction")}
                    onChange={(e) => actions.change(r.id, { instruction: e.target.value })}
                  />
                  {p.instruction && (
                    <span className="error-text" id={errorId(r.id, "instruction")}>
                      {p.instruction}
                    </span>
                  )}
                </td>
                <td className="task-summary">
                  <button
                    className="btn btn-ghost btn-small"
                    type="button"
                    aria-expanded={detailsOpen}
                    aria-controls={detailsOpen ? `${r.id}-details` : undefined}
                    aria-label={`Task ${n} details: ${summary(r)}`}
                    onClick={() => actions.toggle(r.id)}
                    disabled={hasDetailProblem(p)}
                  >
                    <span aria-hidden="true">{detailsOpen ? "▾" : "▸"}</span> {summary(r)}
                  </button>
                </td>
                <td className="task-actions">
                  <button
                    id={`${r.id}-up`}
                    className="btn btn-ghost btn-icon"
                    type="button"
                    aria-label={`Move task ${n} up`}
                    title="Move up"
                    disabled={index === 0}
                    onClick={() => actions.move(r.id, -1)}
                  >
                    ↑
                  </button>
                  <button
                    id={`${r.id}-down`}
                    className="btn btn-ghost btn-icon"
                    type="button"
                    aria-label={`Move task ${n} down`}
                    title="Move down"
                    disabled={index === total - 1}
                    onClick={() => actions.move(r.id, 1)}
                  >
                    ↓
                  </button>
                  <button className="btn btn-ghost btn-small" type="button" aria-label={`Duplicate task ${n}`} onClick={() => actions.duplicate(r.id)}>
                    Duplicate
                  </button>
                  <button
                    id={`${r.id}-delete`}
                    className="btn btn-ghost btn-small btn-danger"
                    type="button"
                    aria-label={`Delete task ${n}`}
                    onClick={() => actions.remove(r.id)}
                  >
                    Delete
                  </button>
                </td>
              </tr>,
              detailsOpen ? (
                <tr key={`${r.id}-details`} className="task-details-row" id={`${r.id}-details`}>
                  <td colSpan={5}>
                    <TaskDetails row={r} index={index} problems={p} onChange={(patch) => actions.change(r.id, patch)} />
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
      </table>
    </div>
  );
}
