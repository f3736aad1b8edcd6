// The section in view, for the table of contents: an IntersectionObserver on the document's
// headings (rooted at the scrolling container, its zone everything above the reading line, 30%
// down) says when one crosses that line, however fast the scroll; the section in view is then
// the last heading above the line. At the very end of the document (a short last section never
// reaches the line) it is the last heading on screen.
import { useEffect, useState, type RefObject } from "react";

/** The reading line, as a share of the viewport's height from its top. */
const READING_LINE = 0.3;

/**
 * The heading in view among `ids` (in document order): the last one whose top is above the
 * reading line, else the first. `atEnd`: the end of the document is on screen, so the last
 * heading whose top is on screen wins.
 */
export function headingInView(tops: readonly { id: string; top: number }[], line: number, atEnd: boolean, viewBottom: number): string | null {
  if (tops.length === 0) return null;
  let current: string | null = null;
  for (const h of tops) {
    if (h.top <= line) current = h.id;
    else if (atEnd && h.top < viewBottom) current = h.id;
  }
  return current ?? tops[0]?.id ?? null;
}

/** The nearest ancestor of `el` that scrolls vertically, or null (the window scrolls). */
function scrollRoot(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p && p !== el.ownerDocument.body; p = p.parentElement) {
    const y = getComputedStyle(p).overflowY;
    if (y === "auto" || y === "scroll") return p;
  }
  return null;
}

/** The id of the heading in view under `rootRef`, or null before the document is shown. */
export function useTocSpy(rootRef: RefObject<HTMLElement | null>, endRef: RefObject<HTMLElement | null>, ids: readonly string[], html: string | undefined): string | null {
  const [active, setActive] = useState<string | null>(null);
  const key = ids.join("\n");

  useEffect(() => {
    const root = rootRef.current;
    if (!root || !html || typeof IntersectionObserver !== "function") return;
    const headings = key
      .split("\n")
      .map((id) => (id ? root.ownerDocument.getElementById(id) : null))
      .filter((el): el is HTMLElement => !!el && root.contains(el));
    if (headings.length === 0) return;
    let atEnd = false;
    let frame = 0;
    const container = scrollRoot(root);
    const update = () => {
      frame = 0;
      const view = container ? container.getBoundingClientRect() : { top: 0, height: window.innerHeight, bottom: window.innerHeight };
      const tops = headings.map((el) => ({ id: el.id, top: el.getBoundingClientRect().top }));
      // A document that fits on screen has no end to scroll to: only a scrolled one does.
      const scrolled = container ? container.scrollTop > 0 : window.scrollY > 0;
      setActive(headingInView(tops, view.top + view.height * READING_LINE, atEnd && scrolled, view.bottom));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    // The zone runs from far above the container's top down to the reading line: a heading
    // crossing the line enters or leaves it, even one scrolled past in a single frame.
    const observer = new IntersectionObserver(schedule, {
      root: container,
      rootMargin: `100000px 0px -${Math.round((1 - READING_LINE) * 100)}% 0px`,
    });
    headings.forEach((el) => observer.observe(el));
    const end = endRef.current;
    const endObserver = new IntersectionObserver(
      (entries) => {
        atEnd = entries.some((e) => e.isIntersecting);
        schedule();
      },
      { root: container },
    );
    if (end) endObserver.observe(end);
    schedule();
    return () => {
      observer.disconnect();
      endObserver.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [rootRef, endRef, key, html]);

  return active;
}
