// Runs a function once the calls to it have paused for `ms` (the library's search as you type).
import { useCallback, useEffect, useRef } from "react";

export interface Debounced<A extends unknown[]> {
  /** Runs `fn(...args)` after `ms` unless called again before. */
  schedule: (...args: A) => void;
  /** Drops the call waiting, if any. */
  cancel: () => void;
}

export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  const latest = useRef(fn);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    latest.current = fn;
  });
  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  const schedule = useCallback(
    (...args: A) => {
      cancel();
      timer.current = setTimeout(() => {
        timer.current = null;
        latest.current(...args);
      }, ms);
    },
    [cancel, ms],
  );
  // Nothing runs after the component is gone.
  useEffect(() => cancel, [cancel]);
  return { schedule, cancel };
}
