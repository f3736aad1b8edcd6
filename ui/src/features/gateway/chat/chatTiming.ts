// Performance marks of opening a conversation (read by bench/chat-500.mjs): ChatStudio marks
// OPEN_MARK when a conversation is opened from the list; the thread marks PAINTED_MARK once that
// conversation's turns are in the DOM and a frame has been painted, and measures OPEN_MEASURE
// between the two (once per open). Only the latest mark and measure of each name are kept.
export const CHAT_OPEN_MARK = "specdesk:chat:open";
export const CHAT_PAINTED_MARK = "specdesk:chat:painted";
export const CHAT_OPEN_MEASURE = "specdesk:chat:open-conversation";

export function markChatOpen(conversationId: number): void {
  performance.clearMarks(CHAT_OPEN_MARK);
  performance.mark(CHAT_OPEN_MARK, { detail: { conversationId } });
}

/** Whether an open of `conversationId` waits for its paint. */
export function chatOpenPending(conversationId: number): boolean {
  return performance.getEntriesByName(CHAT_OPEN_MARK, "mark").some((m) => (m as PerformanceMark).detail?.conversationId === conversationId);
}

/** After the next painted frame: the painted mark and the open's measure (if it is still pending). */
export function markChatPainted(conversationId: number, turns: number): () => void {
  let timer: number | undefined;
  const frame = requestAnimationFrame(() => {
    timer = window.setTimeout(() => {
      const open = performance.getEntriesByName(CHAT_OPEN_MARK, "mark").find((m) => (m as PerformanceMark).detail?.conversationId === conversationId);
      if (!open) return;
      const detail = { conversationId, turns };
      performance.clearMarks(CHAT_PAINTED_MARK);
      const painted = performance.mark(CHAT_PAINTED_MARK, { detail });
      performance.clearMarks(CHAT_OPEN_MARK);
      performance.clearMeasures(CHAT_OPEN_MEASURE);
      performance.measure(CHAT_OPEN_MEASURE, { start: open.startTime, end: painted.startTime, detail });
    }, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) window.clearTimeout(timer);
  };
}
