// One video job, followed through the job ledger until it ends (the job runner keeps following it
// after a restart): its state and progress, what it will cost (charged when the video is done),
// then the player, what it cost, and the file in its folder.
import { useState } from "react";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import type { IpcError, Job, MediaItem, VideoRequest } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { formatCreditsWord as credits, formatElapsed } from "../../../lib/format";
import { useNow } from "../../../lib/useNow";
import { CostLine } from "../shared/CostLine";
import { usePlayableUrl } from "../shared/playable";
import { priceOf } from "../shared/price";
import { isUnfinished, useAddVideoJob, videoRequest, videoResult } from "./videoJobs";
import { useDeleteMedia } from "../shared/useDeleteMedia";
import { SaveCopyButton } from "../shared/SaveCopyButton";

const STATUS: Record<string, { label: string; tone: string }> = {
  queued: { label: "Waiting to send", tone: "warning" },
  submitted: { label: "Queued", tone: "info" },
  running: { label: "Rendering", tone: "info" },
  completed: { label: "Done", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  cancelled: { label: "Stopped", tone: "warning" },
};

export function jobSeconds(job: Job, now: number): number {
  const start = Date.parse(job.createdAt);
  const end = isUnfinished(job) ? now : Date.parse(job.updatedAt);
  return Number.isNaN(start) || Number.isNaN(end) ? 0 : Math.max(0, (end - start) / 1000);
}

function VideoPlayer({ path, label }: { path: string; label: string }) {
  const { url, failed } = usePlayableUrl(path);
  const [broken, setBroken] = useState(false);
  if (failed || broken) return <p className="media-missing">This video could not be played here. Use “Show in folder” to open it.</p>;
  if (!url) return <p className="muted">Loading the video…</p>;
  return <video className="video-player" controls preload="metadata" src={url} aria-label={label} onError={() => setBroken(true)} />;
}

const NOT_MADE: IpcError = { kind: "failed", message: "The service could not make this video." };

/** A video the service could not make: why, in words, and Try again (the same request, as a new
 * job); a new job refused at once shows here instead. */
function FailedVideo({ job }: { job: Job }) {
  const addJob = useAddVideoJob();
  const [again, setAgain] = useState<{ sending: boolean; error: IpcError | null }>({ sending: false, error: null });
  const retry = async () => {
    setAgain({ sending: true, error: null });
    try {
      addJob(await call("submit_video", { request: job.request as VideoRequest }));
      setAgain({ sending: false, error: null });
    } catch (e) {
      setAgain({ sending: false, error: toIpcError(e) });
    }
  };
  return (
    <div className="video-failed">
      <p>Nothing was charged.</p>
      <ErrorPanel error={again.error ?? job.error ?? NOT_MADE} onRetry={again.sending ? undefined : () => void retry()} />
    </div>
  );
}

export function VideoJobCard({ job, model, media }: { job: Job; model: CatalogModel | undefined; media: MediaItem[] }) {
  const toast = useErrorToast();
  const deleteMedia = useDeleteMedia();
  const unfinished = isUnfinished(job);
  const now = useNow(unfinished);
  const req = videoRequest(job);
  const result = videoResult(job);
  const item = media.find((m) => (result.mediaId !== undefined ? m.id === result.mediaId : m.jobId === job.id));
  const path = result.path ?? item?.path;
  const mediaId = result.mediaId ?? item?.id;
  const perSecond = priceOf(model, "credits_per_second");
  const estimate = perSecond !== undefined && req.seconds ? perSecond * req.seconds : undefined;
  const status = STATUS[job.status] ?? { label: job.status, tone: "info" };
  const title = req.prompt || `Video job ${job.id}`;
  return (
    <li className="video-job" aria-label={`Video: ${title}`}>
      <div className="video-job-main">
        <div className="row">
          <span className="badge tone-badge" data-tone={status.tone}>
            {status.label}
          </span>
          <span className="muted">{req.model}</span>
          {req.seconds && <span className="muted">{req.seconds} s</span>}
          {req.size && <span className="muted">{req.size.replace("x", " × ")}</span>}
        </div>
        <p className="job-title prompt-text">{title}</p>
        <dl className="media-meta">
          <div>
            <dt>{unfinished ? "Elapsed" : "Took"}</dt>
            <dd className="mono">{formatElapsed(jobSeconds(job, now))}</dd>
          </div>
          {unfinished && (
            <div>
              <dt>Progress</dt>
              <dd aria-live="polite">{job.progress ?? "Waiting for the service to start…"}</dd>
            </div>
          )}
        </dl>
        {unfinished && (
          <p className="charge-note">
            Charged when the video is done{estimate !== undefined ? `: about ${credits(estimate)}` : ""}. Nothing is charged while it renders,
            and Specdesk keeps following it if you close the app.
          </p>
        )}
        {unfinished && job.error && (
          <div className="job-held">
            <p>On hold until this is sorted out:</p>
            <ErrorPanel error={job.error} />
          </div>
        )}
        {job.status === "failed" && <FailedVideo job={job} />}
        {job.status === "cancelled" && <p className="muted">Specdesk stopped following this video. The service may still finish it.</p>}
        {job.status === "completed" && (
          <>
            {path ? <VideoPlayer path={path} label={`Video: ${title}`} /> : <p className="muted">The video is done; its file is being saved.</p>}
            <CostLine
              charge={{
                ...(result.requestId ? { requestId: result.requestId } : {}),
                ...(result.balanceAfter !== undefined ? { balanceAfter: result.balanceAfter } : {}),
              }}
              creditsFallback={result.credits ?? item?.credits}
              cost={result.cost ?? item?.cost}
            />
          </>
        )}
      </div>
      <div className="studio-actions">
        {job.status === "completed" && mediaId !== undefined && (
          <>
            <SaveCopyButton id={mediaId} />
            <button className="btn" type="button" onClick={() => void call("reveal_media", { id: mediaId }).catch(toast)}>
              Show in folder
            </button>
            <button className="btn btn-ghost" type="button" onClick={() => deleteMedia({ id: mediaId }, "Video", () => document.querySelector<HTMLElement>(".video-jobs-title")?.focus())}>
              Delete<span className="visually-hidden"> this video</span>
            </button>
          </>
        )}
        {unfinished && (
          <button className="btn btn-ghost" type="button" onClick={() => void call("cancel_job", { jobId: job.id }).catch(toast)}>
            Stop following
          </button>
        )}
      </div>
    </li>
  );
}
