// Recording from the microphone, where this window allows it (./capture.ts); otherwise a plain
// sentence says so. A finished recording is kept at once in the media library (`save_recording`:
// its samples as the raw IPC body, written by Rust as a WAV file) and handed to the studio as the
// audio to transcribe, and it plays back here from that file, with its waveform. Nothing said is
// lost: a recording that could not be kept stays in memory with the error (Record is held until
// it is kept or discarded), leaving the studio mid-recording stops and keeps it, and a recording
// stops by itself at the longest a file can hold.
import { useCallback, useEffect, useRef, useState } from "react";
import type { IpcError, MediaItem } from "../../../ipc/contract";
import { callBytes, toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { useNow } from "../../../lib/useNow";
import { useNotice } from "../../../lib/notices";
import { formatElapsed } from "../../../lib/format";
import { AudioPlayer } from "../speech/AudioPlayer";
import { CaptureError, canCapture, maxSeconds, startCapture, type Capture, type Captured } from "./capture";

export const NO_RECORDING = "Recording from the microphone is not available in this window; pick an audio file instead.";
const NO_MICROPHONE = "The microphone could not be opened (no permission, or no microphone). Pick an audio file instead.";
const CANNOT_CAPTURE = "This window opened the microphone but cannot capture its sound. Pick an audio file instead.";

type State = "idle" | "starting" | "recording" | "saving" | "saved" | "failed" | "refused";

function keep(c: Captured): Promise<MediaItem> {
  return callBytes("save_recording", c.pcm, { "x-recording-rate": String(c.sampleRate) });
}

/**
 * Keeps what is left when the studio goes away (a recording under way, or one not kept yet), and
 * gives the way to keep samples once the Recorder is gone: saved, then a notice or the error.
 */
function useKeepOnLeave(capture: React.RefObject<Capture | null>, unsaved: React.RefObject<Captured | null>) {
  // Both stable (useCallback with no dependencies), so the cleanup below sees them as they are.
  const notice = useNotice();
  const toast = useErrorToast();
  const keepInBackground = useCallback(
    (heard: Promise<Captured>) => void heard.then(keep).then(() => notice("Your recording was kept with your takes (Transcription studio)."), toast),
    [notice, toast],
  );
  useEffect(
    () => () => {
      const running = capture.current;
      capture.current = null;
      const held = unsaved.current;
      unsaved.current = null;
      if (running) keepInBackground(running.stop());
      else if (held) keepInBackground(Promise.resolve(held));
    },
    [capture, unsaved, keepInBackground],
  );
  return keepInBackground;
}

export function Recorder({ onRecorded }: { onRecorded: (item: MediaItem) => void }) {
  const [supported] = useState(canCapture);
  const [state, setState] = useState<State>("idle");
  const [started, setStarted] = useState(0);
  const [limit, setLimit] = useState(0);
  const [refusal, setRefusal] = useState("");
  const [captured, setCaptured] = useState<Captured | null>(null);
  const [kept, setKept] = useState<MediaItem | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const capture = useRef<Capture | null>(null);
  // The samples not kept yet, as the leaving studio needs them.
  const unsaved = useRef<Captured | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  const keepInBackground = useKeepOnLeave(capture, unsaved);
  const now = useNow(state === "recording");

  const save = async (c: Captured) => {
    setState("saving");
    setError(null);
    try {
      const item = await keep(c);
      unsaved.current = null;
      if (!mounted.current) return;
      setKept(item);
      setCaptured(null);
      setState("saved");
      onRecorded(item);
    } catch (e) {
      if (!mounted.current) {
        // Gone meanwhile: tried once more, and said if that fails too.
        unsaved.current = null;
        keepInBackground(Promise.resolve(c));
        return;
      }
      setError(toIpcError(e));
      setState("failed");
    }
  };

  const stop = async () => {
    const c = capture.current;
    capture.current = null;
    if (!c) return;
    const heard = await c.stop();
    if (!mounted.current) {
      keepInBackground(Promise.resolve(heard));
      return;
    }
    unsaved.current = heard;
    setCaptured(heard);
    await save(heard);
  };

  // A recording stops by itself at the longest a file can hold.
  useEffect(() => {
    if (state !== "recording" || !limit) return;
    const timer = setTimeout(() => void stop(), Math.max(0, started + limit * 1000 - Date.now()));
    return () => clearTimeout(timer);
  });

  if (!supported) return <p className="muted recorder-note">{NO_RECORDING}</p>;

  const start = async () => {
    setState("starting");
    try {
      const c = await startCapture();
      // The studio was left while the microphone was opening: nothing was recorded yet.
      if (!mounted.current) {
        void c.stop();
        return;
      }
      capture.current = c;
      setLimit(maxSeconds(c.sampleRate));
      setStarted(Date.now());
      setState("recording");
    } catch (e) {
      if (!mounted.current) return;
      setRefusal(e instanceof CaptureError && e.reason === "unsupported" ? CANNOT_CAPTURE : NO_MICROPHONE);
      setState("refused");
    }
  };

  const discard = () => {
    unsaved.current = null;
    setCaptured(null);
    setError(null);
    setState(kept ? "saved" : "idle");
  };

  return (
    <div className="recorder">
      <div className="row">
        {state === "recording" ? (
          <button className="btn" type="button" onClick={() => void stop()}>
            Stop recording
          </button>
        ) : (
          <button className="btn" type="button" disabled={state === "starting" || state === "saving" || state === "failed"} onClick={() => void start()}>
            {kept ? "Record again" : "Record from the microphone"}
          </button>
        )}
        {state === "recording" && (
          <span className="mono" aria-live="off">
            Recording {formatElapsed((now - started) / 1000)} (stops by itself at {formatElapsed(limit)})
          </span>
        )}
      </div>
      {state === "refused" && <p role="status">{refusal}</p>}
      {state === "saving" && <p role="status">Keeping your recording…</p>}
      {state === "saved" && <p role="status">Your recording is kept with your takes and ready to transcribe.</p>}
      {state === "failed" && error && captured && (
        <>
          {/* A refused recording (empty, too long) would be refused again: no Try again for it. */}
          <ErrorPanel error={error} onRetry={error.kind === "invalidInput" ? undefined : () => void save(captured)} />
          <button className="btn btn-ghost" type="button" onClick={discard}>
            Discard this recording
          </button>
        </>
      )}
      {kept && state !== "recording" && <AudioPlayer key={kept.id} item={kept} label="Your recording" />}
    </div>
  );
}
