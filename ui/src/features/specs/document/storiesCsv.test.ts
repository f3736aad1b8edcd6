import { describe, expect, it } from "vitest";
import deep from "../../../../../crates/types/tests/fixtures/specs/spec-result-deep.json";
import type { ScopeOfWork } from "../../../bindings/ScopeOfWork";
import { csvCell, neutralizeFormula, storiesCsv, storiesFileName, storyRows, toCsv } from "./storiesCsv";

const sow = (milestones: ScopeOfWork["milestones"]): ScopeOfWork => ({
  executiveSummary: "",
  coreFunctionalities: [],
  techStack: [],
  techStackGrouped: {},
  milestones,
});

describe("CSV cells", () => {
  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a, b")).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("one\r\ntwo")).toBe('"one\r\ntwo"');
    expect(csvCell("")).toBe("");
  });

  it("puts a ' before a cell a spreadsheet would read as a formula", () => {
    expect(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "a=1", "1-2"].map(neutralizeFormula)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      "a=1",
      "1-2",
    ]);
    // Guarded first, then quoted.
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
  });

  it("ends every record with CRLF", () => {
    expect(toCsv([["a", "b"], ["c,d", "e"]])).toBe('a,b\r\n"c,d",e\r\n');
  });
});

describe("stories as CSV", () => {
  it("has one row per story of the deep fixture, with hours and joined criteria", () => {
    const human = deep.humanSpecJson as ScopeOfWork;
    expect(storyRows(human)).toEqual([
      ["id", "title", "milestone", "hours", "complexity", "acceptance criteria"],
      ...human.milestones.flatMap((m) =>
        m.stories.map((s) => [
          s.id ?? "",
          s.title,
          `Milestone ${m.milestoneNumber}: ${m.description}`,
          String(s.hours ?? (s.subTasks ?? []).reduce((n, t) => n + (t.hours ?? 0), 0)),
          s.complexity ?? "",
          (s.acceptanceCriteria ?? []).join(" | "),
        ]),
      ),
    ]);
  });

  it("writes the exact text: quoting, the formula guard, empty cells and hours from subtasks", () => {
    const text = storiesCsv(
      sow([
        {
          milestoneNumber: 1,
          description: "Setup, CI",
          stories: [
            { id: "1.1", title: "Repository", acceptanceCriteria: ["A push runs the tests", "A tag deploys"], complexity: "M", hours: 8, subTasks: [] },
            {
              id: "1.2",
              title: 'Import "legacy" recipes',
              acceptanceCriteria: ["=1+1", "Tags keep\ntheir order"],
              subTasks: [
                { description: "[DB] Schema", hours: 2.5 },
                { description: "[API] Routes", hours: 3 },
              ],
            },
          ],
        },
        { milestoneNumber: 2, description: "Launch", stories: [{ title: "-1 day", acceptanceCriteria: [" ", "@cook"], subTasks: [] }] },
      ]),
    );
    expect(text).toBe(
      "id,title,milestone,hours,complexity,acceptance criteria\r\n" +
        '1.1,Repository,"Milestone 1: Setup, CI",8,M,A push runs the tests | A tag deploys\r\n' +
        '1.2,"Import ""legacy"" recipes","Milestone 1: Setup, CI",5.5,,"\'=1+1 | Tags keep\ntheir order"\r\n' +
        ",'-1 day,Milestone 2: Launch,0,,'@cook\r\n",
    );
  });

  it("leaves hours empty when the spec states none (a coding-agent scope)", () => {
    const rows = storyRows(sow([{ milestoneNumber: 1, description: "M", stories: [{ title: "S", subTasks: [] }] }]));
    expect(rows[1]).toEqual(["", "S", "Milestone 1: M", "", "", ""]);
  });

  it("names the file after the spec", () => {
    expect(storiesFileName("Recipe Box")).toBe("Recipe Box - stories.csv");
    expect(storiesFileName("  Two\n lines ")).toBe("Two lines - stories.csv");
    expect(storiesFileName("")).toBe("Spec - stories.csv");
  });
});
