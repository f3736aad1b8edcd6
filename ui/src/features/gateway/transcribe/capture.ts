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
  /** The rate the samples are kept at (Hz). */
  sampleRate: number;
  /** Ends the capture, releases the microphone, and gives what was heard. */
  stop: () => Promise<Captured>;
}

/** The longest recording kept (Rust takes a file of at most 100 MB; half an hour of speech at
 * 16 kHz is about 58 MB). */
export function maxSeconds(sampleRate: number): number {
  return Math.min(30 * 60, Math.floor((100 * 1024 * 1024 - 44) / (2 * sampleRate)));
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
  let context: AudioContext | undefined;
  try {
    context = newContext();
    const ctx = context;
    await ctx.audioWorklet.addModule(new URL("./pcmCapture.worklet.js", import.meta.url).href);
    const source = ctx.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(ctx, PROCESSOR);
    const blocks: Float32Array[] = [];
    node.port.onmessage = (e: MessageEvent<Float32Array>) => blocks.push(e.data);
    source.connect(node);
    // Connected through to the output (it writes silence there), so the graph runs it.
    node.connect(ctx.destination);
    if (ctx.state === "suspended") await ctx.resume();
    const finish = async (): Promise<Captured> => {
      source.disconnect();
      node.disconnect();
      node.port.onmessage = null;
      release();
      const sampleRate = ctx.sampleRate;
      await ctx.close().catch(() => undefined);
      return { pcm: toPcm16(blocks), sampleRate, seconds: durationOf(blocks, sampleRate) };
    };
    let stopped: Promise<Captured> | undefined;
    // Once: a second call (the studio left while it was stopping) gets the same samples.
    return { sampleRate: ctx.sampleRate, stop: () => (stopped ??= finish()) };
  } catch {
    release();
    void context?.close().catch(() => undefined);
    throw new CaptureError("unsupported");
  }
}
