import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, renderHook } from "@testing-library/react";
import { LAST_ROUTE_KEY, pushRoute, restoreLastRoute, useHashRoute } from "./history";

function at(hash: string) {
  window.history.replaceState(null, "", `/index.html?scenario=x${hash}`);
}

beforeEach(() => {
  window.localStorage.clear();
  at("");
});
afterEach(() => {
  window.localStorage.clear();
});

describe("restoreLastRoute", () => {
  it("reopens the last place when the window opens without a hash", () => {
    window.localStorage.setItem(LAST_ROUTE_KEY, JSON.stringify("#/specs/abc123"));
    expect(restoreLastRoute()).toBe(true);
    expect(window.location.hash).toBe("#/specs/abc123");
    expect(window.location.search).toBe("?scenario=x");
  });

  it("keeps a hash the window was opened with", () => {
    window.localStorage.setItem(LAST_ROUTE_KEY, JSON.stringify("#/specs/abc123"));
    at("#/gateway");
    expect(restoreLastRoute()).toBe(false);
    expect(window.location.hash).toBe("#/gateway");
  });

  it("ignores a kept value that names no place", () => {
    window.localStorage.setItem(LAST_ROUTE_KEY, JSON.stringify("#/nowhere"));
    expect(restoreLastRoute()).toBe(false);
    window.localStorage.setItem(LAST_ROUTE_KEY, "{not json");
    expect(restoreLastRoute()).toBe(false);
    expect(window.location.hash).toBe("");
  });
});

describe("useHashRoute", () => {
  it("follows navigate(), rewrites a bad hash and keeps the last place", () => {
    at("#/nowhere");
    const { result } = renderHook(() => useHashRoute());
    expect(result.current.route).toEqual({ area: "specs" });
    expect(window.location.hash).toBe("#/specs");
    const length = window.history.length;
    act(() => result.current.navigate({ area: "plans", target: { specId: "6741a0c3e4b0f1a2b3c4d5e6" } }));
    expect(result.current.route).toEqual({ area: "plans", target: { specId: "6741a0c3e4b0f1a2b3c4d5e6" } });
    expect(window.location.hash).toBe("#/plans?specId=6741a0c3e4b0f1a2b3c4d5e6");
    expect(window.history.length).toBe(length + 1);
    expect(JSON.parse(window.localStorage.getItem(LAST_ROUTE_KEY) ?? "null")).toBe("#/plans?specId=6741a0c3e4b0f1a2b3c4d5e6");
    // The same place again adds no entry.
    act(() => pushRoute({ area: "plans", target: { specId: "6741a0c3e4b0f1a2b3c4d5e6" } }));
    expect(window.history.length).toBe(length + 1);
  });

  it("keeps the route object while the place is the same", () => {
    at("#/plans?projectId=6741a0c3e4b0f1a2b3c4d5aa");
    const { result, rerender } = renderHook(() => useHashRoute());
    const first = result.current.route;
    rerender();
    expect(result.current.route).toBe(first);
  });

  it("gives each new entry its own id; a replaced view keeps the entry and adds none", () => {
    const SPEC = "6741a0c3e4b0f1a2b3c4d5e6";
    at("#/specs");
    const { result } = renderHook(() => useHashRoute());
    const first = result.current.entry;
    expect(first).not.toBe("");
    act(() => result.current.navigate({ area: "plans", target: { specId: SPEC } }));
    const plan = result.current.entry;
    expect(plan).not.toBe(first);
    const length = window.history.length;
    act(() => result.current.navigate({ area: "plans", target: { specId: SPEC }, filter: "suggested" }, { replace: true }));
    expect(window.location.hash).toBe(`#/plans?specId=${SPEC}&filter=suggested`);
    expect(result.current.route).toEqual({ area: "plans", target: { specId: SPEC }, filter: "suggested" });
    expect(result.current.entry).toBe(plan);
    expect(window.history.length).toBe(length);
    act(() => result.current.navigate({ area: "specs", specId: SPEC, tab: "human" }));
    expect(window.location.hash).toBe(`#/specs/${SPEC}?tab=human`);
    expect(window.history.length).toBe(length + 1);
    expect(result.current.entry).not.toBe(plan);
  });
});

describe("the library's list", () => {
  const SPEC = "6741a0c3e4b0f1a2b3c4d5e6";

  it("is kept in the address and for the next launch; a way back to the list that names none reopens it", () => {
    at("#/specs?page=2&q=recipe&bogus=1");
    const { result } = renderHook(() => useHashRoute());
    expect(window.location.hash).toBe("#/specs?q=recipe&page=2");
    expect(result.current.route).toEqual({ area: "specs", list: "q=recipe&page=2" });

    act(() => result.current.navigate({ area: "specs", list: "q=recipe&status=failed&page=2" }, { replace: true }));
    expect(window.location.hash).toBe("#/specs?q=recipe&status=failed&page=2");
    expect(JSON.parse(window.localStorage.getItem(LAST_ROUTE_KEY) ?? "null")).toBe("#/specs?q=recipe&status=failed&page=2");

    // Opening a spec, then its "All specs" (or the Specs button): the same list, a new entry.
    act(() => result.current.navigate({ area: "specs", specId: SPEC }));
    const length = window.history.length;
    act(() => result.current.navigate({ area: "specs" }));
    expect(window.location.hash).toBe("#/specs?q=recipe&status=failed&page=2");
    expect(window.history.length).toBe(length + 1);

    // The library saying "the defaults" is obeyed, and is then the list a way back reopens.
    act(() => result.current.navigate({ area: "specs", list: "" }, { replace: true }));
    expect(window.location.hash).toBe("#/specs");
    act(() => result.current.navigate({ area: "gateway" }));
    act(() => result.current.navigate({ area: "specs" }));
    expect(window.location.hash).toBe("#/specs");
  });

  it("reopens with its list at a relaunch", () => {
    window.localStorage.setItem(LAST_ROUTE_KEY, JSON.stringify("#/specs?status=failed&q=c%2B%2B&sort=-hours"));
    expect(restoreLastRoute()).toBe(true);
    expect(window.location.hash).toBe("#/specs?q=c%2B%2B&status=failed&sort=-hours");
  });
});
