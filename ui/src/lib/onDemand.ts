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

/** How each screen whose code failed to load gets a fresh start. */
const failedLoads = new Set<() => void>();

/** Lets every screen whose code failed to load try again on its next render (the screen
 * boundaries' "Reload this screen"). */
export function retryFailedLoads(): void {
  for (const retry of failedLoads) retry();
  failedLoads.clear();
}

export function onDemand<P extends object>(load: () => Promise<ScreenFn<P>>): OnDemand<P> {
  let loaded: ScreenFn<P> | undefined;
  let loading: Promise<ScreenFn<P>> | undefined;
  const makeLazy = () => lazy(() => get().then((component) => ({ default: component })));
  let Lazy = makeLazy();
  const get = () => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = undefined;
        // React.lazy keeps a failure for good: "Reload this screen" (retryFailedLoads) gives
        // the screen a new one, whose first render fetches the code again.
        failedLoads.add(() => (Lazy = makeLazy()));
        throw error;
      },
    );
    return loading;
  };
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
