// The date cells of the library's rows, written exactly as lib/format's formatDateTime writes
// them (the same Intl options; cells.test.ts checks that they agree), but with the Intl formatter
// made once. formatDateTime builds a new one on every call (`toLocaleString` with options does),
// about 0.1 ms on the 2-core test VM: with a page of 25 rows rendered twice per search, it was
// the largest part of the script time of a search as you type (bench/library-search.mjs,
// BENCHMARKS.md). The credits cells are lib/format's formatCreditsWord, which keeps its
// formatters made once. If formatDateTime does the same, this file can go.
const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/** "Nov 20, 2026, 9:30 AM" (local time); "—" for no date or one that cannot be read. */
export function rowDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return DATE_TIME.format(d);
}
