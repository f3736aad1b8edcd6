import { describe, expect, it } from "vitest";
import { askMessage, citationsOf, documentsFromFile, orderText, parseDocuments, splitSpec } from "./documents";

describe("parseDocuments", () => {
  it("splits on blank lines, keeps lines within a block, drops empty blocks", () => {
    expect(parseDocuments("Streaks keep teams going.\nSecond line.\n\n\n  Weekly email  \r\n\r\n \t\nCheck-ins daily\n\n")).toEqual([
      "Streaks keep teams going.\nSecond line.",
      "Weekly email",
      "Check-ins daily",
    ]);
    expect(parseDocuments("   \n\n  ")).toEqual([]);
  });

  it("writes the order with original positions", () => {
    const docs = ["Alpha doc", "Beta doc\nmore", "Gamma doc"];
    expect(orderText([{ index: 2, relevance_score: 0.9 }, { index: 0, relevance_score: 0.5 }], docs)).toBe("1. [#3] Gamma doc\n2. [#1] Alpha doc");
  });
});

describe("splitSpec", () => {
  it("makes a section of each heading's prose and a story of each list item", () => {
    const md = [
      "# Team habit tracker",
      "",
      "A habit tracker for small teams.",
      "",
      "## Milestone 1: Accounts",
      "",
      "- S1 Sign up (8 h)",
      "- S2 Invite a teammate (5 h)",
      "",
      "```",
      "- not a story",
      "# not a heading",
      "```",
      "## Milestone 2: Streaks",
      "1. S3 Streak counter (6 h)",
    ].join("\n");
    expect(splitSpec(md)).toEqual([
      { label: "Team habit tracker", text: "Team habit tracker\nA habit tracker for small teams." },
      { label: "Milestone 1: Accounts › S1 Sign up (8 h)", text: "Milestone 1: Accounts: S1 Sign up (8 h)" },
      { label: "Milestone 1: Accounts › S2 Invite a teammate (5 h)", text: "Milestone 1: Accounts: S2 Invite a teammate (5 h)" },
      { label: "Milestone 1: Accounts", text: "Milestone 1: Accounts\n```\n- not a story\n# not a heading\n```" },
      { label: "Milestone 2: Streaks › S3 Streak counter (6 h)", text: "Milestone 2: Streaks: S3 Streak counter (6 h)" },
    ]);
  });
});

describe("ask a spec", () => {
  it("numbers the sections sent and finds the ones the answer cites", () => {
    const msg = askMessage("Habits", " How do streaks work? ", [
      { label: "Streaks", text: "Streaks\nCount days." },
      { label: "Email", text: "Email\nWeekly." },
    ]);
    expect(msg).toBe("Sections of the spec “Habits”:\n\n[1] Streaks\nStreaks\nCount days.\n\n[2] Email\nEmail\nWeekly.\n\nQuestion: How do streaks work?");
    expect(citationsOf("Streaks count days [2]. See also [1, 2] and [7] and [0].", 3)).toEqual([2, 1]);
    expect(citationsOf("No citation here.", 3)).toEqual([]);
  });
});

describe("documents from a file", () => {
  it("takes a CSV row by row, its header left out", () => {
    expect(documentsFromFile("/home/me/features.csv", "name,notes\nStreaks,\"Days in a row, shown weekly\"\nReminders,Daily at 9\n")).toBe(
      "Streaks · Days in a row, shown weekly\n\nReminders · Daily at 9",
    );
    expect(documentsFromFile("rows.CSV", "Streak counter 2024,12\nBadges,3\n")).toBe("Streak counter 2024 · 12\n\nBadges · 3");
  });

  it("takes text and Markdown as they are", () => {
    expect(documentsFromFile("notes.md", "# One\r\n\r\nTwo\n")).toBe("# One\n\nTwo");
  });
});
