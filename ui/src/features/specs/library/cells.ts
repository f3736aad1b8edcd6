// The date and credits cells of the library's rows, written exactly as lib/format's
// formatDateTime and formatCreditsWord write them (the same Intl options; cells.test.ts checks
// that they agree), but with the Intl formatters made once. Those two build a new formatter on
// every call (`toLocaleString` with options does), about 0.1 ms each on the 2-core test VM: with
// a page of 25 rows rendered twice per search, they were the largest part of the script time of
// a search as you type (bench/library-search.mjs, BENCHMARKS.md). If lib/format keeps its
// formatters the same way, this file can go.
const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const CREDITS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** "Nov 20, 2026, 9:30 AM" (local time); "—" for no date or one that cannot be read. */
export function rowDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return DATE_TIME.format(d);
}

/** "23.4 credits", "1 credit". */
export function rowCredits(n: number): string {
  return `${CREDITS.format(n)} ${n === 1 ? "credit" : "credits"}`;
}
