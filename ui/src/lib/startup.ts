// Cold start to the first usable screen (DESIGN.md, "Performance budgets"; measured by
// scripts/bench): the first real screen of a launch — the welcome card, or the frame with the
// heading of the screen a relaunch reopens — rendered and able to take input. Marked once per
// launch: FIRST_USABLE_MARK once the screen is in the DOM and a frame has painted it (the next
// animation frame lays it out and paints it; a task queued from that frame runs after the paint,
// when the page is free to handle input), then Rust is told (`first_usable`), which logs the
// wall-clock time that bench/probe.py reads. The "Starting…" start screen never counts.
import { useLayoutEffect, type RefObject } from "react";
import { call } from "../ipc/invoke";

export const FIRST_USABLE_MARK = "specdesk:first-usable";

/** How long a screen's heading is waited for (as useFocusHeading does). */
const WAIT_MS = 10_000;

let marked = false;
const waiting: (() => void)[] = [];

/** Runs `then` once the first usable screen is marked (at once, in a task, if it already is). */
export function onFirstUsable(then: () => void): void {
  if (marked) setTimeout(then, 0);
  else waiting.push(then);
}

function markFirstUsable(screen: string): void {
  if (marked) return;
  marked = true;
  for (const then of waiting.splice(0)) setTimeout(then, 0);
  const mark = performance.mark(FIRST_USABLE_MARK, { detail: { screen } });
  // A log line, nothing to show: a failure (no Rust side, as in unit tests) is ignored.
  call("first_usable", { screen, pageMs: Math.round(mark.startTime) }).catch(() => undefined);
}

/**
 * Marks the first usable screen once `container` holds an `h1` (the screen's heading, with its
 * controls rendered alongside it) and that has been painted; `screen` names it in the log. Only
 * the first screen of the launch is marked; nothing while `enabled` is false.
 */
export function useFirstUsable(container: RefObject<HTMLElement | null>, screen: string, enabled = true): void {
  useLayoutEffect(() => {
    const root = container.current;
    if (marked || !root || !enabled) return;
    let frame: number | undefined;
    let task: ReturnType<typeof setTimeout> | undefined;
    const afterPaint = () => {
      frame = requestAnimationFrame(() => {
        task = setTimeout(() => markFirstUsable(screen), 0);
      });
    };
    const observer = new MutationObserver(() => {
      if (!root.querySelector("h1")) return;
      observer.disconnect();
      afterPaint();
    });
    if (root.querySelector("h1")) afterPaint();
    else observer.observe(root, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (task !== undefined) clearTimeout(task);
    };
  }, [container, screen, enabled]);
}
