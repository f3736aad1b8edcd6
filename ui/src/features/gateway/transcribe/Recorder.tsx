// Recording from the microphone, where this window allows it (./capture.ts); otherwise a plain
// sentence says so. A finished recording is kept at once in the media library (`save_recording`:
// its samples as the raw IPC body, written by Rust as a WAV file) and handed to the studio as the
// audio to transcribe, and it plays back here from that file, with its waveform. A recording that could not be kept
// stays in memory with the error and a way to try again, so nothing said is lost.
import { useEffect, useRef, useState } from "react";
import type { IpcError, MediaItem } from "../../../ipc/contract";
import { callBytes, toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useNow } from "../../../lib/useNow";
import { formatElapsed } from "../../../lib/format";
import { AudioPlayer } from "../speech/AudioPlayer";
import { CaptureError, canCapture, startCapture, type Capture, type Captured } from "./capture";

export const NO_RECORDING = "Recording from the microphone is not available in this window; pick an audio file instead.";
const NO_MICROPHONE = "The microphone could not be opened (no permission, or no microphone). Pick an audio file instead.";
const CANNOT_CAPTURE = "This window opened the microphone but cannot capture its sound. Pick an audio file instead.";

type State = "idle" | "starting" | "recording" | "saving" | "saved" | "failed" | "refused";

export function Recorder({ onRecorded }: { onRecorded: (item: MediaItem) => void }) {
  const [supported] = useState(canCapture);
  const [state, setState] = useState<State>("idle");
  const [started, setStarted] = useState(0);
  const [refusal, setRefusal] = useState("");
  const [captured, setCaptured] = useState<Captured | null>(null);
  const [kept, setKept] = useState<MediaItem | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const capture = useRef<Capture | null>(null);
  const now = useNow(state === "recording");
  // Leaving the studio mid-recording releases the microphone.
  useEffect(() => () => void capture.current?.stop(), []);

  if (!supported) return <p className="muted recorder-note">{NO_RECORDING}</p>;

  const save = async (c: Captured) => {
    setState("saving");
    setError(null);
    try {
      const item = await callBytes("save_recording", c.pcm, { "x-recording-rate": String(c.sampleRate) });
      setKept(item);
      setCaptured(null);
      setState("saved");
      onRecorded(item);
    } catch (e) {
      setError(toIpcError(e));
      setState("failed");
    }
  };

  const start = async () => {
    setState("starting");
    try {
      capture.current = await startCapture();
      setStarted(Date.now());
      setState("recording");
    } catch (e) {
      setRefusal(e instanceof CaptureError && e.reason === "unsupported" ? CANNOT_CAPTURE : NO_MICROPHONE);
      setState("refused");
    }
  };

  const stop = async () => {
    const c = capture.current;
    capture.current = null;
    if (!c) return;
    const heard = await c.stop();
    setCaptured(heard);
    await save(heard);
  };

  return (
    <div className="recorder">
      <div className="row">
        {state === "recording" ? (
          <button className="btn" type="button" onClick={() => void stop()}>
            Stop recording
          </button>
        ) : (
          <button className="btn" type="button" disabled={state === "starting" || state === "saving"} onClick={() => void start()}>
            {kept ? "Record again" : "Record from the microphone"}
          </button>
        )}
        {state === "recording" && (
          <span className="mono" aria-live="off">
            Recording {formatElapsed((now - started) / 1000)}
          </span>
        )}
      </div>
      {state === "refused" && <p role="status">{refusal}</p>}
      {state === "saving" && <p role="status">Keeping your recording…</p>}
      {state === "saved" && <p role="status">Your recording is kept with your takes and ready to transcribe.</p>}
      {state === "failed" && error && captured && <ErrorPanel error={error} onRetry={() => void save(captured)} />}
      {kept && state !== "recording" && <AudioPlayer key={kept.id} item={kept} label="Your recording" />}
    </div>
  );
}
