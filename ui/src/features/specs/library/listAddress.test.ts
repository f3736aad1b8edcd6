import { describe, expect, it } from "vitest";
import { DEFAULT_FILTERS } from "../libraryFilters";
import { DEFAULT_VIEW, canonicalList, formatList, parseList, type ListView } from "./listAddress";

const view = (filters: Partial<ListView["filters"]>, rest: Partial<Omit<ListView, "filters">> = {}): ListView => ({
  ...DEFAULT_VIEW,
  ...rest,
  filters: { ...DEFAULT_FILTERS, ...filters },
});

describe("the library's list in its address", () => {
  it("writes nothing for the defaults, and every choice in one order", () => {
    expect(formatList(DEFAULT_VIEW)).toBe("");
    expect(
      formatList(
        view(
          { search: "recipe box", pattern: false, endpoint: "fast_spec", status: "failed", pageSize: 10, skip: 20 },
          { sort: { key: "hours", direction: "descending" }, showArchived: true },
        ),
      ),
    ).toBe("q=recipe+box&depth=fast&status=failed&size=10&page=3&sort=-hours&archived=1");
    expect(formatList(view({ search: "  c++  ", endpoint: "deep_spec", pageSize: 50 }, { sort: { key: "created", direction: "ascending" } }))).toBe(
      "q=c%2B%2B&depth=deep&size=50&sort=created",
    );
    // The page size's default is left out, the page is counted from 1.
    expect(formatList(view({ pageSize: 25, skip: 25 }))).toBe("page=2");
    // "Pattern" ticked with nothing typed is kept: the box shows it ticked.
    expect(formatList(view({ pattern: true }))).toBe("pattern=1");
  });

  it("reads back every list it writes", () => {
    const lists: ListView[] = [
      DEFAULT_VIEW,
      view({ search: "recipe|meal", pattern: true, status: "completed", pageSize: 50, skip: 100 }),
      view({ search: "Student deals (beta): offers under $5 near campus? #1 & 50% off", endpoint: "deep_spec", status: "pending" }),
      view({ status: "processing", pageSize: 10, skip: 990 }, { sort: { key: "description", direction: "ascending" }, showArchived: true }),
      view({ search: "ünïcødé 日本語" }, { sort: { key: "credits", direction: "descending" } }),
    ];
    for (const list of lists) expect(parseList(formatList(list))).toEqual(list);
  });

  it("reads each parameter alone: an unusable value gives its default, the others are kept", () => {
    expect(parseList("q=recipe&status=secret")).toEqual(view({ search: "recipe" }));
    expect(parseList("size=7&page=2")).toEqual(view({ skip: 25 }));
    expect(parseList("size=1e1&page=2")).toEqual(view({ skip: 25 }));
    expect(parseList("size=10&page=0")).toEqual(view({ pageSize: 10 }));
    expect(parseList("page=-2")).toEqual(DEFAULT_VIEW);
    expect(parseList("page=2.5")).toEqual(DEFAULT_VIEW);
    expect(parseList("page=100001")).toEqual(DEFAULT_VIEW);
    expect(parseList("page=100000&size=10")).toEqual(view({ pageSize: 10, skip: 999_990 }));
    expect(parseList("depth=medium&sort=price&archived=yes&pattern=true")).toEqual(DEFAULT_VIEW);
    expect(parseList("sort=-")).toEqual(DEFAULT_VIEW);
    expect(parseList("sort=--hours")).toEqual(DEFAULT_VIEW);
    expect(parseList("sort=__proto__&depth=toString&status=constructor")).toEqual(DEFAULT_VIEW);
    expect(parseList("q=%20%20&pattern=1")).toEqual(view({ pattern: true }));
    // A pattern that is not a valid regular expression is never run: the search is dropped.
    expect(parseList("q=(recipe&pattern=1&status=failed")).toEqual(view({ pattern: true, status: "failed" }));
    // The same text as plain text is fine.
    expect(parseList("q=(recipe")).toEqual(view({ search: "(recipe" }));
    // The first of a repeated parameter counts.
    expect(parseList("status=failed&status=completed")).toEqual(view({ status: "failed" }));
  });

  it("never throws on a malformed query", () => {
    for (const bad of ["%", "q=%E0%A4%A", "&&&", "=", "q", "q==", "?q=a", "%%%=%%%", "q=\u0000"]) {
      expect(() => parseList(bad), bad).not.toThrow();
    }
    expect(parseList("q")).toEqual(DEFAULT_VIEW);
  });

  it("writes any query in its one form", () => {
    expect(canonicalList("page=2&q=a%20b&size=25&unknown=1")).toBe("q=a+b&page=2");
    expect(canonicalList("sort=hours&status=failed")).toBe("status=failed&sort=hours");
    expect(canonicalList("")).toBe("");
  });
});
