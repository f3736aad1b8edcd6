// The state of find in one document: the query, its matches, the current one. Paints through
// ./findPaint (highlights, or <mark> where the Highlight API is missing) and searches again when
// the document's DOM changes under it (highlight.js colouring code blocks after the first paint,
// a new rendering), keeping the current match's place without scrolling.
import { findMatches } from "./findMatches";
import { markCurrent, paintHighlights, scrollRangeIntoView, supportsHighlights, unwrapMatches, wrapMatches } from "./findPaint";

export interface FindStatus {
  /** Matches found (at most MAX_MATCHES). */
  count: number;
  /** Index of the current match, -1 when there is none. */
  current: number;
  /** More matches than were kept. */
  truncated: boolean;
}

export const NO_MATCHES: FindStatus = { count: 0, current: -1, truncated: false };

/** "3 of 12", "1 of 5000+", "No matches"; empty for an empty query. */
export function statusText(query: string, s: FindStatus): string {
  if (!query.trim()) return "";
  if (s.count === 0) return "No matches";
  return `${s.current + 1} of ${s.count}${s.truncated ? "+" : ""}`;
}

/** How long a burst of DOM changes (highlight.js batches) is waited out before searching again. */
const REFRESH_MS = 60;

function rangeOver(marks: HTMLElement[]): Range {
  const first = marks[0] as HTMLElement;
  const range = first.ownerDocument.createRange();
  range.setStartBefore(first);
  range.setEndAfter(marks[marks.length - 1] as HTMLElement);
  return range;
}

export class DocumentFinder {
  private query = "";
  private ranges: Range[] = [];
  private marks: HTMLElement[][] | null = null;
  private status: FindStatus = NO_MATCHES;
  private readonly observer: MutationObserver | null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly onChange: (status: FindStatus) => void,
    private readonly highlights = supportsHighlights(),
  ) {
    this.observer = typeof MutationObserver === "function" ? new MutationObserver(() => this.schedule()) : null;
  }

  /** Searches for `query` from the top; the first match becomes current and is scrolled to. */
  search(query: string): void {
    this.query = query;
    this.run(0, true);
  }

  next(): void {
    this.step(1);
  }

  previous(): void {
    this.step(-1);
  }

  /** Searches again (the DOM changed), keeping the current match's index. */
  refresh(): void {
    if (this.disposed) return;
    this.run(Math.max(0, this.status.current), false);
  }

  /** Clears every highlight and mark and stops watching the document. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.observer?.disconnect();
    this.clear();
  }

  /** The ranges of the matches (for tests). */
  matches(): readonly Range[] {
    return this.ranges;
  }

  private schedule() {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, REFRESH_MS);
  }

  private clear() {
    if (this.highlights) paintHighlights([], -1);
    if (this.marks) {
      unwrapMatches(this.root);
      this.marks = null;
    }
    this.ranges = [];
  }

  private run(keep: number, scroll: boolean) {
    if (this.disposed) return;
    this.observer?.disconnect();
    this.clear();
    const found = this.query.trim() ? findMatches(this.root, this.query) : { ranges: [], truncated: false };
    if (!this.highlights && found.ranges.length > 0) {
      this.marks = wrapMatches(found.ranges);
      this.ranges = this.marks.filter((g) => g.length > 0).map(rangeOver);
    } else {
      this.ranges = found.ranges;
    }
    const count = this.ranges.length;
    this.status = { count, current: count ? Math.min(keep, count - 1) : -1, truncated: found.truncated };
    this.paint(scroll);
    if (this.query.trim()) this.observer?.observe(this.root, { childList: true, subtree: true, characterData: true });
  }

  private step(by: number) {
    const { count, current } = this.status;
    if (this.disposed || count === 0) return;
    this.status = { ...this.status, current: (current + by + count) % count };
    this.paint(true);
  }

  private paint(scroll: boolean) {
    const { current } = this.status;
    if (this.highlights) paintHighlights(this.ranges, current);
    // Attributes only: the observer (child lists and text) does not see it.
    else if (this.marks) markCurrent(this.marks, current);
    const range = this.ranges[current];
    if (scroll && range) scrollRangeIntoView(range);
    this.onChange(this.status);
  }
}
