// User Timing marks of the library's search as you type, read by bench/library-search.mjs (the
// spec view has the same kind of marks, see DocumentView). They cost a few microseconds each and
// never change what the library does; only the latest mark and measure of each name are kept, so a
// long session piles nothing up.
//
// Each keystroke is answered at once from the specs kept on this computer (search_cached_specs),
// then by the service once the typing pauses (list_specs):
// - KEYSTROKE_MARK: each input event of the search box (at the event's own time stamp, so time
//   the event waited for a busy page counts; an IME's composition, when it ends), and Enter.
// - LOCAL_PAINTED_MARK: a frame has been painted with the rows for the latest keystroke's search
//   (those kept on this computer, or the service's when they came first); then SEARCH_MEASURE
//   from that keystroke: "keystroke to updated list", once per keystroke.
// - RUN_MARK: the service search runs (the debounce has fired, or Enter, Clear or Pattern ran it
//   at once), only when it changes the search in use.
// - PAINTED_MARK: the library holds the service's answer to that search (not the rows shown
//   meanwhile) and a frame has been painted with it; then two measures: SERVICE_MEASURE from the
//   keystroke that ran the search (the debounce wait included), and UPDATE_MEASURE from the run
//   (answer, render and paint only).
import { useLayoutEffect } from "react";

export const KEYSTROKE_MARK = "specdesk:library:keystroke";
export const RUN_MARK = "specdesk:library:search-run";
export const LOCAL_PAINTED_MARK = "specdesk:library:local-painted";
export const PAINTED_MARK = "specdesk:library:painted";
export const SEARCH_MEASURE = "specdesk:library:search";
export const SERVICE_MEASURE = "specdesk:library:search-service";
export const UPDATE_MEASURE = "specdesk:library:search-update";

interface SearchDetail {
  search: string;
  pattern: boolean;
}

/** Timing must never break the search: a browser without User Timing (or a refused mark) is ignored. */
function safely(f: () => void): void {
  try {
    f();
  } catch {
    // Nothing to time with.
  }
}

function latest(name: string): PerformanceMark | undefined {
  return performance.getEntriesByName(name, "mark").at(-1) as PerformanceMark | undefined;
}

function isSearch(mark: PerformanceMark | undefined, search: string, pattern?: boolean): mark is PerformanceMark {
  const d: unknown = mark?.detail;
  if (typeof d !== "object" || d === null || !("search" in d) || d.search !== search) return false;
  return pattern === undefined || ("pattern" in d && d.pattern === pattern);
}

/** A key typed in the search box (`text`: the box's text after it); `at`: the event's time stamp. */
export function markKeystroke(text: string, at?: number): void {
  safely(() => {
    performance.clearMarks(KEYSTROKE_MARK);
    const now = performance.now();
    // An event's time stamp is on the page's clock; one from elsewhere (0, or later than now) is not used.
    const startTime = at !== undefined && at > 0 && at <= now ? at : now;
    performance.mark(KEYSTROKE_MARK, { startTime, detail: { search: text.trim() } });
  });
}

/** The search runs. `typed`: after keystrokes (the debounce, or Enter); false for Clear and Pattern. */
export function markSearchRun(search: string, pattern: boolean, typed: boolean): void {
  safely(() => {
    performance.clearMarks(RUN_MARK);
    if (!typed) performance.clearMarks(KEYSTROKE_MARK);
    const detail: SearchDetail = { search, pattern };
    performance.mark(RUN_MARK, { detail });
  });
}

/** Start time of the keystroke whose rows SEARCH_MEASURE last measured (each keystroke once). */
let measuredKeystroke: number | null = null;

/**
 * Marks the first frame painted with rows for the latest keystroke's search. `search`: the search
 * the rows on screen answer; `rows`: them, undefined while rows for another search are kept on
 * screen (a placeholder).
 */
export function useRowsPaintedMark(search: string, rows: unknown): void {
  useLayoutEffect(() => {
    if (rows === undefined) return;
    let key: PerformanceMark | undefined;
    safely(() => {
      key = latest(KEYSTROKE_MARK);
    });
    if (!isSearch(key, search) || key.startTime === measuredKeystroke) return;
    const start = key.startTime;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        measuredKeystroke = start;
        safely(() => {
          const detail = { search };
          performance.clearMarks(LOCAL_PAINTED_MARK);
          performance.clearMeasures(SEARCH_MEASURE);
          const painted = performance.mark(LOCAL_PAINTED_MARK, { detail });
          performance.measure(SEARCH_MEASURE, { start, end: painted.startTime, detail });
        });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [search, rows]);
}

/**
 * Marks the first frame painted with the service's answer to the search that ran. `answer`: the page of
 * specs for `search` and `pattern`, undefined while the previous page is kept on screen; `failed`:
 * the search was refused or could not run (nothing is measured, the run is forgotten).
 */
export function useSearchPaintedMark(search: string, pattern: boolean, answer: unknown, failed: boolean): void {
  // A layout effect runs right after the answer is committed, before the browser can paint it: the
  // next animation frame lays it out and paints it, and a task queued from that frame runs once it
  // is painted (as DocumentView does).
  useLayoutEffect(() => {
    let run: PerformanceMark | undefined;
    safely(() => {
      run = latest(RUN_MARK);
    });
    if (!isSearch(run, search, pattern)) return;
    if (failed) {
      safely(() => {
        performance.clearMarks(RUN_MARK);
        performance.clearMarks(KEYSTROKE_MARK);
      });
      return;
    }
    if (answer === undefined) return;
    const start = run;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        safely(() => {
          const key = latest(KEYSTROKE_MARK);
          const detail: SearchDetail = { search, pattern };
          performance.clearMarks(RUN_MARK);
          performance.clearMarks(KEYSTROKE_MARK);
          performance.clearMarks(PAINTED_MARK);
          performance.clearMeasures(SERVICE_MEASURE);
          performance.clearMeasures(UPDATE_MEASURE);
          const painted = performance.mark(PAINTED_MARK, { detail });
          performance.measure(UPDATE_MEASURE, { start: start.startTime, end: painted.startTime, detail });
          if (isSearch(key, search) && key.startTime <= start.startTime) {
            performance.measure(SERVICE_MEASURE, { start: key.startTime, end: painted.startTime, detail });
          }
        });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [search, pattern, answer, failed]);
}
