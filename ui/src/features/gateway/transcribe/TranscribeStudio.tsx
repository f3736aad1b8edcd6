// The Transcription studio: an audio file (picked in the app's dialog, dropped on the window, or
// a take from the history), the model, then the transcript with copy, .txt and .srt exports and
// what it cost. A recording from the microphone (where the window allows it) is kept with the
// takes and becomes the audio to transcribe.
import { useId, useMemo, useState } from "react";
import type { IpcError, MediaItem, Transcription } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { useFileDrop } from "../../../ipc/events";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { copyText } from "../../../lib/clipboard";
import { useNotice } from "../../../lib/notices";
import { CostLine } from "../shared/CostLine";
import { fileName, historyNumbers, isRecording } from "../shared/media";
import { formatElapsed } from "../../../lib/format";
import { ModelPicker } from "../models/ModelPicker";
import { transcriptionPriceLine } from "../shared/price";
import { useMedia, useRefreshMedia } from "../shared/queries";
import { useGatewayModels } from "../models/queries";
import { useMeteredCall } from "../shared/useMeteredCall";
import { Recorder } from "./Recorder";
import { SourceFileActions } from "./SourceFileActions";
import { ListMore } from "../shared/ListMore";
import { RunningElsewhere } from "../shared/RunningElsewhere";
import { segmentsOf, toSrt, transcriptFileName, transcriptionModels } from "./srt";
import "../shared/shared.css";
import "./transcribe.css";

/**
 * How a take of the history is named, by its number `n` there (historyNumbers, as the Speech
 * studio names it): a recording by its length, a generated take by its text.
 */
export function takeLabel(t: MediaItem, n: number | undefined): string {
  if (!isRecording(t)) return `Take ${n}: ${t.prompt.slice(0, 60)}`;
  const seconds = Number(t.settings?.seconds);
  return seconds > 0 ? `Recording ${n} (${formatElapsed(seconds)})` : `Recording ${n}`;
}

interface Source {
  path: string;
  label: string;
  /** Set for a take of the media library. */
  mediaId?: number;
}

