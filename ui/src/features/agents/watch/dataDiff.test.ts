import { describe, expect, it } from "vitest";
import { dataChanges, pathText, shortValue } from "./dataDiff";

describe("dataChanges", () => {
  it("is empty for equal data, whatever the key order", () => {
    expect(dataChanges({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toEqual([]);
    expect(dataChanges(null, undefined)).toEqual([]);
    expect(dataChanges("yes", "yes")).toEqual([]);
  });

  it("names each changed, added and removed path with its values", () => {
    const before = { title: "Kettle", price: 12.5, items: [{ name: "lid" }, { name: "base" }], stock: true };
    const after = { title: "Kettle", price: 13, items: [{ name: "lid" }, { name: "plug" }, { name: "cord" }], colour: "red" };
    expect(dataChanges(before, after)).toEqual([
      { path: "price", text: "12.5 → 13" },
      { path: "items[1].name", text: '"base" → "plug"' },
      { path: "items[2]", text: 'added {"name":"cord"}' },
      { path: "stock", text: "removed (was true)" },
      { path: "colour", text: 'added "red"' },
    ]);
  });

  it("says when the data as a whole came, went or changed kind", () => {
    expect(dataChanges(null, { passed: true })).toEqual([{ path: "(the whole data)", text: 'added {"passed":true}' }]);
    expect(dataChanges({ passed: true }, undefined)).toEqual([{ path: "(the whole data)", text: 'removed (was {"passed":true})' }]);
    expect(dataChanges([1], { a: 1 })).toEqual([{ path: "(the whole data)", text: '[1] → {"a":1}' }]);
    expect(dataChanges("no", "yes")).toEqual([{ path: "(the whole data)", text: '"no" → "yes"' }]);
  });

  it("writes paths as code would and cuts long values", () => {
    expect(pathText(["rows", 0, "unit price"])).toBe('rows[0]["unit price"]');
    expect(pathText([3])).toBe("[3]");
    expect(pathText([])).toBe("(the whole data)");
    expect(shortValue("x".repeat(60))).toBe(`"${"x".repeat(38)}…`);
    expect(shortValue(undefined)).toBe("nothing");
  });
});
