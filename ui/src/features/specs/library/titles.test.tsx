import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, render, renderHook } from "@testing-library/react";
import { TITLES_KEY, cleanTitle, reloadSpecTitles, setSpecTitle, specTitle, useSpecTitle, useSpecTitles } from "./titles";

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  reloadSpecTitles();
});

describe("local titles", () => {
  it("keeps a title by spec id in localStorage, cleaned", () => {
    setSpecTitle("6650f1c2a9b3e4d5f6a7b8c9", "  Recipe   box ");
    expect(specTitle("6650f1c2a9b3e4d5f6a7b8c9")).toBe("Recipe box");
    expect(JSON.parse(window.localStorage.getItem(TITLES_KEY) ?? "null")).toEqual({ "6650f1c2a9b3e4d5f6a7b8c9": "Recipe box" });
    setSpecTitle("7750f1c2a9b3e4d5f6a7b8c9", "CRM");
    expect(JSON.parse(window.localStorage.getItem(TITLES_KEY) ?? "null")).toEqual({
      "6650f1c2a9b3e4d5f6a7b8c9": "Recipe box",
      "7750f1c2a9b3e4d5f6a7b8c9": "CRM",
    });
  });

  it("an empty title removes the local one", () => {
    setSpecTitle("a", "Recipe box");
    setSpecTitle("a", "   ");
    expect(specTitle("a")).toBeUndefined();
    expect(JSON.parse(window.localStorage.getItem(TITLES_KEY) ?? "null")).toEqual({});
  });

  it("cuts a title at 120 characters and ignores stored values of the wrong shape", () => {
    expect(cleanTitle("x".repeat(130))).toHaveLength(120);
    expect(cleanTitle(" a\n\tb ")).toBe("a b");
    window.localStorage.setItem(TITLES_KEY, JSON.stringify({ a: "Kept", b: 42, c: "" }));
    reloadSpecTitles();
    expect(specTitle("a")).toBe("Kept");
    expect(specTitle("b")).toBeUndefined();
    expect(specTitle("c")).toBeUndefined();
    window.localStorage.setItem(TITLES_KEY, "not json");
    reloadSpecTitles();
    expect(specTitle("a")).toBeUndefined();
  });

  it("useSpecTitle and useSpecTitles show a change made anywhere", () => {
    const one = renderHook(() => useSpecTitle("a"));
    const all = renderHook(() => useSpecTitles());
    expect(one.result.current).toBeUndefined();
    act(() => setSpecTitle("a", "Recipe box"));
    expect(one.result.current).toBe("Recipe box");
    expect(all.result.current).toEqual({ a: "Recipe box" });
    act(() => setSpecTitle("b", "CRM"));
    expect(one.result.current).toBe("Recipe box");
    expect(all.result.current).toEqual({ a: "Recipe box", b: "CRM" });
  });

  it("follows a title changed in another window", () => {
    function Title() {
      return <span>{useSpecTitle("a") ?? "none"}</span>;
    }
    const { container } = render(<Title />);
    expect(container.textContent).toBe("none");
    act(() => {
      window.localStorage.setItem(TITLES_KEY, JSON.stringify({ a: "From the other window" }));
      window.dispatchEvent(new StorageEvent("storage", { key: TITLES_KEY }));
    });
    expect(container.textContent).toBe("From the other window");
  });
});
