// One task of a watched batch: its status with what it means and what to try, its facts, its
// data (tree or table) and its timeline.
import { formatDuration } from "../../../lib/format";
import type { TaskView } from "./reducer";
import { phaseInfo } from "./statuses";
import { StatusChip } from "./StatusChip";
import { DataCheck } from "./DataCheck";
import { DataView } from "./DataView";
import { TaskTimeline } from "./TaskTimeline";
import { taskCredits } from "./TaskList";

/** `schema`: the output schema the task was sent with, when Specdesk ran it; `step` the step of
 * its timeline the route names (from 1), `onStep` the one the user picks. */
export function TaskDetail({ task, schema, step, onStep }: { task: TaskView; schema?: unknown; step?: number; onStep?: (step: number) => void }) {
  const info = phaseInfo(task.phase);
  const final = task.phase !== "queued" && task.phase !== "running";
  return (
    <article className="task-detail" aria-labelledby={`task-detail-${task.index}`}>
      <header className="task-detail-head">
        <h3 id={`task-detail-${task.index}`}>Task {task.index + 1}</h3>
        <StatusChip phase={task.phase} />
      </header>
      <p className="task-detail-url mono">{task.url ?? "Not started yet"}</p>
      {task.instruction && <p className="pre-wrap">{task.instruction}</p>}
      <div className="panel status-explain" data-tone={info.tone}>
        <p>
          <strong>{info.label}.</strong> {info.meaning}
        </p>
        {task.error && <p className="pre-wrap">The service said: {task.error}</p>}
      </div>
      <dl className="stat-grid task-facts">
        <div className="stat">
          <dt>Duration</dt>
          <dd>{task.durationMs !== undefined ? formatDuration(task.durationMs) : "—"}</dd>
        </div>
        <div className="stat">
          <dt>Credits</dt>
          <dd>{taskCredits(task.creditsUsed)}</dd>
        </div>
        <div className="stat">
          <dt>Cost (USD)</dt>
          <dd>{task.cost !== undefined ? `$${task.cost.toFixed(3)}` : "—"}</dd>
        </div>
        <div className="stat">
          <dt>Steps</dt>
          <dd>{task.steps.length}</dd>
        </div>
      </dl>
      <section aria-labelledby={`task-data-${task.index}`}>
        <h4 id={`task-data-${task.index}`}>Data</h4>
        {final || task.data ? <DataView data={task.data} /> : <p className="muted">The data arrives when the task ends.</p>}
        {final && schema !== undefined && schema !== null && <DataCheck schema={schema} data={task.data} />}
      </section>
      <section aria-label="Timeline" className="task-timeline">
        <TaskTimeline task={task} step={step} onStep={onStep} />
      </section>
    </article>
  );
}
