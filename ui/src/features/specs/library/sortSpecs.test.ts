import { describe, expect, it } from "vitest";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { nextSort, sortSpecs, type SortOrder } from "./sortSpecs";

function spec(id: string, extra: Partial<SpecRecord>): SpecRecord {
  return { _id: id, created: "2026-11-20T10:00:00.000Z", endpoint: "fast_spec", input: id, status: "completed", success: true, ...extra };
}

// In the service's order (newest first).
const specs: SpecRecord[] = [
  spec("shopping", { input: "A shared shopping list", created: "2026-11-21T09:00:00.000Z", totalHumanHours: 24, creditsUsed: 4 }),
  spec("habits", { input: "a habit tracker", created: "2026-11-20T14:12:00.000Z", totalHumanHours: 86, creditsUsed: 2.5 }),
  spec("cpp", { input: "A C++ build dashboard", endpoint: "deep_spec", created: "2026-11-19T09:30:00.000Z", totalHumanHours: 210, creditsUsed: 18 }),
  spec("pending", { input: "Item 10 of the list", status: "pending", created: "2026-11-22T08:00:00.000Z" }),
  spec("failed", { input: "Item 9 of the list", status: "failed", created: "2026-11-17T08:45:00.000Z", creditsUsed: 0 }),
  spec("running", { input: "A booking app", status: "processing", endpoint: "deep_spec", created: "not a date", creditsUsed: 1.5 }),
];
const name = (s: SpecRecord) => s.input;
const ids = (order: SortOrder | null, titles: Record<string, string> = {}) =>
  sortSpecs(specs, order, (s) => titles[s._id] ?? name(s)).map((s) => s._id);

describe("sorting the library's page", () => {
  it("keeps the service's order when no column is chosen", () => {
    expect(ids(null)).toEqual(["shopping", "habits", "cpp", "pending", "failed", "running"]);
  });

  it("sorts names ignoring case, numbers by value", () => {
    expect(ids({ key: "description", direction: "ascending" })).toEqual(["running", "cpp", "habits", "shopping", "failed", "pending"]);
    expect(ids({ key: "description", direction: "descending" })).toEqual(["pending", "failed", "shopping", "habits", "cpp", "running"]);
  });

  it("sorts by the local title where there is one", () => {
    expect(ids({ key: "description", direction: "ascending" }, { cpp: "Zebra dashboard", failed: "0 — old idea" })).toEqual([
      "failed",
      "running",
      "habits",
      "shopping",
      "pending",
      "cpp",
    ]);
  });

  it("puts rows without a value last in both directions", () => {
    expect(ids({ key: "hours", direction: "ascending" })).toEqual(["shopping", "habits", "cpp", "pending", "failed", "running"]);
    expect(ids({ key: "hours", direction: "descending" })).toEqual(["cpp", "habits", "shopping", "pending", "failed", "running"]);
    expect(ids({ key: "credits", direction: "ascending" })).toEqual(["failed", "running", "habits", "shopping", "cpp", "pending"]);
    expect(ids({ key: "created", direction: "descending" })).toEqual(["pending", "shopping", "habits", "cpp", "failed", "running"]);
    expect(ids({ key: "created", direction: "ascending" })).toEqual(["failed", "cpp", "habits", "shopping", "pending", "running"]);
  });

  it("orders statuses as a spec goes through them and depth fast before deep, ties in the service's order", () => {
    expect(ids({ key: "status", direction: "ascending" })).toEqual(["pending", "running", "shopping", "habits", "cpp", "failed"]);
    expect(ids({ key: "status", direction: "descending" })).toEqual(["failed", "shopping", "habits", "cpp", "running", "pending"]);
    expect(ids({ key: "depth", direction: "ascending" })).toEqual(["shopping", "habits", "pending", "failed", "cpp", "running"]);
    expect(ids({ key: "depth", direction: "descending" })).toEqual(["cpp", "running", "shopping", "habits", "pending", "failed"]);
  });

  it("does not change the array it was given", () => {
    const before = specs.map((s) => s._id);
    sortSpecs(specs, { key: "hours", direction: "descending" }, name);
    expect(specs.map((s) => s._id)).toEqual(before);
  });

  it("a header click sorts ascending first (dates newest first), then toggles", () => {
    expect(nextSort(null, "hours")).toEqual({ key: "hours", direction: "ascending" });
    expect(nextSort({ key: "hours", direction: "ascending" }, "hours")).toEqual({ key: "hours", direction: "descending" });
    expect(nextSort({ key: "hours", direction: "descending" }, "hours")).toEqual({ key: "hours", direction: "ascending" });
    expect(nextSort({ key: "hours", direction: "descending" }, "status")).toEqual({ key: "status", direction: "ascending" });
    expect(nextSort(null, "created")).toEqual({ key: "created", direction: "descending" });
  });
});
