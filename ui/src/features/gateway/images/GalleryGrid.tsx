// The gallery's cards as a virtualized responsive grid (@tanstack/react-virtual): as many columns
// as fit (cards at least 220 px wide), rows rendered only near the page's scroll position (the
// frame's <main> scrolls), so thousands of images open and scroll as fast as a few dozen. The row
// of the image open in the viewer stays rendered (its card takes the focus back); nearing the end
// reads the next page of the library.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";

/** A card's least width and the gap between cards (px; images.css). */
const MIN_WIDTH = 220;
const GAP = 16;
/** A row's height before it is measured (px). */
const ROW_ESTIMATE = 420;

/** How many columns of cards fit in `width`. */
export function columnsFor(width: number): number {
  return Math.max(1, Math.floor((width + GAP) / (MIN_WIDTH + GAP)));
}

/** What scrolls the gallery: the frame's <main> (the page itself outside the frame). */
function scroller(grid: HTMLElement): HTMLElement {
  return grid.closest("main") ?? document.documentElement;
}

export function GalleryGrid({
  count,
  keyOf,
  renderCard,
  keep,
  more,
  onMore,
}: {
  count: number;
  keyOf: (index: number) => number;
  renderCard: (index: number) => ReactNode;
  /** An item whose row stays rendered (the one open in the viewer). */
  keep?: number;
  /** Some of the library is not read yet; `onMore` reads the next page. */
  more: boolean;
  onMore: () => void;
}) {
  const gridRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [margin, setMargin] = useState(0);
  const cols = columnsFor(width);
  const rows = Math.ceil(count / cols);

  // The grid's width (its columns) and where it starts in the page's scroll: read again whenever
  // it or anything of its studio above it changes size.
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const measure = () => {
      const main = scroller(grid);
      setWidth(grid.clientWidth);
      setMargin(Math.round(grid.getBoundingClientRect().top - main.getBoundingClientRect().top + main.scrollTop));
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(grid);
    const studio = grid.closest(".studio");
    if (studio) observer.observe(studio);
    return () => observer.disconnect();
  }, []);

  const keepRow = keep === undefined ? undefined : Math.floor(keep / cols);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const shown = defaultRangeExtractor(range);
      if (keepRow === undefined || keepRow >= range.count || shown.includes(keepRow)) return shown;
      return [...shown, keepRow].sort((a, b) => a - b);
    },
    [keepRow],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in render on purpose.
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => (gridRef.current ? scroller(gridRef.current) : null),
    estimateSize: () => ROW_ESTIMATE,
    overscan: 2,
    gap: GAP,
    scrollMargin: margin,
    getItemKey: (row) => keyOf(row * cols),
    rangeExtractor,
  });
  const shown = virtualizer.getVirtualItems();
  const last = shown.at(-1)?.index ?? 0;
  useEffect(() => {
    if (more && rows > 0 && last >= rows - 3) onMore();
  }, [more, rows, last, onMore]);

  return (
    <div ref={gridRef} className="gallery-grid" role="list" aria-label="Images" style={{ height: virtualizer.getTotalSize() }}>
      {shown.map((row) => (
        <div
          key={row.key}
          ref={virtualizer.measureElement}
          data-index={row.index}
          className="gallery-row"
          role="none"
          style={{ transform: `translateY(${row.start - margin}px)`, gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` }}
        >
          {Array.from({ length: Math.min(cols, count - row.index * cols) }, (_, k) => renderCard(row.index * cols + k))}
        </div>
      ))}
    </div>
  );
}
