import { describe, expect, it } from "vitest";
import { durationOf, toPcm16 } from "./pcm";

describe("toPcm16", () => {
  it("joins the blocks as 16-bit little-endian samples, clipped to their range", () => {
    const bytes = toPcm16([new Float32Array([0, 1, -1]), new Float32Array([0.5, 2, -3])]);
    const view = new DataView(bytes.buffer);
    const samples = Array.from({ length: bytes.length / 2 }, (_, i) => view.getInt16(i * 2, true));
    expect(samples).toEqual([0, 32767, -32768, 16384, 32767, -32768]);
  });

  it("gives nothing for no sound", () => {
    expect(toPcm16([]).length).toBe(0);
  });
});

describe("durationOf", () => {
  it("counts the samples at the rate", () => {
    expect(durationOf([new Float32Array(16000), new Float32Array(8000)], 16000)).toBe(1.5);
  });
});
