// One batch, watched live (`watch_batch`): the header with the connection, the outcome and the
// counts; the virtualized task list; the selected task's result and timeline; the exports. The
// task and step selected are the route's once the service named the batch (`place`, `onPlace`).
import { useEffect, useId, useMemo, useState } from "react";
import { useAppEvent } from "../../../ipc/events";
import { countByPhase, totalCredits, type TaskView } from "./reducer";
import { useBatchWatch, type WatchTarget } from "./useBatchWatch";
import { requestOf, useBatchJob } from "./batchJob";
import { RerunPanel } from "./RerunPanel";
import { BatchHeader } from "./BatchHeader";
import { TaskList } from "./TaskList";
import { TaskDetail } from "./TaskDetail";
import { ExportButtons } from "./ExportButtons";
import { TaskFilterBar } from "./TaskFilterBar";
import { filterTasks, isFiltered, type StatusFilter, type TaskFilter } from "./taskFilter";
import "./watch.css";

/** The task and step shown (each from 1, as the screen numbers them) and the list's filter. */
export interface TaskPlace {
  task?: number;
  step?: number;
  status?: string;
  q?: string;
}

interface PlaceProps {
  onOpen?: (t: WatchTarget) => void;
  /** The task and step the route names. */
  place?: TaskPlace;
  /** The user picked a task or a step, in the batch the service named `batchId`. */
  onPlace?: (batchId: string, place: TaskPlace) => void;
  /** A batch watched by its job was named by the service. */
  onNamed?: (batchId: string, place: TaskPlace) => void;
}

export function BatchView({ target, ...props }: { target: WatchTarget } & PlaceProps) {
  // Try again watches anew: a fresh state and stream under a new key.
  const [attempt, setAttempt] = useState(0);
  const key = "batchId" in target ? target.batchId : `job-${target.jobId}`;
  return <BatchWatch key={`${key}:${attempt}`} target={target} onRetry={() => setAttempt((a) => a + 1)} {...props} />;
}

/** The service's id for the batch of job `jobId`, once its job has it. */
function useNamedJob(jobId: number | undefined): string | undefined {
  const [named, setNamed] = useState<string>();
  useAppEvent("job-changed", (change) => {
    if (jobId !== undefined && change.id === jobId && change.remoteId) setNamed(change.remoteId);
  });
  return named;
}

function BatchWatch({ target, onRetry, onOpen, place, onPlace, onNamed }: { target: WatchTarget; onRetry: () => void } & PlaceProps) {
  const id = useId();
  const state = useBatchWatch(target);
  // A batch watched by its job is named once its job has the service's id (a live one as soon as
  // its stream opened), or by the batch its stream ends with.
  const named = useNamedJob("jobId" in target ? target.jobId : undefined);
  const batchId = "batchId" in target ? target.batchId : named || state.batch?.id || "being sent";
  const serviceId = "batchId" in target ? target.batchId : named || state.batch?.id || undefined;
  // Before the service names the batch, the selection is this view's own; then the route's.
  const [own, setOwn] = useState<TaskPlace>({});
  const shownPlace = serviceId && onPlace ? (place ?? {}) : own;
  const selected = shownPlace.task !== undefined ? shownPlace.task - 1 : null;
  const setPlace = (next: TaskPlace) => (serviceId && onPlace ? onPlace(serviceId, next) : setOwn(next));
  const status = shownPlace.status as StatusFilter | undefined;
  const query = shownPlace.q;
  const filter: TaskFilter = useMemo(() => ({ status, q: query }), [status, query]);
  const kept = { ...(filter.status ? { status: filter.status } : {}), ...(filter.q ? { q: filter.q } : {}) };
  const setSelected = (index: number) => setPlace({ ...kept, task: index + 1 });
  const setFilter = (f: TaskFilter) =>
    setPlace({ ...(f.status ? { status: f.status } : {}), ...(f.q ? { q: f.q } : {}), ...(shownPlace.task ? { task: shownPlace.task } : {}) });
  const jobNamed = "jobId" in target ? serviceId : undefined;
  useEffect(() => {
    if (jobNamed) onNamed?.(jobNamed, own);
    // Said once, when the name arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobNamed]);
  const counts = useMemo(() => countByPhase(state.tasks), [state.tasks]);
  const credits = totalCredits(state);
  const task: TaskView | undefined = selected !== null ? state.tasks[selected] : undefined;
  const finished = state.connection === "finished";
  const shown = useMemo(() => filterTasks(state.tasks, filter, finished), [state.tasks, filter, finished]);
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
        status={filter.status}
        onStatus={(status) => setFilter({ ...filter, status })}
      />
      {finished && state.batch?.id && (
        <RerunPanel batchId={state.batch.id} tasks={state.tasks} finished={finished} onOpen={onOpen} these={isFiltered(filter) ? shown : undefined} />
      )}
      <div className="batch-body">
        <div className="batch-tasks">
          <TaskFilterBar filter={filter} shown={shown.length} total={state.tasks.length} onFilter={setFilter} />
          <TaskList idPrefix={`${id}-task`} tasks={state.tasks} shown={shown} selected={selected} onSelect={setSelected} />
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
          {task ? (
            <TaskDetail
              key={task.index}
              task={task}
              schema={schemaOf(task.index)}
              step={shownPlace.step}
              onStep={(step) => setPlace({ ...kept, task: task.index + 1, step })}
            />
          ) : (
            <p className="empty">Choose a task to see its result and timeline.</p>
          )}
        </div>
      </div>
    </section>
  );
}
