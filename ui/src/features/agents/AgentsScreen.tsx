// The Browser agents area: the batch builder, what was just sent and its live view, the
// service's capacity, and the history of batches (each opens in the same view).
import { useState } from "react";
import type { Job } from "../../ipc/contract";
import type { JobStatus } from "../../bindings/JobStatus";
import { Builder } from "./builder/Builder";
import { BatchHistory, BatchView, CapacityGauge, type WatchTarget } from "./watch";
import type { AcceptanceRequest } from "../../lib/nav";
import { AcceptanceFlow } from "./acceptance/AcceptanceFlow";
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
  if (!job.remoteId) return `The batch of ${what} is saved and waits to be sent; Specdesk sends it as soon as it can, even after a restart.`;
  return `The service has your batch of ${what}. It keeps running even if you close Specdesk.`;
}

export function SubmittedPanel({ job, tasks, onDismiss }: { job: Job; tasks: number; onDismiss: () => void }) {
  return (
    <section className={job.status === "failed" ? "panel panel-error submitted" : "panel panel-success submitted"} aria-labelledby="submitted-title">
      <h2 id="submitted-title">Submitted</h2>
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
      <button className="btn btn-ghost" type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}

export function AgentsScreen({ acceptance }: { acceptance?: AcceptanceRequest } = {}) {
  if (acceptance) {
    return (
      <section className="page page-wide agents" aria-labelledby="agents-title">
        <h1 id="agents-title">Browser agents</h1>
        <AcceptanceFlow key={`${acceptance.specId}:${acceptance.url ?? ""}`} specId={acceptance.specId} url={acceptance.url} />
      </section>
    );
  }
  return <Batches />;
}

function Batches() {
  const [sent, setSent] = useState<{ job: Job; tasks: number } | null>(null);
  // The batch open below the builder: one just sent (by its job until the service names it), or
  // one opened from the history.
  const [open, setOpen] = useState<WatchTarget | null>(null);
  return (
    <section className="page page-wide agents" aria-labelledby="agents-title">
      <h1 id="agents-title">Browser agents</h1>
      <p className="muted">Run batches of browser tasks and watch each one live.</p>
      {sent && <SubmittedPanel job={sent.job} tasks={sent.tasks} onDismiss={() => setSent(null)} />}
      <Builder
        onSubmitted={(job, tasks) => {
          setSent({ job, tasks });
          if (job.status !== "failed") setOpen(job.remoteId ? { batchId: job.remoteId } : { jobId: job.id, total: tasks });
        }}
      />
      {open && <BatchView target={open} onOpen={setOpen} />}
      <CapacityGauge />
      <BatchHistory onOpen={(batchId) => setOpen({ batchId })} />
    </section>
  );
}
