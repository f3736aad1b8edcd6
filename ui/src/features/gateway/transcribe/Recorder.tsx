// Recording from the microphone, where this window allows it (getUserMedia and MediaRecorder);
// otherwise a plain sentence says so. A recording is played back here; sending it needs a file
// the app can read, so the user is told to save and pick it until the app can take it directly.
import { useEffect, useRef, useState } from "react";
import { useNow } from "../../../lib/useNow";
import { formatElapsed } from "../../../lib/format";

export const NO_RECORDING = "Recording is not available in this window; pick a file instead.";

export function canRecord(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function" && typeof window.MediaRecorder === "function";
}

export function Recorder() {
  const [supported] = useState(canRecord);
  const [state, setState] = useState<"idle" | "recording" | "done" | "denied">("idle");
  const [started, setStarted] = useState(0);
  const [url, setUrl] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const now = useNow(state === "recording");
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  useEffect(() => () => recorder.current?.stream.getTracks().forEach((t) => t.stop()), []);

  if (!supported) return <p className="muted recorder-note">{NO_RECORDING}</p>;

  const start = async () => {
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const rec = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      rec.ondataavailable = (e) => chunks.push(e.data);
      rec.onstop = () => {
        stream.getTracks().forEach((t) => t.stop());
        setUrl(URL.createObjectURL(new Blob(chunks, { type: rec.mimeType || "audio/webm" })));
        setState("done");
      };
      recorder.current = rec;
      rec.start();
      setStarted(Date.now());
      setState("recording");
    } catch {
      setState("denied");
    }
  };

  return (
    <div className="recorder">
      <div className="row">
        {state === "recording" ? (
          <button className="btn" type="button" onClick={() => recorder.current?.stop()}>
            Stop recording
          </button>
        ) : (
          <button className="btn" type="button" onClick={() => void start()}>
            {state === "done" ? "Record again" : "Record from the microphone"}
          </button>
        )}
        {state === "recording" && (
          <span className="mono" aria-live="off">
            Recording {formatElapsed((now - started) / 1000)}
          </span>
        )}
      </div>
      {state === "denied" && <p role="status">The microphone could not be opened (no permission, or no microphone). Pick a file instead.</p>}
      {state === "done" && url && (
        <>
          <audio controls src={url} aria-label="Your recording" />
          <p className="muted">
            Specdesk cannot send a recording made in this window yet: save it as a file with your recorder app and pick it above.
          </p>
        </>
      )}
    </div>
  );
}
