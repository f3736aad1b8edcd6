// Spec generations of the job ledger, newest first: unfinished ones are followed live (progress
// text, elapsed time, credits used so far); a failed one offers "Edit and try again"; a completed
// one opens its spec. That a generation finished is told on every screen (features/activity/
// useJobNotices.tsx), not here.
import type { Job } from "../../ipc/contract";
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { call, toIpcError } from "../../ipc/invoke";
import { ErrorActions, ErrorPanel } from "../../components/ErrorPanel";
import { useErrorToast } from "../../components/Toasts";
import { formatCreditsWord, formatElapsed, formatHours } from "../../lib/format";
import { useNavigate } from "../../lib/nav";
import { useNow } from "../../lib/useNow";
import { draftFromJobRequest, type ComposerDraft } from "./draft";
import { isUnfinishedJob, useFollowJob, useSpecJobs } from "./queries";
import { depthLabel, jobStatusInfo } from "./status";
import { ToneBadge } from "./StatusBadge";

/** What a spec job's request says it was about: its text, else its file. */
export function jobTitle(job: Job): string {
  const r = (job.request ?? {}) as { input?: unknown; fileName?: unknown };
  const input = typeof r.input === "string" ? r.input.trim() : "";
  if (input) return input.length > 140 ? `${input.slice(0, 140)}…` : input;
  if (typeof r.fileName === "string" && r.fileName) return `From the file ${r.fileName}`;
  return `Spec job ${job.id}`;
}

function jobDepth(job: Job): string {
  const r = (job.request ?? {}) as { depth?: unknown };
  return depthLabel(typeof r.depth === "string" ? r.depth : undefined);
}

/** The spec-status JSON a job last read (`creditsUsed` is live while processing). */
export function jobResult(job: Job): Partial<SpecStatusResponse> {
  return job.result && typeof job.result === "object" ? (job.result as Partial<SpecStatusResponse>) : {};
}

/** Seconds from the job's creation to `now` (or to its last update once it ended). */
export function jobElapsedSeconds(job: Job, now: number): number {
  const start = Date.parse(job.createdAt);
  const end = isUnfinishedJob(job) ? now : Date.parse(job.updatedAt);
  if (Number.isNaN(start) || Number.isNaN(end)) return 0;
  return Math.max(0, (end - start) / 1000);
}

export function JobRow({ job, onRefill }: { job: Job; onRefill: (d: ComposerDraft) => void }) {
  const { live, streamError } = useFollowJob(job);
  const navigate = useNavigate();
  const toast = useErrorToast();
  const unfinished = isUnfinishedJob(live);
  const now = useNow(unfinished);
  const result = jobResult(live);
  const status = jobStatusInfo(live.status);
  const title = jobTitle(live);
  const elapsed = formatElapsed(jobElapsedSeconds(live, now));
  return (
    <li className="job-row" aria-label={title}>
      <div className="job-main">
        <div className="row">
          <ToneBadge tone={status.tone}>{status.label}</ToneBadge>
          <span className="badge">{jobDepth(live)}</span>
        </div>
        <p className="job-title">{title}</p>
        {unfinished && (
          <p className="job-progress" aria-live="polite">
            {live.progress ?? result.progress ?? "Waiting for the service to start…"}
          </p>
        )}
        <dl className="job-facts">
          <div>
            <dt>{unfinished ? "Elapsed" : "Took"}</dt>
            <dd className="mono">{elapsed}</dd>
          </div>
          {result.creditsUsed !== undefined && (
            <div>
              <dt>Credits used{unfinished ? " so far" : ""}</dt>
              <dd>{formatCreditsWord(result.creditsUsed)}</dd>
            </div>
          )}
          {live.status === "completed" && result.totalHumanHours !== undefined && (
            <div>
              <dt>Estimated work</dt>
              <dd>{formatHours(result.totalHumanHours)}</dd>
            </div>
          )}
        </dl>
        {unfinished && live.error && (
          // Why the job is held (no key, a locked keychain, the service out of reach): it goes on
          // by itself once that is fixed.
          <div className="job-held" role="status">
            <p>On hold: {live.error.message}</p>
            <ErrorActions error={live.error} />
          </div>
        )}
        {live.status === "failed" && (
          <div role="alert">
            <p className="error-text">{live.error?.message ?? result.errorMessage ?? "The spec could not be generated."}</p>
            {live.error && <ErrorActions error={live.error} />}
          </div>
        )}
        {live.status === "cancelled" && (
          <p className="muted">Specdesk stopped following this spec. The service may still finish it; it will then appear in your library.</p>
        )}
        {streamError && unfinished && (
          <p className="muted">
            Live updates paused: {streamError.message} Specdesk keeps checking in the background.
          </p>
        )}
      </div>
      <div className="job-actions">
        {live.status === "completed" && live.remoteId && (
          <button className="btn btn-primary" type="button" onClick={() => navigate({ area: "specs", specId: live.remoteId })}>
            Open spec
          </button>
        )}
        {(live.status === "failed" || live.status === "cancelled") && (
          <button className="btn" type="button" onClick={() => onRefill(draftFromJobRequest(live.request))}>
            Edit and try again
          </button>
        )}
        {unfinished && (
          <button
            className="btn btn-ghost"
            type="button"
            onClick={() => {
              call("cancel_job", { jobId: live.id }).catch(toast);
            }}
          >
            Stop following
          </button>
        )}
      </div>
    </li>
  );
}

export function Generations({ onRefill }: { onRefill: (d: ComposerDraft) => void }) {
  const jobs = useSpecJobs();
  if (jobs.isPending) return null;
  if (jobs.isError) {
    return (
      <section aria-labelledby="generations-title" className="generations">
        <h2 id="generations-title">Generations</h2>
        <ErrorPanel error={toIpcError(jobs.error)} onRetry={() => void jobs.refetch()} />
      </section>
    );
  }
  if (jobs.data.length === 0) return null;
  const running = jobs.data.filter(isUnfinishedJob).length;
  return (
    <section aria-labelledby="generations-title" className="generations">
      <div className="section-head">
        <h2 id="generations-title">Generations</h2>
        <span className="muted">{running > 0 ? `${running} running` : "None running"}</span>
      </div>
      <ul className="job-list">
        {jobs.data.map((job) => (
          <JobRow key={job.id} job={job} onRefill={onRefill} />
        ))}
      </ul>
    </section>
  );
}
