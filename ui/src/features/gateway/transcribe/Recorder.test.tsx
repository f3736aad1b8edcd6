// A recording is kept in the media library the moment it stops (its samples as 16-bit PCM, the
// raw IPC body), handed to the studio, and never lost to a failed save: Try again sends the same
// samples. Web Audio is stood in for: jsdom has none.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { MediaItem } from "../../../ipc/contract";
import { NO_RECORDING, Recorder } from "./Recorder";

const ITEM: MediaItem = {
  id: 7,
  kind: "audio",
  path: "/data/media/recording-1-ab.wav",
  prompt: "Recording from the microphone",
  model: "microphone",
  profileId: "sandbox",
  createdAt: "2026-11-26T10:00:00Z",
  settings: { source: "microphone", seconds: 0.1 },
};

/** What the worklet hands over: two blocks of samples. */
const BLOCKS = [new Float32Array([0, 0.5, -0.5]), new Float32Array([1, -1])];
/** The same as 16-bit little-endian PCM. */
const PCM = [0, 0, 0x00, 0x40, 0x00, 0xc0, 0xff, 0x7f, 0x00, 0x80];

type Invoke = (cmd: string, args?: unknown, options?: { headers?: unknown }) => Promise<unknown>;

const world = { nodes: [] as FakeNode[], closed: 0, stoppedTracks: 0, modules: [] as string[] };

class FakeNode {
  port = { onmessage: null as ((e: { data: Float32Array }) => void) | null };
  constructor(
    _context: unknown,
    readonly name: string,
  ) {
    world.nodes.push(this);
  }
  connect() {}
  disconnect() {}
}

class FakeContext {
  sampleRate: number;
  state = "running";
  audioWorklet = {
    addModule: (url: string) => {
      world.modules.push(url);
      return Promise.resolve();
    },
  };
  constructor(options?: { sampleRate?: number }) {
    this.sampleRate = options?.sampleRate ?? 48000;
  }
  createMediaStreamSource() {
    return { connect() {}, disconnect() {} };
  }
  close() {
    world.closed += 1;
    return Promise.resolve();
  }
}

beforeEach(() => {
  world.nodes = [];
  world.closed = 0;
  world.stoppedTracks = 0;
  world.modules = [];
  vi.stubGlobal("AudioContext", FakeContext);
  vi.stubGlobal("AudioWorkletNode", FakeNode);
  Object.defineProperty(navigator, "mediaDevices", {
    configurable: true,
    value: { getUserMedia: () => Promise.resolve({ getTracks: () => [{ stop: () => (world.stoppedTracks += 1) }] }) },
  });
});

afterEach(() => {
  cleanup();
  clearMocks();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, "mediaDevices", { configurable: true, value: undefined });
});

/** Records, lets the worklet hand over BLOCKS, and stops. */
async function recordAndStop() {
  fireEvent.click(screen.getByRole("button", { name: "Record from the microphone" }));
  const stop = await screen.findByRole("button", { name: "Stop recording" });
  const node = world.nodes[0];
  if (!node) throw new Error("no worklet node");
  expect(node.name).toBe("specdesk-pcm-capture");
  act(() => BLOCKS.forEach((data) => node.port.onmessage?.({ data })));
  fireEvent.click(stop);
}

