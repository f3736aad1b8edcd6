import { afterEach, describe, expect, it } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { MediaItem } from "../../../ipc/contract";
import { createDb } from "../../../mock/base";
import { mediaHandlers } from "../../../mock/media";
import type { MockContext } from "../../../mock/registry";
import { EMPTY_AB, isReady, isSwapKey, preferredIds, putInSlot, swapActive, syncedTime, togglePreferred } from "./abState";
import { computePeaks, pcm16ToFloat, wavFromPcm16 } from "./waveform";
import { audioModels, modeOf, modelKindLabel } from "./speechModels";

afterEach(() => {
  window.localStorage.clear();
  clearMocks();
});

const key = (k: string, target: EventTarget | null = document.body, mods = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, target, ...mods });

describe("A/B", () => {
  it("fills the slots, trades places, and swaps which is heard", () => {
    let s = putInSlot(EMPTY_AB, "a", 31);
    expect(isReady(s)).toBe(false);
    s = putInSlot(s, "b", 30);
    expect(s).toEqual({ a: 31, b: 30, active: "a" });
    expect(putInSlot(s, "b", 31)).toEqual({ a: 30, b: 31, active: "a" });
    expect(swapActive(s).active).toBe("b");
    expect(swapActive(swapActive(s)).active).toBe("a");
  });
  it("keeps the moment when swapping, within the other take", () => {
    expect(syncedTime(3.5, 10)).toBe(3.5);
    expect(syncedTime(12, 10)).toBe(10);
    expect(syncedTime(2, Number.NaN)).toBe(2);
    expect(syncedTime(Number.NaN, 10)).toBe(0);
  });
  it("swaps on S, not while typing or with a modifier", () => {
    expect(isSwapKey(key("s"))).toBe(true);
    expect(isSwapKey(key("S"))).toBe(true);
    expect(isSwapKey(key("d"))).toBe(false);
    expect(isSwapKey(key("s", document.createElement("input")))).toBe(false);
    expect(isSwapKey(key("s", document.createElement("textarea")))).toBe(false);
    expect(isSwapKey(key("s", document.body, { ctrlKey: true }))).toBe(false);
  });
  it("keeps one preferred take per pair in the library (the mock's, held to Rust's rules)", async () => {
    const db = createDb();
    const take = (id: number): MediaItem => ({ id, kind: "audio", path: `/m/${id}.wav`, prompt: "Hi", model: "o/speech-audio-mini", profileId: "sandbox", createdAt: "" });
    db.media = [take(30), take(31), take(12), take(13)];
    mockIPC((cmd, args) => (mediaHandlers as Record<string, (a: unknown, ctx: MockContext) => unknown>)[cmd]?.(args, { db } as MockContext));
    const byId = (id: number) => db.media.find((m) => m.id === id) as MediaItem;
    await togglePreferred(byId(30), [31, 30]);
    expect(preferredIds(db.media)).toEqual([30]);
    await togglePreferred(byId(31), [31, 30]);
    expect(preferredIds(db.media)).toEqual([31]);
    await togglePreferred(byId(12), [12, 13]);
    expect(preferredIds(db.media)).toEqual([31, 12]);
    await togglePreferred(byId(31), [31, 30]);
    expect(preferredIds(db.media)).toEqual([12]);
  });
});

describe("waveform", () => {
  it("takes the loudest sample of each slice, scaled to the loudest", () => {
    expect(computePeaks([0, 0.5, -0.25, 0.1, 0, -1, 0.2, 0.2], 4)).toEqual([0.5, 0.25, 1, 0.2]);
    expect(computePeaks([0, 0, 0], 2)).toEqual([0, 0]);
    expect(computePeaks([0.5, 0.25], 10)).toEqual([1, 0.5]);
    expect(computePeaks([], 10)).toEqual([]);
  });
  it("reads PCM16 and wraps it as WAV", () => {
    const pcm = new Int16Array([0, 16384, -32768, 32767]).buffer;
    expect(Array.from(pcm16ToFloat(pcm))).toEqual([0, 0.5, -1, 32767 / 32768]);
    const wav = new DataView(wavFromPcm16(pcm, 24000));
    expect(wav.byteLength).toBe(52);
    expect(String.fromCharCode(wav.getUint8(0), wav.getUint8(1), wav.getUint8(2), wav.getUint8(3))).toBe("RIFF");
    expect(wav.getUint32(24, true)).toBe(24000);
    expect(wav.getUint32(40, true)).toBe(8);
    expect(wav.getInt16(46, true)).toBe(16384);
  });
});

describe("speech models", () => {
  it("tells speech from music by the spec's ids", () => {
    expect(modeOf("openai/speech-audio-mini")).toBe("speech");
    expect(modeOf("openai/speech-audio")).toBe("speech");
    expect(modeOf("google/lyria-3-pro-preview")).toBe("music");
    expect(modeOf("openai/gpt-4o-transcribe")).toBeNull();
    expect(modelKindLabel("google/lyria-3-clip-preview")).toBe("Music · clip");
    const list = audioModels(
      [
        { id: "o/speech-audio", input: [], output: [] },
        { id: "o/speech-audio-mini", input: [], output: [] },
        { id: "g/lyria-3-clip-preview", input: [], output: [] },
      ],
      "speech",
    ).map((m) => m.id);
    expect(list).toEqual(["o/speech-audio-mini", "o/speech-audio"]);
  });
});
