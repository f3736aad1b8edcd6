// The stories of a spec's scope of work as CSV for issue trackers (Jira, Linear, GitHub…): one
// row per story with its id, title, milestone, hours, complexity and acceptance criteria.
import type { ScopeOfWork } from "../../../bindings/ScopeOfWork";
import { scopeTree } from "../scope";

export const STORIES_CSV_HEADER = ["id", "title", "milestone", "hours", "complexity", "acceptance criteria"] as const;

/** How acceptance criteria are joined in their one cell. */
export const CRITERIA_SEPARATOR = " | ";

/**
 * A cell a spreadsheet could read as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return
 * first, as OWASP lists them) gets a leading `'`, so opening the file never runs anything.
 */
export function neutralizeFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; quotes doubled. */
export function csvCell(value: string): string {
  const safe = neutralizeFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows of cells as CSV text: CRLF between records and after the last (RFC 4180). */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

/** Hours as a plain number ("16.5"), empty when the spec states none. */
function hoursCell(hours: number, known: boolean): string {
  return known ? String(Math.round(hours * 100) / 100) : "";
}

/** The stories' rows (header first), every story of every milestone, unfiltered. */
export function storyRows(sow: ScopeOfWork): string[][] {
  const tree = scopeTree(sow);
  const rows: string[][] = [[...STORIES_CSV_HEADER]];
  for (const m of tree.milestones) {
    const milestone = `Milestone ${m.number}: ${m.description}`;
    for (const s of m.stories) {
      rows.push([
        s.id ?? "",
        s.title,
        milestone,
        hoursCell(s.hours, tree.hasHours),
        s.complexity ?? "",
        s.acceptanceCriteria.map((c) => c.trim()).filter(Boolean).join(CRITERIA_SEPARATOR),
      ]);
    }
  }
  return rows;
}

/** The stories of `sow` as CSV text. */
export function storiesCsv(sow: ScopeOfWork): string {
  return toCsv(storyRows(sow));
}

/** The file the stories are saved as: "Recipe Box - stories.csv". */
export function storiesFileName(title: string): string {
  const clean = title.replace(/\s+/g, " ").trim() || "Spec";
  return `${clean} - stories.csv`;
}
