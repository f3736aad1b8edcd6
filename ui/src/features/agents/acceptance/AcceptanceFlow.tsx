// "Check these stories on my app", in the Browser agents area: the spec's acceptance criteria as
// browser tasks in the builder (the user edits them, then runs), then the results beside the
// stories, compared with the previous run. Opened from a spec with its app's address; without
// one it shows the spec's latest run.
import { useMemo, useState } from "react";
import type { Job } from "../../../ipc/contract";
import { toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useNavigate } from "../../../lib/nav";
import { plural } from "../../../lib/format";
import { useSpec } from "../../specs/queries";
import { scopeOf, specTitle } from "../../specs/SpecView";
import { Builder } from "../builder/Builder";
import type { TaskRow } from "../builder/model";
import { AcceptanceResults } from "./AcceptanceResults";
import { AppUrlPrompt } from "./AppUrlPrompt";
import {
  acceptanceRows,
  acceptanceStories,
  previousRun,
  storiesWithoutCriteria,
  taskCriteria,
  type AcceptanceRun,
  type AcceptanceStory,
} from "./model";
import { useAcceptanceRuns } from "./useAcceptanceRuns";
import "./acceptance.css";

type Step = { kind: "url"; url: string } | { kind: "build"; url: string; attempt: number } | { kind: "run"; jobId?: number; id: string };

/** The step the route names: a run kept here (`run`), the builder for an address (`url`), else the
 * spec's latest run, else the question of the address. */
function stepOf(url: string | undefined, run: string | undefined, runs: AcceptanceRun[]): Step {
  if (run) return { kind: "run", id: run };
  if (url) return { kind: "build", url, attempt: 0 };
  const last = runs[0];
  return last ? { kind: "run", jobId: last.jobId, id: last.id } : { kind: "url", url: "" };
}

/** The step shown follows the route (Back, Forward, a relaunch, a link), and each step the user
 * takes is written into it (replacing the entry: the steps are views of one acceptance request). */
function useStep(specId: string, url: string | undefined, run: string | undefined, runs: AcceptanceRun[]) {
  const navigate = useNavigate();
  const [step, setStepState] = useState<Step>(() => stepOf(url, run, runs));
  // A route that names another run or address moves the step (adjusted while rendering).
  const [seen, setSeen] = useState({ url, run, attempt: 0 });
  if (seen.url !== url || seen.run !== run) {
    setSeen({ url, run, attempt: seen.attempt + 1 });
    if (run && !(step.kind === "run" && step.id === run)) setStepState({ kind: "run", id: run });
    else if (!run && url && !(step.kind === "build" && step.url === url)) setStepState({ kind: "build", url, attempt: seen.attempt + 1 });
  }
  const setStep = (next: Step) => {
    setStepState(next);
    const place = next.kind === "run" ? { specId, run: next.id } : next.kind === "build" ? { specId, url: next.url } : { specId };
    navigate({ area: "agents", acceptance: place }, { replace: true });
  };
  return [step, setStep] as const;
}

