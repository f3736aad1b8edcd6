// The Video studio: prompt, model and length with the price per second shown first; each job a
// card followed until it ends (several can run at once; they survive a restart, being in the job
// ledger), then played, with what it cost.
import { useId, useMemo, useState, type FormEvent } from "react";
import type { VideoRequest } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import type { IpcError } from "../../../ipc/contract";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useNotice } from "../../../lib/notices";
import { ModelPicker } from "../models/ModelPicker";
import { videoPriceLine } from "../shared/price";
import { useMedia } from "../shared/queries";
import { useVideoModels } from "../models/queries";
import { VideoJobCard } from "./VideoJobCard";
import { isUnfinished, shownVideoJobs, useAddVideoJob, useVideoJobs } from "./videoJobs";
import "../shared/shared.css";
import "./video.css";

export const VIDEO_SIZES = ["", "1280x720", "720x1280"] as const;

export function VideoStudio() {
  const id = useId();
  const models = useVideoModels();
  const jobs = useVideoJobs();
  const media = useMedia("video");
  const addJob = useAddVideoJob();
  const notice = useNotice();
  const [prompt, setPrompt] = useState("");
  const [model, setModel] = useState("");
  const [seconds, setSeconds] = useState(4);
  const [size, setSize] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);

  const list = useMemo(() => models.data?.list.data ?? [], [models.data]);
  const chosen = model || list[0]?.id || "";
  const picked = list.find((m) => m.id === chosen);
  const running = (jobs.data ?? []).filter(isUnfinished).length;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!prompt.trim() || !chosen || sending) return;
    const request: VideoRequest = { model: chosen, prompt: prompt.trim(), seconds: String(seconds), ...(size ? { size } : {}) };
    setSending(true);
    setError(null);
    try {
      const job = await call("submit_video", { request });
      addJob(job);
      notice("Video started. Its card below follows it until it is done.");
    } catch (err) {
      setError(toIpcError(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="studio video-studio">
      {models.isError && <ErrorPanel error={toIpcError(models.error)} onRetry={() => void models.refetch()} />}
      <form className="card studio-form" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
        <h2 id={`${id}-title`}>New video</h2>
        <div className="field">
          <label htmlFor={`${id}-prompt`}>Prompt</label>
          <textarea id={`${id}-prompt`} className="textarea" value={prompt} placeholder="A paper boat drifting down a rainy street" onChange={(e) => setPrompt(e.target.value)} />
        </div>
        <div className="studio-options">
          <ModelPicker label="Model" models={list} source={models.data} value={chosen} onChange={setModel} />
          <div className="field">
            <label htmlFor={`${id}-seconds`}>Length (seconds)</label>
            <input
              id={`${id}-seconds`}
              className="input"
              type="number"
              min={1}
              max={20}
              value={seconds}
              onChange={(e) => setSeconds(Math.min(20, Math.max(1, Math.round(Number(e.target.value) || 1))))}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-size`}>Size</label>
            <select id={`${id}-size`} className="select" value={size} onChange={(e) => setSize(e.target.value)}>
              {VIDEO_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s ? s.replace("x", " × ") : "Model default"}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="price-line" aria-live="polite">
          {videoPriceLine(picked, seconds)}
        </p>
        {error && <ErrorPanel error={error} onRetry={() => void submit()} />}
        <div className="studio-actions">
          <button className="btn btn-primary" type="submit" disabled={sending || !prompt.trim() || !chosen}>
            {sending ? "Starting…" : "Start video"}
          </button>
          {!prompt.trim() && <span className="muted hint-inline">Write a prompt first.</span>}
        </div>
      </form>
      <section className="studio-section" aria-labelledby={`${id}-jobs`}>
        <div className="section-head">
          {/* Takes the focus when a video is deleted (its Delete is gone). */}
          <h2 id={`${id}-jobs`} className="video-jobs-title" tabIndex={-1}>
            Video jobs
          </h2>
          <span className="muted">{running > 0 ? `${running} running` : "None running"}</span>
        </div>
        {jobs.isError ? (
          <ErrorPanel error={toIpcError(jobs.error)} onRetry={() => void jobs.refetch()} />
        ) : jobs.isPending ? (
          <p className="skeleton">Loading video jobs…</p>
        ) : jobs.data.length === 0 ? (
          <p className="empty">No videos yet. Several can render at once; each is charged when it is done.</p>
        ) : (
          <ul className="video-jobs">
            {shownVideoJobs(jobs.data, media.data && !media.more && !media.isFetching ? media.data : null).map((job) => (
              <VideoJobCard key={job.id} job={job} model={list.find((m) => m.id === (job.request as { model?: string } | null)?.model)} media={media.data ?? []} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
