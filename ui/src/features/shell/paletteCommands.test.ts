import { describe, expect, it } from "vitest";
import {
  GO_ITEMS,
  NEW_SPEC_ITEM,
  connectionItems,
  filterPalette,
  fold,
  specItems,
  specTitle,
  type PaletteItem,
  type SpecLike,
} from "./paletteCommands";

const PROFILES = [
  { id: "sandbox", name: "Sandbox", active: false, builtIn: true },
  { id: "p_work", name: "Work", active: true, builtIn: false },
  { id: "p_personal", name: "Personal", active: false, builtIn: false },
];

const SPECS: SpecLike[] = [
  { id: "s1", input: "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.", created: "2026-11-20T14:12:00.000Z" },
  { id: "s2", input: "A booking app for a climbing gym: time slots, memberships and a waiver.", created: "2026-11-18T10:03:00.000Z" },
  { id: "s3", input: "Café Übung: a recipe box\nwith a second line about habits", created: "2026-11-22T08:00:00.000Z" },
  { id: "s1", input: "A duplicate of s1 from the local library", created: "2026-11-20T14:12:00.000Z" },
  { id: "s4", fileName: "brief.pdf", created: "2026-11-01T00:00:00.000Z" },
];

function all(): PaletteItem[] {
  return [...GO_ITEMS, NEW_SPEC_ITEM, ...connectionItems(PROFILES), ...specItems(SPECS)];
}

const labels = (items: PaletteItem[]) => items.map((i) => i.label);

describe("the palette's items", () => {
  it("offers every connection but the active one", () => {
    expect(connectionItems(PROFILES).map((i) => [i.id, i.label, i.run])).toEqual([
      ["connection-sandbox", "Switch to Sandbox", { kind: "connection", profileId: "sandbox" }],
      ["connection-p_personal", "Switch to Personal", { kind: "connection", profileId: "p_personal" }],
    ]);
  });

  it("titles a spec by its description's first line, else its file", () => {
    expect(specTitle("  A habit tracker\nsecond line")).toBe("A habit tracker");
    expect(specTitle("word ".repeat(30))).toBe(`${"word ".repeat(16).trim()}…`);
    expect(specTitle("A booking app for a climbing gym: time slots, memberships and a waiver signed on first visit.")).toBe(
      "A booking app for a climbing gym: time slots, memberships and a waiver signed…",
    );
    expect(specTitle(`${"x".repeat(70)}, and then more words`)).toBe(`${"x".repeat(70)}, and…`);
    expect(specTitle("y".repeat(100))).toBe(`${"y".repeat(79)}…`);
    expect(specTitle("", "brief.pdf")).toBe("From the file brief.pdf");
    expect(specTitle(undefined)).toBe("Untitled spec");
  });

  it("keeps one item per spec, dated by its hint", () => {
    const items = specItems(SPECS);
    expect(items.map((i) => [i.id, i.label, i.hint])).toEqual([
      ["spec-s1", "A habit tracker for small teams: daily check-ins, streaks and a weekly summary…", "2026-11-20"],
      ["spec-s2", "A booking app for a climbing gym: time slots, memberships and a waiver.", "2026-11-18"],
      ["spec-s3", "Café Übung: a recipe box", "2026-11-22"],
      ["spec-s4", "From the file brief.pdf", "2026-11-01"],
    ]);
  });
});

describe("filterPalette", () => {
  it("lists everything with an empty query, specs newest first", () => {
    expect(labels(filterPalette(all(), "  "))).toEqual([
      "Specs",
      "Plans",
      "Browser agents",
      "Gateway",
      "Settings",
      "New spec",
      "Switch to Sandbox",
      "Switch to Personal",
      "Café Übung: a recipe box",
      "A habit tracker for small teams: daily check-ins, streaks and a weekly summary…",
      "A booking app for a climbing gym: time slots, memberships and a waiver.",
      "From the file brief.pdf",
    ]);
  });

  it("finds by every word, in any case, with or without accents", () => {
    expect(labels(filterPalette(all(), "PLANS"))).toEqual(["Plans"]);
    expect(labels(filterPalette(all(), "plan"))).toEqual(["Plans"]);
    expect(labels(filterPalette(all(), "cafe ubung"))).toEqual(["Café Übung: a recipe box"]);
    expect(labels(filterPalette(all(), "habit"))).toEqual([
      "Café Übung: a recipe box",
      "A habit tracker for small teams: daily check-ins, streaks and a weekly summary…",
    ]);
    expect(labels(filterPalette(all(), "gym climbing"))).toEqual(["A booking app for a climbing gym: time slots, memberships and a waiver."]);
    expect(labels(filterPalette(all(), "climbing tracker"))).toEqual([]);
  });

  it("finds commands by their keywords", () => {
    expect(labels(filterPalette(all(), "connection"))).toEqual(["Settings", "Switch to Sandbox", "Switch to Personal"]);
    expect(labels(filterPalette(all(), "sandbox"))).toEqual(["Switch to Sandbox"]);
    expect(labels(filterPalette(all(), "create"))).toEqual(["New spec"]);
    expect(labels(filterPalette(all(), "brief.pdf"))).toEqual(["From the file brief.pdf"]);
  });

  it("shows at most the newest 50 matching specs", () => {
    const many: SpecLike[] = Array.from({ length: 120 }, (_, i) => ({
      id: `m${i}`,
      input: `Spec number ${i}${i % 2 ? " odd" : ""}`,
      created: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    const shown = filterPalette(specItems(many), "odd");
    expect(shown).toHaveLength(50);
    expect(shown[0]?.label).toBe("Spec number 119 odd");
    expect(shown[49]?.label).toBe("Spec number 21 odd");
    expect(filterPalette(specItems(many), "", 3).map((i) => i.id)).toEqual(["spec-m119", "spec-m118", "spec-m117"]);
  });

  it("folds text for matching", () => {
    expect(fold("  Café   ÜBUNG\tx ")).toBe("cafe ubung x");
  });
});
