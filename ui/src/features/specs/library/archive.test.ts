import { afterEach, describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { ARCHIVE_KEY, archiveSpec, isArchived, refreshArchived, reloadArchive, unarchiveSpec, useArchived } from "./archive";

afterEach(() => {
  window.localStorage.clear();
  reloadArchive();
});

function spec(id: string, extra: Partial<SpecRecord> = {}): SpecRecord {
  return { _id: id, created: "2026-11-20T10:00:00.000Z", endpoint: "fast_spec", input: `Spec ${id}`, status: "completed", success: true, ...extra };
}

describe("the local archive", () => {
  it("keeps an archived spec with its connection, time and row, and forgets it on unarchive", () => {
    archiveSpec("sandbox", spec("a"), new Date("2026-11-22T10:00:00.000Z"));
    expect(isArchived("a")).toBe(true);
    expect(isArchived("b")).toBe(false);
    expect(JSON.parse(window.localStorage.getItem(ARCHIVE_KEY) ?? "null")).toEqual({
      a: { connection: "sandbox", at: "2026-11-22T10:00:00.000Z", spec: spec("a") },
    });
    unarchiveSpec("a");
    expect(isArchived("a")).toBe(false);
    expect(JSON.parse(window.localStorage.getItem(ARCHIVE_KEY) ?? "null")).toEqual({});
  });

  it("lists one connection's archived specs, the most recently archived first", () => {
    const { result } = renderHook(() => useArchived("sandbox"));
    expect(result.current).toEqual([]);
    act(() => {
      archiveSpec("sandbox", spec("a"), new Date("2026-11-22T10:00:00.000Z"));
      archiveSpec("work", spec("w"), new Date("2026-11-22T10:30:00.000Z"));
      archiveSpec("sandbox", spec("b"), new Date("2026-11-22T11:00:00.000Z"));
    });
    expect(result.current.map((a) => a.spec._id)).toEqual(["b", "a"]);
    act(() => unarchiveSpec("b"));
    expect(result.current.map((a) => a.spec._id)).toEqual(["a"]);
  });

  it("updates the kept row when the service lists the spec again, and only then", () => {
    archiveSpec("sandbox", spec("a", { status: "processing", progress: "Drafting" }), new Date("2026-11-22T10:00:00.000Z"));
    const before = window.localStorage.getItem(ARCHIVE_KEY);
    refreshArchived([spec("a", { status: "processing", progress: "Drafting" }), spec("z")]);
    expect(window.localStorage.getItem(ARCHIVE_KEY)).toBe(before);
    refreshArchived([spec("a", { totalHumanHours: 40 })]);
    expect(JSON.parse(window.localStorage.getItem(ARCHIVE_KEY) ?? "null")).toEqual({
      a: { connection: "sandbox", at: "2026-11-22T10:00:00.000Z", spec: spec("a", { totalHumanHours: 40 }) },
    });
    expect(isArchived("z")).toBe(false);
  });

  it("drops stored entries of the wrong shape", () => {
    window.localStorage.setItem(
      ARCHIVE_KEY,
      JSON.stringify({ a: { connection: "sandbox", at: "2026-11-22T10:00:00.000Z", spec: spec("a") }, b: { connection: "sandbox" }, c: "x" }),
    );
    reloadArchive();
    expect(isArchived("a")).toBe(true);
    expect(isArchived("b")).toBe(false);
    expect(isArchived("c")).toBe(false);
  });
});
