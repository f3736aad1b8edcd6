import { afterEach, describe, expect, it } from "vitest";
import { EMPTY_AB, isReady, isSwapKey, loadPreferred, markPreferred, putInSlot, swapActive, syncedTime, unmarkPreferred } from "./abState";
import { computePeaks, pcm16ToFloat, wavFromPcm16 } from "./waveform";
import { audioModels, modeOf, modelKindLabel } from "./speechModels";

afterEach(() => window.localStorage.clear());

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
  it("keeps one preferred take per pair in localStorage", () => {
    let p = markPreferred(loadPreferred(), [31, 30], 30);
    expect(p).toEqual([30]);
    p = markPreferred(p, [31, 30], 31);
    expect(p).toEqual([31]);
    p = markPreferred(p, [12, 13], 12);
    expect(loadPreferred()).toEqual([31, 12]);
    expect(unmarkPreferred(p, 31)).toEqual([12]);
    expect(loadPreferred()).toEqual([12]);
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
