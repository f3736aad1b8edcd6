// A virtualized single-select listbox (@tanstack/react-virtual): one tab stop, Up/Down, Page
// Up/Down, Home and End move the selection (which follows the focus, as in the trace viewer), and
// the active option is always rendered so `aria-activedescendant` points at it. Used for a batch's
// tasks and a task's steps; rows may differ in height (they are measured).
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";

export function VirtualListbox({
  idPrefix,
  label,
  count,
  selected,
  onSelect,
  estimateSize,
  renderOption,
  className = "",
  follow = false,
}: {
  idPrefix: string;
  label: string;
  count: number;
  selected: number | null;
  onSelect: (index: number) => void;
  /** Height of a row before it is measured (px). */
  estimateSize: number;
  renderOption: (index: number) => ReactNode;
  className?: string;
  /** Keep the last row in view while nothing is selected (a live list). */
  follow?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in render on purpose.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    overscan: 8,
    getItemKey: (i) => i,
  });

  useEffect(() => {
    if (selected !== null && selected < count) virtualizer.scrollToIndex(selected, { align: "auto" });
  }, [selected, count, virtualizer]);
  useEffect(() => {
    if (follow && selected === null && count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [follow, selected, count, virtualizer]);

  const move = (e: KeyboardEvent) => {
    if (count === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? estimateSize * 8) / estimateSize) - 1);
    const at = selected ?? -1;
    let next: number | null = null;
    if (e.key === "ArrowDown") next = Math.min(count - 1, at + 1);
    else if (e.key === "ArrowUp") next = Math.max(0, at === -1 ? 0 : at - 1);
    else if (e.key === "PageDown") next = Math.min(count - 1, at + page);
    else if (e.key === "PageUp") next = Math.max(0, at - page);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = count - 1;
    if (next === null) return;
    e.preventDefault();
    onSelect(next);
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={scrollRef}
      className={`vlist ${className}`}
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={selected !== null && selected < count ? `${idPrefix}-opt-${selected}` : undefined}
      onKeyDown={move}
    >
      <div className="vlist-inner" style={{ height: virtualizer.getTotalSize() }}>
        <div className="vlist-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              id={`${idPrefix}-opt-${item.index}`}
              role="option"
              aria-selected={item.index === selected}
              aria-setsize={count}
              aria-posinset={item.index + 1}
              className="vlist-option"
              onClick={() => onSelect(item.index)}
            >
              {renderOption(item.index)}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
