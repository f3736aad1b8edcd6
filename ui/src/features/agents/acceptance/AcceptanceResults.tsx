// The results of one acceptance run beside the spec's stories: each story's verdict, each
// criterion's with the agent's evidence and the last screenshot of its page, and what changed
// since the previous run. The batch is watched (`watch_batch`, by its id or its job); once it
// ends, the run's verdicts are kept in the spec's history.
import { useEffect, useId, useMemo, useState } from "react";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { formatDateTime } from "../../../lib/format";
import { useBatchWatch, type WatchTarget } from "../watch/useBatchWatch";
import type { TaskView } from "../watch/reducer";
import {
  changeSummary,
  diffRuns,
  outcomesOf,
  runSummary,
  storyResult,
  verdictOf,
  type AcceptanceRun,
  type AcceptanceStory,
  type Change,
  type CriterionOutcome,
} from "./model";
import { ChangeTag, StoryChip, VerdictChip } from "./Marks";
import "./acceptance.css";

function targetOf(run: AcceptanceRun): WatchTarget {
  return run.batchId ? { batchId: run.batchId } : { jobId: run.jobId ?? 0, total: run.total };
}

export function AcceptanceResults(props: {
  run: AcceptanceRun;
  stories: AcceptanceStory[];
  previous?: AcceptanceRun;
  onFinished: (run: AcceptanceRun) => void;
}) {
  // A new watch (fresh state and stream) per run.
  return <RunWatch key={props.run.jobId !== undefined ? `job-${props.run.jobId}` : props.run.id} {...props} />;
}

function RunWatch({
  run,
  stories,
  previous,
  onFinished,
}: {
  run: AcceptanceRun;
  stories: AcceptanceStory[];
  previous?: AcceptanceRun;
  onFinished: (run: AcceptanceRun) => void;
}) {
  const id = useId();
  // Watched by its job until the service names it (the watch then learns the batch's id); the
  // target stays the same for the life of this view, so naming the batch does not watch it twice.
  const [target] = useState(() => targetOf(run));
  const state = useBatchWatch(target);
  const finished = state.connection === "finished";
  const live = useMemo(() => outcomesOf(state.tasks, run.tasks), [state.tasks, run.tasks]);
  // A run kept as finished shows its kept verdicts until its batch is read again (offline too).
  const outcomes: Record<string, CriterionOutcome> = run.finished && !finished ? run.criteria : live;

  useEffect(() => {
    if (!finished || run.finished) return;
    const batchId = state.batch?.id || run.batchId;
    onFinished({ ...run, ...(batchId ? { id: batchId, batchId } : {}), criteria: live, finished: true });
  }, [finished, run, live, state.batch, onFinished]);

  const changes: Record<string, Change> | null = previous ? diffRuns({ criteria: outcomes }, previous) : null;
  const taskOf = (key: string): TaskView | undefined => {
    const i = run.tasks.indexOf(key);
    return i >= 0 ? state.tasks[i] : undefined;
  };
  const extra = run.tasks.filter((k) => k === null).length;
  const shown = stories.map((s) => ({ story: s, result: storyResult(s, outcomes) })).filter((x) => x.result.total > 0);
  const running = !finished && !run.finished;

  return (
    <section className="card acceptance-results" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Acceptance results</h2>
      <p className="muted">
        Checked on <span className="mono">{run.url}</span> · sent {formatDateTime(run.at)}
        {run.batchId || state.batch?.id ? (
          <>
            {" "}
            · batch <span className="mono">{state.batch?.id || run.batchId}</span>
          </>
        ) : null}
      </p>
      <p className="acceptance-summary" role="status">
        {running ? "Running: " : ""}
        {runSummary(outcomes)}
      </p>
      {previous && changes && (
        <p className="acceptance-changes">
          Compared with the run of {formatDateTime(previous.at)}: {changeSummary(changes) || "nothing to compare"}.
        </p>
      )}
      {state.error && !run.finished && <ErrorPanel error={state.error} />}
      {extra > 0 && (
        <p className="muted">
          {extra === 1 ? "1 task you added checks" : `${extra} tasks you added check`} no acceptance criterion; its result is in the batch
          only.
        </p>
      )}
      <ol className="acceptance-stories">
        {shown.map(({ story, result }) => (
          <li key={story.key} className="acceptance-story">
            <section aria-labelledby={`${id}-story-${story.key}`}>
              <h3 id={`${id}-story-${story.key}`}>
                <span>
                  {story.id && <span className="muted mono">{story.id} </span>}
                  {story.title}
                </span>
                <StoryChip result={result} />
              </h3>
              <ul className="acceptance-criteria" aria-label={`Acceptance criteria of ${story.title}`}>
                {story.criteria
                  .filter((c) => c.key in outcomes)
                  .map((c) => {
                    const o = outcomes[c.key];
                    const task = taskOf(c.key);
                    const shot = task?.shots[task.shots.length - 1];
                    const change = changes?.[c.key];
                    return (
                      <li key={c.key} className="acceptance-criterion" data-criterion={c.key}>
                        <div>
                          <div className="criterion-head">
                            <VerdictChip verdict={verdictOf(o)} />
                            {change && <ChangeTag change={change} />}
                          </div>
                          <p className="criterion-text">{c.text}</p>
                          {o?.evidence && <p className="evidence pre-wrap">Evidence: {o.evidence}</p>}
                        </div>
                        {shot && <img className="acceptance-shot" src={shot.src} alt={`Screenshot of the page checked for “${c.text}”`} />}
                      </li>
                    );
                  })}
              </ul>
            </section>
          </li>
        ))}
      </ol>
    </section>
  );
}
