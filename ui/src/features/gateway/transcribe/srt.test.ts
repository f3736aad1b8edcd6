import { describe, expect, it } from "vitest";
import { segmentsOf, srtTime, toSrt, transcriptFileName, transcriptionModels } from "./srt";

describe("srt", () => {
  it("formats times as SubRip does", () => {
    expect(srtTime(0)).toBe("00:00:00,000");
    expect(srtTime(65.25)).toBe("00:01:05,250");
    expect(srtTime(3723.0004)).toBe("01:02:03,000");
    expect(srtTime(-2)).toBe("00:00:00,000");
  });
  it("numbers the cues and skips empty ones", () => {
    expect(
      toSrt([
        { start: 0, end: 1.5, text: " Hello. " },
        { start: 1.5, end: 2, text: "  " },
        { start: 2, end: 3.25, text: "Bye." },
      ]),
    ).toBe("1\n00:00:00,000 --> 00:00:01,500\nHello.\n\n2\n00:00:02,000 --> 00:00:03,250\nBye.\n");
  });
  it("uses timings only when every segment is well formed", () => {
    expect(segmentsOf({ text: "a" })).toEqual([]);
    expect(segmentsOf({ text: "a", segments: [{ start: 0, end: 1, text: "a" }] } as never)).toEqual([{ start: 0, end: 1, text: "a" }]);
    expect(segmentsOf({ text: "a", segments: [{ start: 2, end: 1, text: "a" }] } as never)).toEqual([]);
    expect(segmentsOf({ text: "a", segments: [{ start: 0, end: "1", text: "a" }] } as never)).toEqual([]);
  });
  it("names the export after the audio", () => {
    expect(transcriptFileName("/home/me/Stand-up Notes.m4a", "srt")).toBe("stand-up-notes-transcript.srt");
    expect(transcriptFileName("Take 12: Welcome", "txt")).toBe("take-12-welcome-transcript.txt");
  });
  it("finds transcription models in the catalog", () => {
    const ids = transcriptionModels([
      { id: "openai/gpt-4o-transcribe", input: ["audio"], output: ["text"] },
      { id: "openai/gpt-4o-mini-audio", input: ["text", "audio"], output: ["text", "audio"] },
      { id: "x/listener", input: ["audio"], output: ["text"] },
      { id: "anthropic/claude", input: ["text"], output: ["text"] },
    ]).map((m) => m.id);
    expect(ids).toEqual(["openai/gpt-4o-transcribe", "x/listener"]);
  });
});
