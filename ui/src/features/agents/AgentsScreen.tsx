// The Browser agents area: the batch builder, what was just sent and its live view, the
// service's capacity, and the history of batches (each opens in the same view).
import { useEffect, useRef, useState } from "react";
import { call, toIpcError } from "../../ipc/invoke";
import { useAppEvent } from "../../ipc/events";
import { wholeJob } from "../../ipc/jobChange";
import type { IpcError, Job } from "../../ipc/contract";
import { ErrorPanel } from "../../components/ErrorPanel";
import type { JobStatus } from "../../bindings/JobStatus";
import { Builder } from "./builder/Builder";
import { BatchHistory, BatchView, CapacityGauge, type TaskPlace, type WatchTarget } from "./watch";
import { requestOf } from "./watch/batchJob";
import { useNavigate, type AcceptanceRequest, type BatchPlace } from "../../lib/nav";
import { AcceptanceFlow } from "./acceptance/AcceptanceFlow";
import { UnconfirmedBatches } from "./UnconfirmedBatches";
import "./agents.css";

const STATUS_WORDS: Record<JobStatus, string> = {
  queued: "Waiting to be sent",
  submitted: "Sent",
  running: "Running",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** The plain sentence about a batch just submitted. */
export function submittedSentence(job: Job, tasks: number): string {
  const what = `${tasks.toLocaleString("en-US")} ${tasks === 1 ? "task" : "tasks"}`;
  if (job.status === "failed") return `The batch of ${what} could not be started. ${job.error?.message ?? ""}`.trim();
  if (job.status === "cancelled") return `The batch of ${what} was stopped before the service had it.`;
  if (!job.remoteId && job.error) return job.error.message;
  if (!job.remoteId) return `The batch of ${what} is saved and waits to be sent; Specdesk sends it as soon as it can, even after a restart.`;
  return `The service has your batch of ${what}. It keeps running even if you close Specdesk.`;
}

/** `job` kept current from the job runner's `job-changed` broadcasts. */
function useLiveJob(job: Job): Job {
  const [live, setLive] = useState(job);
  useAppEvent("job-changed", (change) => {
    if (change.id === job.id) setLive((prev) => wholeJob(change, prev) ?? prev);
  });
  return live;
}

export function SubmittedPanel({ job: sent, tasks, onDismiss }: { job: Job; tasks: number; onDismiss: () => void }) {
  const job = useLiveJob(sent);
  // Held before the service has it (no room there, the keychain locked...): it is sent by itself
  // later, or the user stops it here.
  const held = !job.remoteId && !!job.error && (job.status === "queued" || job.status === "submitted");
  const tone = job.status === "failed" ? "panel-error" : held ? "panel-info" : "panel-success";
  const [stopError, setStopError] = useState<IpcError | null>(null);
  const stop = () => {
    setStopError(null);
    call("cancel_job", { jobId: job.id }).catch((e: unknown) => setStopError(toIpcError(e)));
  };
  return (
    <section className={`panel ${tone} submitted`} aria-labelledby="submitted-title">
      <h2 id="submitted-title">{held ? "Waiting to be sent" : "Submitted"}</h2>
      <p>{submittedSentence(job, tasks)}</p>
      <dl className="submitted-facts">
        <div>
          <dt>Batch</dt>
          <dd className="mono">{job.remoteId ?? "not sent yet"}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{STATUS_WORDS[job.status] ?? job.status}</dd>
        </div>
        <div>
          <dt>Job</dt>
          <dd className="mono">{job.id}</dd>
        </div>
      </dl>
      {stopError && <ErrorPanel error={stopError} onRetry={stop} level={3} />}
      <div className="submitted-actions">
        {held && (
          <button className="btn" type="button" onClick={stop}>
            Stop this batch
          </button>
        )}
        <button className="btn btn-ghost" type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

export function AgentsScreen({ acceptance, batch }: { acceptance?: AcceptanceRequest; batch?: BatchPlace }) {
  if (acceptance) {
    return (
      <section className="page page-wide agents" aria-labelledby="agents-title">
        <h1 id="agents-title">Browser agents</h1>
        <AcceptanceFlow key={acceptance.specId} specId={acceptance.specId} url={acceptance.url} run={acceptance.run} />
      </section>
    );
  }
  return <Batches place={batch} />;
}

/** The batch open below the builder: the route's (`#/agents/batches/<id>`), or one just sent,
 * watched by its job, which the route names once the service does. */
function useOpenBatch(place: BatchPlace | undefined) {
  const navigate = useNavigate();
  const [byJob, setByJob] = useState<{ target: WatchTarget; named?: string } | null>(null);
  const routeId = place?.batchId;
  const jobShown = !!byJob && (routeId === undefined ? !byJob.named : byJob.named === routeId);
  const open: WatchTarget | null = jobShown && byJob ? byJob.target : routeId ? { batchId: routeId } : null;
  // A batch the user opens is scrolled to (after the frame's scroll to the top of a new place).
  const frame = useRef<HTMLDivElement>(null);
  const reveal = useRef(false);
  const openKey = open ? ("batchId" in open ? open.batchId : `job-${open.jobId}`) : "";
  useEffect(() => {
    if (!reveal.current || !openKey) return;
    reveal.current = false;
    const raf = window.requestAnimationFrame(() => frame.current?.scrollIntoView?.({ block: "start" }));
    return () => window.cancelAnimationFrame(raf);
  }, [openKey]);
  const setOpen = (target: WatchTarget | null) => {
    reveal.current = !!target;
    if (target && "batchId" in target) {
      navigate({ area: "agents", batch: { batchId: target.batchId } });
      return;
    }
    setByJob(target ? { target } : null);
    // A batch the service has not named yet: the address says the batches.
    if (routeId) navigate({ area: "agents" });
  };
  const onNamed = (batchId: string, at: TaskPlace) => {
    setByJob((j) => (j ? { ...j, named: batchId } : j));
    navigate({ area: "agents", batch: { batchId, ...at } }, { replace: true });
  };
  const onPlace = (batchId: string, at: TaskPlace) => navigate({ area: "agents", batch: { batchId, ...at } }, { replace: true });
  return { open, setOpen, onNamed, onPlace, frame };
}

function Batches({ place }: { place?: BatchPlace }) {
  const [sent, setSent] = useState<{ job: Job; tasks: number } | null>(null);
  const { open, setOpen, onNamed, onPlace, frame } = useOpenBatch(place);
  return (
    <section className="page page-wide agents" aria-labelledby="agents-title">
      <h1 id="agents-title">Browser agents</h1>
      <p className="muted">Run batches of browser tasks and watch each one live.</p>
      <UnconfirmedBatches
        onSentAgain={(job, tasks) => {
          setSent({ job, tasks });
          if (job.status !== "failed") setOpen(job.remoteId ? { batchId: job.remoteId } : { jobId: job.id, total: tasks, wait: requestOf(job)?.mode === "wait" });
        }}
      />
      {sent && <SubmittedPanel job={sent.job} tasks={sent.tasks} onDismiss={() => setSent(null)} />}
      <Builder
        onSubmitted={(job, tasks) => {
          setSent({ job, tasks });
          const wait = requestOf(job)?.mode === "wait";
          if (job.status !== "failed") setOpen(job.remoteId ? { batchId: job.remoteId } : { jobId: job.id, total: tasks, wait });
        }}
        // Refused by the service: the builder has the tasks back and says why; nothing to watch.
        onRefused={(jobId) => {
          setSent((s) => (s?.job.id === jobId ? null : s));
          if (open && "jobId" in open && open.jobId === jobId) setOpen(null);
        }}
      />
      <div ref={frame} className="batch-frame">
        {open && <BatchView target={open} onOpen={setOpen} place={place} onPlace={onPlace} onNamed={onNamed} />}
      </div>
      <CapacityGauge />
      <BatchHistory onOpen={(batchId) => setOpen({ batchId })} />
    </section>
  );
}
