// One batch, watched live (`watch_batch`): the header with the connection, the outcome and the
// counts; the virtualized task list; the selected task's result and timeline; the exports.
import { useId, useMemo, useState } from "react";
import { useAppEvent } from "../../../ipc/events";
import { countByPhase, totalCredits, type TaskView } from "./reducer";
import { useBatchWatch, type WatchTarget } from "./useBatchWatch";
import { requestOf, useBatchJob } from "./batchJob";
import { RerunPanel } from "./RerunPanel";
import { BatchHeader } from "./BatchHeader";
import { TaskList } from "./TaskList";
import { TaskDetail } from "./TaskDetail";
import { ExportButtons } from "./ExportButtons";
import "./watch.css";

export function BatchView({ target, onOpen }: { target: WatchTarget; onOpen?: (t: WatchTarget) => void }) {
  // Try again watches anew: a fresh state and stream under a new key.
  const [attempt, setAttempt] = useState(0);
  const key = "batchId" in target ? target.batchId : `job-${target.jobId}`;
  return <BatchWatch key={`${key}:${attempt}`} target={target} onRetry={() => setAttempt((a) => a + 1)} onOpen={onOpen} />;
}

/** The service's id for the batch of job `jobId`, once its job has it. */
function useNamedJob(jobId: number | undefined): string | undefined {
  const [named, setNamed] = useState<string>();
  useAppEvent("job-changed", (change) => {
    if (jobId !== undefined && change.id === jobId && change.remoteId) setNamed(change.remoteId);
  });
  return named;
}

function BatchWatch({ target, onRetry, onOpen }: { target: WatchTarget; onRetry: () => void; onOpen?: (t: WatchTarget) => void }) {
  const id = useId();
  const state = useBatchWatch(target);
  // A batch watched by its job is named once its job has the service's id (a live one as soon as
  // its stream opened), or by the batch its stream ends with.
  const named = useNamedJob("jobId" in target ? target.jobId : undefined);
  const batchId = "batchId" in target ? target.batchId : named || state.batch?.id || "being sent";
  const [selected, setSelected] = useState<number | null>(null);
  const counts = useMemo(() => countByPhase(state.tasks), [state.tasks]);
  const credits = totalCredits(state);
  const task: TaskView | undefined = selected !== null ? state.tasks[selected] : undefined;
  const finished = state.connection === "finished";
  // The tasks as sent (their output schemas), once the service named the batch.
  const job = useBatchJob(state.batch?.id || undefined);
  const schemaOf = (i: number) => requestOf(job.data)?.tasks[i]?.output;
  return (
    // data-events-applied: the events applied so far (read by bench/agents-events*.mjs).
    <section className="batch-view" aria-labelledby={`${id}-title`} data-events-applied={state.applied}>
      <BatchHeader
        batchId={batchId}
        titleId={`${id}-title`}
        link={{ ...state, waiting: "jobId" in target && !!target.wait }}
        error={state.error}
        batchStatus={state.batch?.status}
        tasks={state.tasks}
        counts={counts}
        credits={credits}
        onRetry={onRetry}
      />
      {finished && state.batch?.id && <RerunPanel batchId={state.batch.id} tasks={state.tasks} finished={finished} onOpen={onOpen} />}
      <div className="batch-body">
        <div className="batch-tasks">
          <TaskList idPrefix={`${id}-task`} tasks={state.tasks} selected={selected} onSelect={setSelected} />
          <ExportButtons
            disabled={state.tasks.length === 0}
            tasks={state.tasks}
            batch={{
              id: batchId,
              status: state.batch?.status,
              createdAt: state.batch?.createdAt,
              completedAt: state.batch?.completedAt,
              totalCreditsUsed: credits,
              totalCost: finished ? state.batch?.totalCost : undefined,
            }}
          />
        </div>
        <div className="batch-task">
          {task ? <TaskDetail key={task.index} task={task} schema={schemaOf(task.index)} /> : <p className="empty">Choose a task to see its result and timeline.</p>}
        </div>
      </div>
    </section>
  );
}
