// Sound from the microphone, captured with Web Audio (getUserMedia, then an audio worklet that
// hands the samples over), the same on every web view: WebKitGTK's MediaRecorder refuses every
// format on common Linux systems (no encoder it can use), and the gateway takes WAV everywhere.
// The context asks for 16 kHz, the rate speech models work at (the web view resamples); one that
// cannot falls back to the device's rate, which the file then records.
import { durationOf, toPcm16 } from "./pcm";

const SPEECH_RATE = 16_000;
const PROCESSOR = "specdesk-pcm-capture";

/** A finished capture: mono 16-bit PCM at `sampleRate`, and how long it lasts. */
export interface Captured {
  pcm: Uint8Array;
  sampleRate: number;
  seconds: number;
}

/** A capture under way. */
export interface Capture {
  /** Ends the capture, releases the microphone, and gives what was heard. */
  stop: () => Promise<Captured>;
}

/** Why a capture could not start: the microphone refused, or this window cannot capture sound. */
export class CaptureError extends Error {
  constructor(readonly reason: "microphone" | "unsupported") {
    super(reason);
    this.name = "CaptureError";
  }
}

/** Whether this window has what a capture needs. */
export function canCapture(): boolean {
  return (
    typeof navigator !== "undefined" &&
    typeof navigator.mediaDevices?.getUserMedia === "function" &&
    typeof window.AudioContext === "function" &&
    typeof window.AudioWorkletNode === "function"
  );
}

function newContext(): AudioContext {
  try {
    return new AudioContext({ sampleRate: SPEECH_RATE });
  } catch {
    return new AudioContext();
  }
}

/** Opens the microphone and starts keeping its samples. */
export async function startCapture(): Promise<Capture> {
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  } catch {
    throw new CaptureError("microphone");
  }
  const release = () => stream.getTracks().forEach((t) => t.stop());
  const context = newContext();
  try {
    await context.audioWorklet.addModule(new URL("./pcmCapture.worklet.js", import.meta.url).href);
    const source = context.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(context, PROCESSOR);
    const blocks: Float32Array[] = [];
    node.port.onmessage = (e: MessageEvent<Float32Array>) => blocks.push(e.data);
    source.connect(node);
    // Connected through to the output (it writes silence there), so the graph runs it.
    node.connect(context.destination);
    if (context.state === "suspended") await context.resume();
    return {
      stop: async () => {
        source.disconnect();
        node.disconnect();
        node.port.onmessage = null;
        release();
        const sampleRate = context.sampleRate;
        await context.close().catch(() => undefined);
        return { pcm: toPcm16(blocks), sampleRate, seconds: durationOf(blocks, sampleRate) };
      },
    };
  } catch {
    release();
    void context.close().catch(() => undefined);
    throw new CaptureError("unsupported");
  }
}
