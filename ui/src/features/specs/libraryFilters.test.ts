import { describe, expect, it } from "vitest";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { DEFAULT_FILTERS, checkPattern, matchesFilters, pageRange, plainToPattern, searchPattern, toQuery } from "./libraryFilters";

describe("library filters", () => {
  it("accepts valid patterns and explains a bad one", () => {
    expect(checkPattern("")).toBeNull();
    expect(checkPattern("recipe|meal")).toBeNull();
    expect(checkPattern("^A (habit|recipe)")).toBeNull();
    expect(checkPattern("(recipe")).toBe(
      "“(recipe” is not a search pattern the service can use: a bracket or a special character such as ( [ { * + ? \\ is out of place. Close every bracket, or put a \\ before a special character to search for it as it is.",
    );
    expect(checkPattern("*app")).not.toBeNull();
    expect(checkPattern("[a-")).not.toBeNull();
    expect(checkPattern("c++")).not.toBeNull();
  });

  it("escapes plain text into a pattern that finds exactly that text", () => {
    expect(plainToPattern("c++")).toBe("c\\+\\+");
    expect(plainToPattern("recipe|meal")).toBe("recipe\\|meal");
    expect(plainToPattern("  (beta) $5 deals?  ")).toBe("\\(beta\\)\\s+\\$5\\s+deals\\?");
    expect(plainToPattern("a.b*c^d[e]{f}\\g")).toBe("a\\.b\\*c\\^d\\[e\\]\\{f\\}\\\\g");
    expect(plainToPattern("habit   tracker")).toBe("habit\\s+tracker");
    expect(plainToPattern("café – naïve/über #1 & ~")).toBe("café\\s+–\\s+naïve/über\\s+#1\\s+&\\s+~");
    expect(plainToPattern("   ")).toBe("");
    // The escaped text is a valid pattern that matches the text itself, and only it.
    for (const text of ["c++", "(beta) $5 deals?", "a.b*c^d[e]{f}\\g", "recipe|meal"]) {
      const re = new RegExp(plainToPattern(text), "i");
      expect(re.test(`An app in ${text.toUpperCase()} for all`)).toBe(true);
    }
    expect(new RegExp(plainToPattern("c++"), "i").test("A c app")).toBe(false);
    expect(new RegExp(plainToPattern("recipe|meal"), "i").test("A meal planner")).toBe(false);
    expect(new RegExp(plainToPattern("habit tracker"), "i").test("A habit\n tracker")).toBe(true);
  });

  it("sends plain text escaped and a pattern as typed", () => {
    expect(searchPattern({ search: "c++", pattern: false })).toBe("c\\+\\+");
    expect(searchPattern({ search: "bakery|salon", pattern: true })).toBe("bakery|salon");
    expect(searchPattern({ search: " ", pattern: true })).toBe("");
    expect(toQuery(DEFAULT_FILTERS)).toEqual({ limit: 25, skip: 0 });
    expect(toQuery({ ...DEFAULT_FILTERS, search: "c++" })).toEqual({ limit: 25, skip: 0, search: "c\\+\\+" });
    expect(toQuery({ endpoint: "deep_spec", status: "completed", search: "recipe|meal", pattern: true, pageSize: 50, skip: 50 })).toEqual({
      limit: 50,
      skip: 50,
      endpoint: "deep_spec",
      status: "completed",
      search: "recipe|meal",
    });
  });

  it("filters specs listed from this computer by the service's rules", () => {
    const spec = { _id: "a", created: "", endpoint: "deep_spec", input: "A C++ build dashboard", status: "completed", success: true } as SpecRecord;
    expect(matchesFilters(spec, DEFAULT_FILTERS)).toBe(true);
    expect(matchesFilters(spec, { ...DEFAULT_FILTERS, search: "c++" })).toBe(true);
    expect(matchesFilters(spec, { ...DEFAULT_FILTERS, search: "c++ build" })).toBe(true);
    expect(matchesFilters(spec, { ...DEFAULT_FILTERS, search: "c+" , pattern: true })).toBe(true);
    expect(matchesFilters(spec, { ...DEFAULT_FILTERS, search: "^dashboard", pattern: true })).toBe(false);
    expect(matchesFilters(spec, { ...DEFAULT_FILTERS, search: "(oops", pattern: true })).toBe(false);
    expect(matchesFilters(spec, { ...DEFAULT_FILTERS, endpoint: "fast_spec" })).toBe(false);
    expect(matchesFilters(spec, { ...DEFAULT_FILTERS, status: "failed" })).toBe(false);
  });

  it("words the page range", () => {
    expect(pageRange(20, 20, 57)).toBe("21–40 of 57");
    expect(pageRange(0, 0, 0)).toBe("No specs");
    expect(pageRange(50, 0, 7)).toBe("None here of 7");
  });
});
