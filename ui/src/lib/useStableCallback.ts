// A callback whose identity never changes and that always calls the latest `fn`: a memoized child
// keeps equal props while its parent renders again (the chat studio renders once per streamed
// delta, and its lists and pickers need not follow).
import { useCallback, useLayoutEffect, useRef } from "react";

export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
