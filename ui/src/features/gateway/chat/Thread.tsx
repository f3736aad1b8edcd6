// The conversation's turns, virtualized (@tanstack/react-virtual): only the turns in and near the
// view are in the DOM, each measured as it renders (turns differ in height, and a streaming reply
// grows). The thread scrolls in its own box:
// - at the bottom, it stays there while a reply streams and as turns are measured;
// - scrolled up, nothing moves (turns measured above the view keep the view where it is);
// - a turn the user sent, or a conversation just opened, brings the view to the bottom.
// The box takes the keyboard (arrows, Page Up/Down, Home/End scroll it, the last four at once); a turn holding the focus
// stays rendered however far it is scrolled away; each turn says its place (aria-posinset/setsize).
import { useCallback, useEffect, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type ReactNode } from "react";
import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";
import { chatOpenPending, markChatPainted } from "./chatTiming";

/** What a turn's <li> carries for the virtualizer. */
export interface TurnRow {
  ref: (el: HTMLLIElement | null) => void;
  index: number;
  count: number;
  start: number;
  onFocus: (e: FocusEvent<HTMLLIElement>) => void;
  onBlur: (e: FocusEvent<HTMLLIElement>) => void;
}

/** The list's gap between turns (--space-3). */
const GAP = 12;
/** A turn's height before it is measured (px): a short question or a few lines of reply. */
const ESTIMATE = 140;
/** Within this of the bottom counts as at the bottom (px). */
const NEAR_BOTTOM = 48;

export function Thread({
  keys,
  conversationId,
  followKey,
  renderTurn,
}: {
  /** The turns' ids, in order. */
  keys: string[];
  conversationId: number | undefined;
  /** Changes when the user sends a turn: the view goes to the bottom. */
  followKey: string | undefined;
  renderTurn: (index: number, row: TurnRow) => ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const focused = useRef<number | null>(null);
  const count = keys.length;
  const rangeExtractor = useCallback((range: Range) => {
    const shown = defaultRangeExtractor(range);
    const f = focused.current;
    if (f === null || f >= range.count || shown.includes(f)) return shown;
    return [...shown, f].sort((a, b) => a - b);
  }, []);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in render on purpose.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATE,
    overscan: 4,
    gap: GAP,
    getItemKey: (i) => keys[i] ?? i,
    rangeExtractor,
  });
  const total = virtualizer.getTotalSize();

  // A conversation opened, or a turn sent: to the bottom, and stay there.
  useLayoutEffect(() => {
    stick.current = true;
    focused.current = null;
  }, [conversationId, followKey]);

  // Stay at the bottom as turns are added, measured and streamed into.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stick.current && count > 0) el.scrollTop = el.scrollHeight;
  }, [total, count, conversationId, followKey]);

  // The painted mark of an open (bench/chat-500.mjs).
  useEffect(() => {
    if (conversationId === undefined || count === 0 || !chatOpenPending(conversationId)) return;
    return markChatPainted(conversationId, count);
  }, [conversationId, count]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (el) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM;
  };

  // Home, End and Page Up/Down on the box itself scroll at once: the browser's smooth scroll would
  // stop halfway when turns measured above the view shift it.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const el = scrollRef.current;
    if (!el || e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const page = Math.max(40, el.clientHeight - 40);
    const to: Record<string, number> = { Home: 0, End: el.scrollHeight, PageUp: el.scrollTop - page, PageDown: el.scrollTop + page };
    const top = to[e.key];
    if (top === undefined) return;
    e.preventDefault();
    el.scrollTop = top;
    stick.current = e.key === "End";
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scrollRef} className="thread-scroll" role="region" aria-label="Conversation" tabIndex={0} onScroll={onScroll} onKeyDown={onKeyDown}>
      <ol className="thread" aria-label="Messages" style={{ height: total }}>
        {items.map((item) =>
          renderTurn(item.index, {
            ref: virtualizer.measureElement,
            index: item.index,
            count,
            start: item.start,
            onFocus: () => {
              focused.current = item.index;
            },
            onBlur: (e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null) && focused.current === item.index) focused.current = null;
            },
          }),
        )}
      </ol>
    </div>
  );
}
