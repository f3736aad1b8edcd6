// Shows the matches of find in a document. Where the CSS Custom Highlight API exists
// (`CSS.highlights`), every match is a Range in the highlight "specdesk-find" and the current one
// in "specdesk-find-current": the document's DOM is never touched. Without it, each match is
// wrapped in <mark class="find-mark"> (the current one with data-current), unwrapped again on
// the next search or when the find bar closes.
import { textSegments } from "./findMatches";

export const HIGHLIGHT_ALL = "specdesk-find";
export const HIGHLIGHT_CURRENT = "specdesk-find-current";
const MARK_CLASS = "find-mark";

interface HighlightRegistry {
  set(name: string, highlight: unknown): void;
  delete(name: string): boolean;
}
type HighlightCtor = new (...ranges: Range[]) => unknown;

function highlightApi(): { registry: HighlightRegistry; Highlight: HighlightCtor } | null {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  const Highlight = (globalThis as { Highlight?: HighlightCtor }).Highlight;
  return css?.highlights && typeof Highlight === "function" ? { registry: css.highlights, Highlight } : null;
}

/** Whether matches are painted with the CSS Custom Highlight API (no DOM change). */
export function supportsHighlights(): boolean {
  return highlightApi() !== null;
}

/** Paints `ranges` with the Highlight API, `current` apart; no ranges clears both highlights. */
export function paintHighlights(ranges: Range[], current: number): void {
  const api = highlightApi();
  if (!api) return;
  if (ranges.length === 0) {
    api.registry.delete(HIGHLIGHT_ALL);
    api.registry.delete(HIGHLIGHT_CURRENT);
    return;
  }
  const cur = ranges[current];
  api.registry.set(HIGHLIGHT_ALL, new api.Highlight(...ranges.filter((_, i) => i !== current)));
  api.registry.set(HIGHLIGHT_CURRENT, new api.Highlight(...(cur ? [cur] : [])));
}

/**
 * Fallback: wraps each match in <mark> elements (one per text node it covers). Returns the marks
 * of each match, in order. Ranges are processed from the last so earlier offsets stay valid.
 */
export function wrapMatches(ranges: Range[]): HTMLElement[][] {
  const marks: HTMLElement[][] = ranges.map(() => []);
  for (let i = ranges.length - 1; i >= 0; i--) {
    const range = ranges[i] as Range;
    const segments = textSegments(range);
    for (let j = segments.length - 1; j >= 0; j--) {
      const { node, start, end } = segments[j] as (typeof segments)[number];
      const doc = node.ownerDocument;
      const tail = end < node.data.length ? node.splitText(end) : null;
      const middle = start > 0 ? node.splitText(start) : node;
      const mark = doc.createElement("mark");
      mark.className = MARK_CLASS;
      mark.dataset.match = String(i);
      middle.parentNode?.insertBefore(mark, tail ?? middle.nextSibling);
      mark.appendChild(middle);
      (marks[i] as HTMLElement[]).unshift(mark);
    }
  }
  return marks;
}

/** Fallback: marks `current` as the current match (data-current), and no other. */
export function markCurrent(marks: HTMLElement[][], current: number): void {
  marks.forEach((group, i) =>
    group.forEach((m) => {
      if (i === current) m.dataset.current = "true";
      else delete m.dataset.current;
    }),
  );
}

/** Fallback: removes every <mark> `wrapMatches` added under `root`, joining the text back. */
export function unwrapMatches(root: Element): void {
  const marks = [...root.querySelectorAll(`mark.${MARK_CLASS}`)];
  const parents = new Set<Node>();
  for (const mark of marks) {
    const parent = mark.parentNode;
    if (!parent) continue;
    while (mark.firstChild) parent.insertBefore(mark.firstChild, mark);
    parent.removeChild(mark);
    parents.add(parent);
  }
  parents.forEach((p) => p.normalize());
}

/** The nearest ancestors of `el` that scroll (vertically or horizontally), innermost first. */
function scrollParents(el: Element): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const style = getComputedStyle(p);
    const scrolls = (v: string) => v === "auto" || v === "scroll";
    if ((scrolls(style.overflowY) && p.scrollHeight > p.clientHeight) || (scrolls(style.overflowX) && p.scrollWidth > p.clientWidth)) out.push(p);
  }
  return out;
}

/**
 * Scrolls every scrolling ancestor so `range` is in view: vertically centred when it was out of
 * view, horizontally (a wide code block) only as far as needed.
 */
export function scrollRangeIntoView(range: Range): void {
  // jsdom (the unit tests) has no layout: nothing to scroll.
  if (typeof range.getBoundingClientRect !== "function") return;
  const start = range.startContainer;
  const el = start.nodeType === 1 ? (start as Element) : start.parentElement;
  if (!el) return;
  for (const box of scrollParents(el)) {
    const r = range.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - (box.clientHeight - r.height) / 2;
    if (r.left < b.left) box.scrollLeft -= b.left - r.left + 16;
    else if (r.right > b.right) box.scrollLeft += r.right - b.right + 16;
  }
  const r = range.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) window.scrollBy({ top: r.top - (window.innerHeight - r.height) / 2 });
}
