import { describe, expect, it } from "vitest";
import type { Batch } from "../../../bindings/Batch";
import type { BatchEvent } from "../../../bindings/BatchEvent";
import type { TaskEvent } from "../../../bindings/TaskEvent";
import { connectionWords } from "./BatchHeader";
import { countByPhase, failedCount, initialWatch, screenshotSrc, totalCredits, watchReducer, type WatchState } from "./reducer";

const te = (event: TaskEvent): BatchEvent => ({ type: "taskEvent", event });
const frame = (state: WatchState, events: BatchEvent[]) => watchReducer(state, { type: "frame", events });

function batch(over: Partial<Batch> = {}): Batch {
  return {
    id: "b1",
    total: 3,
    completed: 3,
    results: [
      { url: "https://a.example", instruction: "Read A", input: { password: "s3cret" }, status: "SUCCESS", data: { a: 1 }, cost: 0.01, creditsUsed: 0.1, durationMs: 1000 },
      { url: "https://b.example", status: "TIMEOUT", cost: 0.02, creditsUsed: 0.2, durationMs: 2000, error: "Too slow" },
      { url: "https://c.example", status: "BLOCKED", cost: 0.03, creditsUsed: 0.3, durationMs: 3000 },
    ],
    totalCost: 0.06,
    totalCreditsUsed: 0.6,
    status: "completed",
    createdAt: "2026-11-22T09:00:00Z",
    ...over,
  };
}

