import { describe, expect, it } from "vitest";
import { NO_COMPARE, compareReducer, comparing, ttftOf, wordCount, type CompareAction, type CompareState } from "./compare";

const run = (actions: CompareAction[], from: CompareState = NO_COMPARE) => actions.reduce(compareReducer, from);

describe("compare", () => {
  const started = run([
    {
      type: "start",
      prompt: "Name it",
      lanes: [
        { model: "a/one", streamId: "s1" },
        { model: "b/two", streamId: "s2" },
        { model: "c/three", streamId: "s3" },
      ],
      at: 1000,
    },
  ]);

  it("streams every lane together with its own first-token time, length and credits", () => {
    const s = run(
      [
        { type: "text", streamId: "s2", text: "Quick ", at: 1120 },
        { type: "text", streamId: "s1", text: "Slow ", at: 1400 },
        { type: "text", streamId: "s2", text: "answer.", at: 1450 },
        { type: "done", streamId: "s2", text: "Quick answer.", credits: 0.02, requestId: "req_2", balanceAfter: 41.5, at: 1500 },
        { type: "text", streamId: "s1", text: "one", at: 1600 },
      ],
      started,
    );
    expect(s.lanes.map((l) => [l.model, l.status, l.text, ttftOf(l), l.credits, l.requestId, l.balanceAfter])).toEqual([
      ["a/one", "streaming", "Slow one", 400, undefined, undefined, undefined],
      ["b/two", "done", "Quick answer.", 120, 0.02, "req_2", 41.5],
      ["c/three", "waiting", "", undefined, undefined, undefined, undefined],
    ]);
    expect(comparing(s)).toBe(true);
    expect(wordCount(s.lanes[0]?.text ?? "")).toBe(2);
  });

  it("marks a broken lane cut off, a stopped one stopped, a refused one failed, and picks only a finished winner", () => {
    let s = run(
      [
        { type: "text", streamId: "s1", text: "Half", at: 1100 },
        { type: "error", streamId: "s1", error: { kind: "stream", message: "Broke." }, at: 1200 },
        { type: "error", streamId: "s3", error: { kind: "rateLimited", message: "Wait." }, at: 1200 },
        { type: "text", streamId: "s2", text: "Full", at: 1300 },
      ],
      started,
    );
    expect(s.lanes.map((l) => l.status)).toEqual(["cut", "streaming", "error"]);
    s = compareReducer(s, { type: "winner", model: "b/two" });
    expect(s.winner).toBeUndefined();
    s = run([{ type: "done", streamId: "s2", text: "", credits: 0.03, at: 1400 }, { type: "text", streamId: "s2", text: " late", at: 1500 }], s);
    expect(s.lanes[1]).toMatchObject({ status: "done", text: "Full", credits: 0.03 });
    expect(comparing(s)).toBe(false);
    expect(compareReducer(s, { type: "winner", model: "c/three" }).winner).toBeUndefined();
    expect(compareReducer(s, { type: "winner", model: "a/one" }).winner).toBe("a/one");
    expect(compareReducer(s, { type: "winner", model: "b/two" }).winner).toBe("b/two");
    const stopped = compareReducer(started, { type: "error", streamId: "s1", error: { kind: "cancelled", message: "Stopped." }, at: 1100 });
    expect(stopped.lanes[0]?.status).toBe("stopped");
  });

  it("streams a failed lane again under a new stream id, from scratch; other lanes are kept", () => {
    const failed = run(
      [
        { type: "error", streamId: "s1", error: { kind: "server", message: "The service had a problem." }, at: 1100 },
        { type: "done", streamId: "s2", text: "Fine.", credits: 0.02, at: 1200 },
        { type: "text", streamId: "s3", text: "Half", at: 1300 },
        { type: "error", streamId: "s3", error: { kind: "stream", message: "Broke off." }, at: 1400 },
      ],
      started,
    );
    const s = run(
      [
        { type: "retry", streamId: "s1", newStreamId: "s4", at: 2000 },
        // Only a failed lane (no text) is tried again: a cut one keeps its text.
        { type: "retry", streamId: "s3", newStreamId: "s5", at: 2000 },
        { type: "text", streamId: "s4", text: "Again", at: 2300 },
      ],
      failed,
    );
    expect(s.lanes.map((l) => [l.streamId, l.status, l.text, ttftOf(l), l.error?.kind])).toEqual([
      ["s4", "streaming", "Again", 300, undefined],
      ["s2", "done", "Fine.", 200, undefined],
      ["s3", "cut", "Half", 300, "stream"],
    ]);
    expect(comparing(s)).toBe(true);
  });
});
