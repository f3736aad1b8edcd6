// Code loaded on demand (an area's screen, a dialog, the spec view): React.lazy, except that once
// the code is loaded, a new mount renders the component itself. A lazy component suspends on its
// first render even when its module is loaded; its Suspense boundary then shows the fallback, and
// React holds the content back for 300 ms after a fallback was shown (its throttle against a
// cascade of fallbacks). That held a relaunch's first screen, and the first visit to each area,
// 300 ms behind. `fetch()` loads the code ahead of time (a relaunch's screen before React starts;
// the others once the first screen is usable).
import { createElement, lazy, useState, type ComponentType, type ReactNode } from "react";

/** A screen: a function component (every screen is one). */
export type ScreenFn<P> = (props: P) => ReactNode;

/** A screen loaded on demand, and how to fetch its code ahead of time. */
export interface OnDemand<P> {
  Screen: ScreenFn<P>;
  /** Fetches the code (once); resolves when it is loaded, and never rejects. */
  fetch: () => Promise<void>;
}

export function onDemand<P extends object>(load: () => Promise<ScreenFn<P>>): OnDemand<P> {
  let loaded: ScreenFn<P> | undefined;
  let loading: Promise<ScreenFn<P>> | undefined;
  const get = () => {
    // A failed fetch is tried again by the next caller (the screen's boundary offers a reload).
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => get().then((component) => ({ default: component })));
  function Screen(props: P) {
    // Decided once per mount: turning from the lazy wrapper to the loaded component would mount
    // the screen again and lose its state.
    const [ready] = useState(() => loaded);
    return createElement((ready ?? Lazy) as ComponentType<P>, props);
  }
  return {
    Screen,
    fetch: () =>
      get().then(
        () => undefined,
        () => undefined,
      ),
  };
}
