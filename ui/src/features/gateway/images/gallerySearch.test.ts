import { describe, expect, it } from "vitest";
import { canCompare, filterByPrompt, otherModel, toggleCompare } from "./gallerySearch";

const items = [{ prompt: "A lighthouse at dusk, watercolour" }, { prompt: "A lighthouse at dawn" }, { prompt: "Café logo (v2.*)" }];

describe("gallery search", () => {
  it("matches every word, any case, accents ignored, as plain text", () => {
    expect(filterByPrompt(items, "")).toHaveLength(3);
    expect(filterByPrompt(items, "LIGHTHOUSE")).toHaveLength(2);
    expect(filterByPrompt(items, "dusk lighthouse")).toEqual([items[0]]);
    expect(filterByPrompt(items, "cafe")).toEqual([items[2]]);
    expect(filterByPrompt(items, "(v2.*)")).toEqual([items[2]]);
    expect(filterByPrompt(items, ".*")).toEqual([items[2]]);
    expect(filterByPrompt(items, "night")).toEqual([]);
  });
  it("picks two or four images to compare, never more than four", () => {
    let s: number[] = [];
    for (const id of [1, 2, 3, 4, 5]) s = toggleCompare(s, id);
    expect(s).toEqual([1, 2, 3, 4]);
    expect(canCompare(s)).toBe(true);
    s = toggleCompare(s, 2);
    expect(s).toEqual([1, 3, 4]);
    expect(canCompare(s)).toBe(false);
    expect(canCompare([1, 3])).toBe(true);
  });
  it("offers the next model for the same prompt", () => {
    expect(otherModel(["a", "b", "c"], "a")).toBe("b");
    expect(otherModel(["a", "b", "c"], "c")).toBe("a");
    expect(otherModel(["a", "b"], "gone")).toBe("a");
    expect(otherModel(["a"], "a")).toBeUndefined();
  });
});

describe("the gallery's columns", () => {
  it("are as many 220 px cards with their 16 px gaps as fit, one at least", async () => {
    const { columnsFor } = await import("./GalleryGrid");
    expect([0, 219, 220, 455, 456, 1000, 1400].map(columnsFor)).toEqual([1, 1, 1, 1, 2, 4, 6]);
  });
});