export function AcceptanceFlow({ specId, url, run }: { specId: string; url?: string; run?: string }) {
  const spec = useSpec(specId);
  const navigate = useNavigate();
  const [runs, keep] = useAcceptanceRuns(specId);
  const [step, setStep] = useStep(specId, url, run, runs);
  const [failed, setFailed] = useState<Job | null>(null);
  const sow = spec.data ? scopeOf(spec.data.spec) : undefined;
  const stories = useMemo(() => (sow ? acceptanceStories(sow) : []), [sow]);

  const back = (
    <div className="row">
      <button className="btn btn-ghost back" type="button" onClick={() => navigate({ area: "specs", specId })}>
        <span aria-hidden="true">←</span> Back to the spec
      </button>
      <button className="btn btn-ghost" type="button" onClick={() => navigate({ area: "agents" })}>
        Close the acceptance run
      </button>
    </div>
  );

  if (spec.isPending) return <p className="skeleton">Opening the spec…</p>;
  if (spec.isError) {
    return (
      <section className="acceptance-flow">
        {back}
        <ErrorPanel error={toIpcError(spec.error)} onRetry={() => void spec.refetch()} level={2} />
      </section>
    );
  }
  const title = specTitle(spec.data.spec);
  const criteria = stories.reduce((n, s) => n + s.criteria.length, 0);
  const without = sow ? storiesWithoutCriteria(sow) : 0;

  const current =
    step.kind === "run"
      ? runs.find((r) => (step.jobId !== undefined && r.jobId === step.jobId) || r.id === step.id || (r.jobId !== undefined && `job-${r.jobId}` === step.id))
      : undefined;

  const submitted = (job: Job, tasks: number, rows: TaskRow[], criterionByRow: Record<string, string>, appUrl: string) => {
    if (job.status === "failed") {
      setFailed(job);
      return;
    }
    setFailed(null);
    const run: AcceptanceRun = {
      id: job.remoteId ?? `job-${job.id}`,
      ...(job.remoteId ? { batchId: job.remoteId } : {}),
      jobId: job.id,
      at: new Date().toISOString(),
      url: appUrl,
      total: tasks,
      tasks: taskCriteria(rows, criterionByRow),
      criteria: {},
      finished: false,
    };
    keep(run);
    setStep({ kind: "run", jobId: job.id, id: run.id });
  };

  return (
    <section className="acceptance-flow" aria-labelledby="acceptance-title">
      {back}
      <h2 id="acceptance-title">Check the stories of {title}</h2>
      {stories.length === 0 ? (
        <p className="empty">This spec’s stories have no acceptance criteria, so there is nothing to check on your app.</p>
      ) : (
        <p className="muted acceptance-intro">
          {plural(criteria, "acceptance criterion", "acceptance criteria")} in {plural(stories.length, "story", "stories")}
          {without > 0 ? ` (${plural(without, "story", "stories")} without criteria left out)` : ""}. Each criterion is one browser task
          that opens your app and answers whether it holds, with its evidence.
        </p>
      )}
      {failed && (
        <div className="panel panel-error" role="alert">
          <h3>The acceptance run could not be started</h3>
          <p>{failed.error?.message ?? "The service did not say why."}</p>
        </div>
      )}
      {stories.length > 0 && step.kind === "url" && (
        <section className="card" aria-labelledby="acceptance-url-title">
          <h3 id="acceptance-url-title">Where is your app running?</h3>
          <AppUrlPrompt initialUrl={step.url} onSubmit={(u) => setStep({ kind: "build", url: u, attempt: Date.now() })} />
        </section>
      )}
      {stories.length > 0 && step.kind === "build" && (
        <AcceptanceBuilder
          key={`${step.url}:${step.attempt}`}
          stories={stories}
          url={step.url}
          onChangeUrl={() => setStep({ kind: "url", url: step.url })}
          onSubmitted={submitted}
        />
      )}
      {step.kind === "run" && current && (
        <>
          <div className="row">
            <button className="btn" type="button" onClick={() => setStep({ kind: "url", url: current.url })}>
              Run the check again
            </button>
          </div>
          <AcceptanceResults run={current} stories={stories} previous={previousRun(runs, current)} onFinished={keep} />
        </>
      )}
      {step.kind === "run" && !current && <p className="empty">This acceptance run is no longer kept on this computer.</p>}
    </section>
  );
}

/** The builder holding one task per criterion (rows made once, so each row keeps its criterion). */
function AcceptanceBuilder({
  stories,
  url,
  onChangeUrl,
  onSubmitted,
}: {
  stories: AcceptanceStory[];
  url: string;
  onChangeUrl: () => void;
  onSubmitted: (job: Job, tasks: number, rows: TaskRow[], criterionByRow: Record<string, string>, url: string) => void;
}) {
  const [prepared] = useState(() => acceptanceRows(stories, url));
  return (
    <>
      <div className="row acceptance-url-line">
        <p className="acceptance-last">
          Your app: <span className="mono">{url}</span>. Edit the tasks below if you need to, then run them.
        </p>
        <button className="btn btn-ghost" type="button" onClick={onChangeUrl}>
          Change the address
        </button>
      </div>
      <Builder
        initialRows={prepared.rows}
        onSubmitted={(job, tasks, rows) => onSubmitted(job, tasks, rows, prepared.criterionByRow, url)}
      />
    </>
  );
}
