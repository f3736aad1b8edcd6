import { describe, expect, it } from "vitest";
import { initialWatch, watchReducer } from "./reducer";
import { exportFileName, resultsCsv, resultsJson } from "./exportResults";
import { cellText, tableColumns } from "./dataTable";
import { utilizationPercent, waitSentence } from "./capacity";
import type { CapacitySnapshot } from "../../../bindings/CapacitySnapshot";

function finished() {
  return watchReducer(initialWatch(), {
    type: "frame",
    events: [
      {
        type: "done",
        batch: {
          id: "6750aaaa0000000000000010",
          total: 2,
          completed: 2,
          results: [
            { url: "https://a.example", instruction: 'Read "the" price, then stop', input: { password: "s3cret" }, status: "SUCCESS", data: [{ name: "Mug", price: 6 }], cost: 0.01, creditsUsed: 0.1, durationMs: 1200 },
            { url: "https://b.example", input: { token: "tok-XYZ" }, status: "BLOCKED", cost: 0.02, creditsUsed: 0.2, durationMs: 800, error: "=HYPERLINK(\"x\")" },
          ],
          totalCost: 0.03,
          totalCreditsUsed: 0.3,
          status: "completed",
          createdAt: "2026-11-22T09:00:00Z",
          completedAt: "2026-11-22T09:01:00Z",
        },
      },
    ],
  });
}

describe("exports", () => {
  it("writes CSV with a header, quoted cells, data as JSON and no input values", () => {
    const csv = resultsCsv(finished().tasks);
    expect(csv).toBe(
      "task,url,instruction,status,durationMs,creditsUsed,cost,error,data\r\n" +
        '1,https://a.example,"Read ""the"" price, then stop",SUCCESS,1200,0.1,0.01,,"[{""name"":""Mug"",""price"":6}]"\r\n' +
        `2,https://b.example,,BLOCKED,800,0.2,0.02,"'=HYPERLINK(""x"")",\r\n`,
    );
    expect(csv).not.toContain("s3cret");
    expect(csv).not.toContain("tok-XYZ");
  });

  it("writes JSON with the batch's facts and each result, no input values", () => {
    const s = finished();
    const json = resultsJson({ id: "6750aaaa0000000000000010", status: "completed", createdAt: "2026-11-22T09:00:00Z", completedAt: "2026-11-22T09:01:00Z", totalCreditsUsed: 0.3, totalCost: 0.03 }, s.tasks);
    expect(JSON.parse(json)).toEqual({
      batchId: "6750aaaa0000000000000010",
      status: "completed",
      createdAt: "2026-11-22T09:00:00Z",
      completedAt: "2026-11-22T09:01:00Z",
      totalCreditsUsed: 0.3,
      totalCost: 0.03,
      results: [
        { task: 1, url: "https://a.example", instruction: 'Read "the" price, then stop', status: "SUCCESS", durationMs: 1200, creditsUsed: 0.1, cost: 0.01, error: "", data: [{ name: "Mug", price: 6 }] },
        { task: 2, url: "https://b.example", instruction: "", status: "BLOCKED", durationMs: 800, creditsUsed: 0.2, cost: 0.02, error: '=HYPERLINK("x")', data: null },
      ],
    });
    expect(json).not.toMatch(/s3cret|tok-XYZ|"input"/);
    expect(exportFileName("6750aaaa0000000000000010", "csv")).toBe("batch-6750aaaa-results.csv");
  });
});

describe("data as a table", () => {
  it("is a table for an array of like records, with columns in order of appearance", () => {
    expect(tableColumns([{ name: "A", price: 1 }, { name: "B", price: 2, url: "u" }])).toEqual(["name", "price", "url"]);
    expect(tableColumns([{ a: 1, b: 2, c: 3 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }])).toEqual(["a", "b", "c"]);
  });

  it("is not a table for other shapes", () => {
    expect(tableColumns({ name: "A" })).toBeNull();
    expect(tableColumns([])).toBeNull();
    expect(tableColumns([1, 2])).toBeNull();
    expect(tableColumns([{ a: 1 }, "x"])).toBeNull();
    expect(tableColumns([{ a: 1 }, { b: 2 }, { c: 3 }])).toBeNull();
    expect(tableColumns([{ a: 1, b: 1, c: 1 }, { a: 1, b: 1, c: 1 }, { a: 1, z: 1 }])).toBeNull();
    expect(tableColumns(null)).toBeNull();
  });

  it("shows cells as text", () => {
    expect([cellText("x"), cellText(2), cellText(false), cellText(null), cellText(undefined), cellText({ a: [1] })]).toEqual(["x", "2", "false", "", "", '{"a":[1]}']);
  });
});

describe("capacity sentence", () => {
  const snap = (over: Partial<CapacitySnapshot>): CapacitySnapshot => ({
    totalActive: 3, maxSandboxes: 50, perUserCap: 10, pending: 0, running: 3, claimed: 0, failed: 0, utilization: 0.06, oldestQueuedAgeMs: 0, topUsers: [], workers: [], ...over,
  });
  it("says what the wait is", () => {
    expect(waitSentence(snap({}))).toBe("Workers are free; a new task starts right away.");
    expect(waitSentence(snap({ utilization: 1, totalActive: 50, pending: 12, oldestQueuedAgeMs: 41_600 }))).toBe("All workers are busy; a new task waits about 42 s to start.");
    expect(waitSentence(snap({ utilization: 1, totalActive: 50 }))).toBe("All workers are busy; a new task starts as soon as one finishes.");
    expect(waitSentence(snap({ pending: 1, oldestQueuedAgeMs: 1200 }))).toBe("1 task is queued; a new task waits about 1 s to start.");
    expect(waitSentence(snap({ utilization: 0.85 }))).toBe("Workers are nearly all busy; a new task should start within a few seconds.");
    expect(utilizationPercent(snap({ utilization: 1.7 }))).toBe(100);
    expect(utilizationPercent(snap({ utilization: 0.064 }))).toBe(6);
  });
});