describe("watchReducer", () => {
  it("says the connection came back only while it stays back: polling again clears it", () => {
    let s = frame(initialWatch(), [{ type: "polling", batchId: "b1", reason: "dropped" }]);
    expect([s.connection, s.reconnected ?? false]).toEqual(["polling", false]);
    s = frame(s, [{ type: "live", batchId: "b1" }]);
    expect([s.connection, s.reconnected]).toEqual(["live", true]);
    s = frame(s, [{ type: "polling", batchId: "b1", reason: "dropped again" }]);
    expect([s.connection, s.reconnected, s.pollingReason]).toEqual(["polling", false, "dropped again"]);
  });

  it("says a background batch is polled, a lost service is being reconnected, and the record that it dropped", () => {
    const background = "This batch runs in the background, as you chose, so Specdesk reads its progress every few seconds.";
    let s = frame(initialWatch(), [{ type: "polling", batchId: "b1", reason: background }, te({ taskIndex: 0, timestamp: 1, type: "sandbox", status: "starting" })]);
    expect(connectionWords(s)).toBe(`Following by polling — progress is read every few seconds. Reason: ${background}`);
    s = frame(s, [{ type: "reconnecting", reason: "The service had a problem (HTTP 503)." }]);
    expect(connectionWords(s)).toBe(
      "Reconnecting — Specdesk lost the connection to the service and tries again by itself; nothing is lost. Last error: The service had a problem (HTTP 503).",
    );
    s = frame(s, [{ type: "polling", batchId: "b1", reason: background }]);
    expect(s.connection).toBe("polling");
    s = frame(s, [{ type: "done", batch: batch() }]);
    expect(connectionWords(s)).toBe(
      "Finished — every task has ended; this is the batch's full record. The connection dropped on the way; the rest was read by polling, nothing lost.",
    );
    // Sent to wait for the whole result: said so until it comes.
    expect(connectionWords({ ...initialWatch(), waiting: true })).toBe(
      "Waiting for the whole result — the service answers once every task has finished; then every step shows here.",
    );
    // Polled from its start and never dropped: nothing to confess.
    const calm = frame(frame(initialWatch(), [{ type: "polling", batchId: "b1", reason: background }]), [{ type: "done", batch: batch() }]);
    expect(connectionWords(calm)).toBe("Finished — every task has ended; this is the batch's full record.");
  });

  it("applies a whole frame at once: tasks, phases, the first timestamp and the connection", () => {
    const s = frame(initialWatch(), [
      te({ taskIndex: 0, timestamp: 1000, type: "sandbox", status: "starting" }),
      te({ taskIndex: 2, timestamp: 1100, type: "navigation", url: "https://c.example", title: "C" }),
      te({ taskIndex: 0, timestamp: 1500, type: "navigation", url: "https://a.example", title: "A" }),
      te({ taskIndex: 0, timestamp: 3000, type: "done", status: "SUCCESS", durationMs: 2000, data: { ok: true } }),
      { type: "taskResult", result: { taskIndex: 0, status: "SUCCESS", data: { price: 3 } } },
    ]);
    expect(s.connection).toBe("live");
    expect(s.tasks.map((t) => t.phase)).toEqual(["SUCCESS", "queued", "running"]);
    expect(s.tasks[0]).toMatchObject({ url: "https://a.example", title: "A", firstAt: 1000, durationMs: 2000, data: { price: 3 } });
    expect(s.tasks[0]?.steps.map((x) => (x.kind === "event" ? x.event.type : "shot"))).toEqual(["sandbox", "navigation", "done"]);
    expect(s.tasks[2]?.url).toBe("https://c.example");
    expect(s.applied).toBe(5);
  });

  it("keeps one task's events in order across frames, interleaved with others", () => {
    let s = initialWatch();
    s = frame(s, [te({ taskIndex: 1, timestamp: 10, type: "sandbox", status: "starting" }), te({ taskIndex: 0, timestamp: 11, type: "sandbox", status: "starting" })]);
    s = frame(s, [te({ taskIndex: 1, timestamp: 12, type: "waiting", reason: "cloudflare" }), te({ taskIndex: 0, timestamp: 13, type: "validation", ok: true })]);
    s = frame(s, [te({ taskIndex: 1, timestamp: 14, type: "action", success: false, actionType: "click" }), te({ taskIndex: 1, timestamp: 15, type: "error", status: "LOOP", error: "Same page 5 times" })]);
    expect(s.tasks[1]?.steps.map((x) => (x.kind === "event" ? `${x.event.type}@${x.at}` : ""))).toEqual(["sandbox@10", "waiting@12", "action@14", "error@15"]);
    expect(s.tasks[0]?.steps.map((x) => (x.kind === "event" ? x.event.type : ""))).toEqual(["sandbox", "validation"]);
    expect(s.tasks[1]).toMatchObject({ phase: "LOOP", error: "Same page 5 times" });
  });

  it("copies only the tasks a frame touches", () => {
    const a = frame(initialWatch(), [te({ taskIndex: 0, type: "sandbox", status: "starting" }), te({ taskIndex: 1, type: "sandbox", status: "starting" })]);
    const b = frame(a, [te({ taskIndex: 1, type: "validation", ok: true })]);
    expect(b.tasks[0]).toBe(a.tasks[0]);
    expect(b.tasks[1]).not.toBe(a.tasks[1]);
    expect(a.tasks[1]?.steps).toHaveLength(1);
    expect(b.tasks[1]?.steps).toHaveLength(2);
    expect(frame(b, [])).toBe(b);
  });

  it("puts a screenshot together only once every chunk is there, in chunk order", () => {
    const chunk = (chunkIndex: number, data: string, timestamp = 100): BatchEvent =>
      te({ taskIndex: 0, timestamp, type: "screenshot", mimeType: "image/png", chunkIndex, chunkCount: 3, data });
    let s = frame(initialWatch(), [chunk(0, "AAAA"), chunk(2, "CCCC")]);
    expect(s.tasks[0]?.shots).toEqual([]);
    expect(s.tasks[0]?.steps).toEqual([]);
    expect(s.tasks[0]?.pending?.received).toBe(2);
    s = frame(s, [chunk(1, "BBBB")]);
    expect(s.tasks[0]?.shots).toEqual([{ step: 0, src: "data:image/png;base64,AAAABBBBCCCC", mimeType: "image/png", url: undefined, at: 100 }]);
    expect(s.tasks[0]?.steps).toEqual([{ kind: "shot", shot: 0, at: 100 }]);
    expect(s.tasks[0]?.pending).toBeNull();
    // A second screenshot whose last chunk never comes is never shown.
    s = frame(s, [chunk(0, "DDDD", 200), chunk(1, "EEEE", 200)]);
    expect(s.tasks[0]?.shots).toHaveLength(1);
  });

  it("drops a screenshot that is not an image or not base64", () => {
    expect(screenshotSrc("text/html", "PGgxPg==")).toBeNull();
    expect(screenshotSrc("image/png", "<svg onload=alert(1)>")).toBeNull();
    expect(screenshotSrc("image/svg+xml", "PHN2Zy8+")).toBe("data:image/svg+xml;base64,PHN2Zy8+");
    const s = frame(initialWatch(), [te({ taskIndex: 0, type: "screenshot", mimeType: "text/html", chunkIndex: 0, chunkCount: 1, data: "PGgxPg==" })]);
    expect(s.tasks[0]?.shots).toEqual([]);
  });

  it("counts tasks by status and failures", () => {
    const s = frame(watchReducer(initialWatch(), { type: "seed", batch: batch({ status: "processing", total: 5, completed: 0, results: [] }) }), [
      { type: "taskResult", result: { taskIndex: 0, status: "SUCCESS", data: null } },
      { type: "taskResult", result: { taskIndex: 1, status: "TIMEOUT", data: null } },
      { type: "taskResult", result: { taskIndex: 2, status: "TIMEOUT", data: null } },
      te({ taskIndex: 3, type: "sandbox", status: "starting" }),
    ]);
    expect(Object.fromEntries(countByPhase(s.tasks))).toEqual({ SUCCESS: 1, TIMEOUT: 2, running: 1, queued: 1 });
    expect(failedCount(s.tasks)).toBe(2);
  });

  it("takes polling, then the final batch: results, credits, finished; input values are not kept", () => {
    let s = frame(initialWatch(), [{ type: "polling", batchId: "b1", reason: "stream stalled" }]);
    expect(s).toMatchObject({ connection: "polling", pollingReason: "stream stalled" });
    s = frame(s, [{ type: "done", batch: batch() }]);
    expect(s.connection).toBe("finished");
    expect(s.tasks.map((t) => [t.phase, t.creditsUsed, t.durationMs])).toEqual([
      ["SUCCESS", 0.1, 1000],
      ["TIMEOUT", 0.2, 2000],
      ["BLOCKED", 0.3, 3000],
    ]);
    expect(s.tasks[1]?.error).toBe("Too slow");
    expect(totalCredits(s)).toBe(0.6);
    expect(JSON.stringify(s)).not.toContain("s3cret");
  });

  it("shows an error event, and a failed command, as the error state", () => {
    const err = { kind: "network", message: "Lost" };
    expect(frame(initialWatch(), [{ type: "error", error: err }])).toMatchObject({ connection: "error", error: err });
    expect(watchReducer(initialWatch(), { type: "failed", error: err })).toMatchObject({ connection: "error", error: err });
  });

  it("ignores unknown event types and bad task indexes", () => {
    const s = frame(initialWatch(), [{ type: "mystery" } as unknown as BatchEvent, te({ taskIndex: -1, type: "sandbox", status: "x" })]);
    expect(s.tasks).toEqual([]);
    expect(s.applied).toBe(0);
  });

  it("a seed read before the end never overrides what the stream said", () => {
    const s = frame(initialWatch(), [{ type: "done", batch: batch() }]);
    expect(watchReducer(s, { type: "seed", batch: batch({ status: "processing", results: [] }) })).toBe(s);
  });
});

describe("outcomeSentence", () => {
  const t = (phase: string) => ({ index: 0, phase, steps: [], shots: [], pending: null });
  it("never calls a batch with failed or unreported tasks a success", async () => {
    const { outcomeSentence } = await import("./BatchHeader");
    expect(outcomeSentence([t("SUCCESS"), t("SUCCESS")])).toEqual({ text: "All 2 tasks succeeded.", ok: true });
    expect(outcomeSentence([t("SUCCESS"), t("LOOP"), t("running")])).toEqual({ text: "2 of 3 tasks did not succeed.", ok: false });
    expect(outcomeSentence([t("SUCCESS")])).toEqual({ text: "The task succeeded.", ok: true });
  });
});