describe("Recorder", () => {
  it("keeps the recording as 16-bit PCM at 16 kHz as soon as it stops, and hands the kept take over", async () => {
    const sent: { bytes: number[] }[] = [];
    mockIPC((cmd, payload) => {
      if (cmd !== "save_recording") throw new Error(`unexpected ${cmd}`);
      sent.push({ bytes: Array.from(payload as Uint8Array) });
      return ITEM;
    });
    // The mock drops an invoke's options: the headers are read on their way in.
    const internals = (window as unknown as { __TAURI_INTERNALS__: { invoke: Invoke } }).__TAURI_INTERNALS__;
    const inner = internals.invoke;
    const headers: unknown[] = [];
    internals.invoke = (cmd, args, options) => {
      headers.push(options?.headers);
      return inner(cmd, args, options);
    };
    const onRecorded = vi.fn();
    render(<Recorder onRecorded={onRecorded} />);
    await recordAndStop();
    await waitFor(() => expect(onRecorded).toHaveBeenCalledWith(ITEM));
    expect(sent.map((s) => s.bytes)).toEqual([PCM]);
    expect(headers).toEqual([{ "x-recording-rate": "16000" }]);
    expect(world.modules).toHaveLength(1);
    expect(world.modules[0]).toMatch(/pcmCapture\.worklet\.js$/);
    // The microphone and the audio context are released.
    expect(world.stoppedTracks).toBe(1);
    expect(world.closed).toBe(1);
    expect(screen.getAllByRole("status").map((s) => s.textContent)).toContain("Your recording is kept with your takes and ready to transcribe.");
    expect(screen.getByRole("button", { name: "Record again" })).toBeTruthy();
    // Played back from the kept file, by the takes' player (whose waveform jsdom cannot draw).
    expect(await screen.findByText("This file cannot be opened in this window.")).toBeTruthy();
  });

  it("shows a failed save with its reason and sends the same samples again on Try again", async () => {
    const sent: number[][] = [];
    mockIPC((cmd, payload) => {
      if (cmd !== "save_recording") throw new Error(`unexpected ${cmd}`);
      sent.push(Array.from(payload as Uint8Array));
      if (sent.length === 1) throw { kind: "storage", message: "Specdesk could not write to its data folder. Free some disk space, then try again." };
      return ITEM;
    });
    const onRecorded = vi.fn();
    render(<Recorder onRecorded={onRecorded} />);
    await recordAndStop();
    expect(await screen.findByText("Specdesk could not write to its data folder. Free some disk space, then try again.")).toBeTruthy();
    expect(onRecorded).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(onRecorded).toHaveBeenCalledWith(ITEM));
    expect(sent).toEqual([PCM, PCM]);
  });

  it("says plainly when the window cannot record", () => {
    vi.stubGlobal("AudioWorkletNode", undefined);
    render(<Recorder onRecorded={() => undefined} />);
    expect(screen.getByText(NO_RECORDING)).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says the microphone could not be opened when the window refuses it", async () => {
    Object.defineProperty(navigator, "mediaDevices", {
      configurable: true,
      value: { getUserMedia: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
    });
    render(<Recorder onRecorded={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Record from the microphone" }));
    expect((await screen.findByRole("status")).textContent).toBe("The microphone could not be opened (no permission, or no microphone). Pick an audio file instead.");
  });

  it("says the sound cannot be captured, and releases the microphone, when the worklet cannot load", async () => {
    vi.stubGlobal(
      "AudioContext",
      class extends FakeContext {
        audioWorklet = { addModule: () => Promise.reject(new Error("blocked")) };
      },
    );
    render(<Recorder onRecorded={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Record from the microphone" }));
    expect((await screen.findByRole("status")).textContent).toBe("This window opened the microphone but cannot capture its sound. Pick an audio file instead.");
    expect(world.stoppedTracks).toBe(1);
    expect(world.closed).toBe(1);
  });

  it("keeps the recording when the studio is left while it runs", async () => {
    const sent: number[][] = [];
    mockIPC((cmd, payload) => {
      if (cmd !== "save_recording") throw new Error(`unexpected ${cmd}`);
      sent.push(Array.from(payload as Uint8Array));
      return ITEM;
    });
    const view = render(<Recorder onRecorded={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Record from the microphone" }));
    await screen.findByRole("button", { name: "Stop recording" });
    act(() => BLOCKS.forEach((data) => world.nodes[0]?.port.onmessage?.({ data })));
    view.unmount();
    await waitFor(() => expect(sent).toEqual([PCM]));
    expect(world.stoppedTracks).toBe(1);
    expect(world.closed).toBe(1);
  });

  it("releases the microphone, keeping nothing, when the studio is left while it opens", async () => {
    let open: (stream: unknown) => void = () => undefined;
    Object.defineProperty(navigator, "mediaDevices", {
      configurable: true,
      value: { getUserMedia: () => new Promise((resolve) => (open = resolve)) },
    });
    const calls: string[] = [];
    mockIPC((cmd) => void calls.push(cmd));
    const view = render(<Recorder onRecorded={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Record from the microphone" }));
    view.unmount();
    await act(async () => open({ getTracks: () => [{ stop: () => (world.stoppedTracks += 1) }] }));
    await waitFor(() => expect(world.closed).toBe(1));
    expect(world.stoppedTracks).toBe(1);
    expect(calls).toEqual([]);
  });

  it("holds Record while a recording is not kept, offers no Try again for a refused one, and discards it on request", async () => {
    mockIPC((cmd) => {
      if (cmd !== "save_recording") throw new Error(`unexpected ${cmd}`);
      throw {
        kind: "invalidInput",
        field: "recording",
        message: "The recording is empty: it was stopped before any sound arrived. Record again, a little longer.",
      };
    });
    render(<Recorder onRecorded={() => undefined} />);
    await recordAndStop();
    expect(await screen.findByText("The recording is empty: it was stopped before any sound arrived. Record again, a little longer.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
    expect((screen.getByRole("button", { name: "Record from the microphone" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Discard this recording" }));
    expect((screen.getByRole("button", { name: "Record from the microphone" }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByRole("button", { name: "Discard this recording" })).toBeNull();
  });
});