export function TranscribeStudio() {
  const id = useId();
  const catalog = useGatewayModels();
  const takes = useMedia("audio");
  const refreshMedia = useRefreshMedia();
  const notice = useNotice();
  const toast = useErrorToast();
  const job = useMeteredCall<Transcription>();
  const [source, setSource] = useState<Source | null>(null);
  const [transcribed, setTranscribed] = useState<Source | null>(null);
  const [model, setModel] = useState("");
  const [pickError, setPickError] = useState<IpcError | null>(null);

  const models = useMemo(() => transcriptionModels(catalog.data?.list.data ?? []), [catalog.data]);
  const chosen = model || models[0]?.id || "";

  useFileDrop("drag-drop", (paths) => {
    if (paths[0]) setSource({ path: paths[0], label: fileName(paths[0]) });
  });

  const pick = async () => {
    setPickError(null);
    try {
      const path = await call("choose_file", { purpose: "recording" });
      if (path) setSource({ path, label: fileName(path) });
    } catch (e) {
      setPickError(toIpcError(e));
    }
  };

  const transcribe = async () => {
    if (!source || !chosen) return;
    const from = source;
    // A take is read from the media folder by its id; any other file was picked or dropped.
    const t = await job.run(() =>
      from.mediaId !== undefined ? call("transcribe_media", { id: from.mediaId, model: chosen }) : call("transcribe", { path: from.path, model: chosen }),
    );
    if (t) setTranscribed(from);
  };

  const save = async (ext: "txt" | "srt") => {
    if (!job.result || !transcribed) return;
    const contents = ext === "srt" ? toSrt(segmentsOf(job.result)) : job.result.text;
    try {
      const path = await call("save_document", { fileName: transcriptFileName(transcribed.label, ext), contents, choose: false });
      if (path) notice(`Saved to ${path}`);
    } catch (e) {
      toast(e);
    }
  };

  const segments = job.result ? segmentsOf(job.result) : [];
  const takeList = takes.data ?? [];
  const numbers = useMemo(() => historyNumbers(takes.data ?? []), [takes.data]);

  return (
    <div className="studio transcribe-studio">
      {catalog.isError && <ErrorPanel error={toIpcError(catalog.error)} onRetry={() => void catalog.refetch()} />}
      <form
        className="card studio-form"
        aria-labelledby={`${id}-title`}
        onSubmit={(e) => {
          e.preventDefault();
          void transcribe();
        }}
      >
        <h2 id={`${id}-title`}>Transcribe audio</h2>
        <div className="drop-zone transcribe-source">
          <p className="drop-text">
            {source ? (
              <>
                Audio: <strong className="file-chosen">{source.label}</strong>
                {source.mediaId !== undefined && <SourceFileActions mediaId={source.mediaId} label={source.label} onDeleted={() => setSource(null)} />}
              </>
            ) : (
              "Drop an audio file on the window, pick one, or choose a take."
            )}
          </p>
          <button className="btn" type="button" onClick={() => void pick()}>
            Pick an audio file…
          </button>
        </div>
        {pickError && <ErrorPanel error={pickError} onRetry={() => void pick()} />}
        <div className="studio-options">
          <div className="field">
            <label htmlFor={`${id}-take`}>Or a take from the history</label>
            <select
              id={`${id}-take`}
              className="select"
              value={takeList.find((t) => t.path === source?.path)?.id ?? ""}
              onChange={(e) => {
                const t = takeList.find((x) => x.id === Number(e.target.value));
                if (t) setSource({ path: t.path, label: takeLabel(t, numbers.get(t.id)), mediaId: t.id });
              }}
            >
              <option value="">{takeList.length ? "Choose a take" : takes.isError ? "Could not list takes" : "No takes yet"}</option>
              {takeList.map((t) => (
                <option key={t.id} value={t.id}>
                  {takeLabel(t, numbers.get(t.id))}
                </option>
              ))}
            </select>
            <ListMore shown={takeList.length} total={takes.total} noun="audio file" more={!!takes.more} onMore={takes.loadMore} />
          </div>
          <ModelPicker label="Transcription model" models={models} source={catalog.data} value={chosen} onChange={setModel} price={chosen ? transcriptionPriceLine(models.find((m) => m.id === chosen)) : undefined} />
        </div>
        {takes.isError && <ErrorPanel error={toIpcError(takes.error)} onRetry={() => void takes.refetch()} />}
        <Recorder
          onRecorded={(item) => {
            // The newest recording: numbered after those of the history.
            const n = historyNumbers([...takeList.filter((t) => t.id !== item.id), item]).get(item.id);
            setSource({ path: item.path, label: takeLabel(item, n), mediaId: item.id });
            refreshMedia();
          }}
        />
        {job.error && <ErrorPanel error={job.error} onRetry={() => void transcribe()} />}
        <RunningElsewhere kinds={["transcription"]} busy={job.pending} />
        <div className="studio-actions">
          <button className="btn btn-primary" type="submit" disabled={!source || !chosen || job.pending}>
            {job.pending ? "Transcribing…" : "Transcribe"}
          </button>
          {!source && <span className="muted hint-inline">Choose the audio first.</span>}
        </div>
      </form>
      {job.result && transcribed && (
        <section className="card studio-section" aria-labelledby={`${id}-result`}>
          <div className="section-head">
            <h2 id={`${id}-result`}>Transcript of {transcribed.label}</h2>
            <div className="studio-actions">
              <button
                className="btn"
                type="button"
                onClick={() => {
                  copyText(job.result?.text ?? "")
                    .then(() => notice("Transcript copied."))
                    .catch(toast);
                }}
              >
                Copy
              </button>
              <button className="btn" type="button" onClick={() => void save("txt")}>
                Export .txt
              </button>
              {segments.length > 0 && (
                <button className="btn" type="button" onClick={() => void save("srt")}>
                  Export .srt
                </button>
              )}
            </div>
          </div>
          {job.result.text.trim() ? (
            <div className="transcript pre-wrap" role="region" aria-label="Transcript" tabIndex={0}>
              {job.result.text}
            </div>
          ) : (
            <p className="empty">The service heard no words in this audio.</p>
          )}
          <p className="muted hint-inline">
            {segments.length > 0 ? `${segments.length} timed segments: .srt subtitles can be exported.` : "The answer has no timings, so only plain text can be exported."}
          </p>
          <CostLine charge={job.charge} cost={job.result.usage?.cost} />
        </section>
      )}
    </div>
  );
}
