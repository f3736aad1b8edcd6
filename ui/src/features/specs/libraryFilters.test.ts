import { describe, expect, it } from "vitest";
import { DEFAULT_FILTERS, checkPattern, pageRange, parsePageSize, toQuery } from "./libraryFilters";

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
  });

  it("takes page sizes from 1 to 100 only", () => {
    expect(parsePageSize("1")).toBe(1);
    expect(parsePageSize(" 100 ")).toBe(100);
    expect(parsePageSize("0")).toBeNull();
    expect(parsePageSize("101")).toBeNull();
    expect(parsePageSize("2.5")).toBeNull();
    expect(parsePageSize("")).toBeNull();
  });

  it("builds the query and the page range", () => {
    expect(toQuery(DEFAULT_FILTERS)).toEqual({ limit: 20, skip: 0 });
    expect(toQuery({ endpoint: "deep_spec", status: "completed", search: "recipe", pageSize: 50, skip: 50 })).toEqual({
      limit: 50,
      skip: 50,
      endpoint: "deep_spec",
      status: "completed",
      search: "recipe",
    });
    expect(pageRange(20, 20, 57)).toBe("21–40 of 57");
    expect(pageRange(0, 0, 0)).toBe("No specs");
  });
});
