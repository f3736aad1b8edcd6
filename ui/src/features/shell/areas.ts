// The areas' screens (and the palette and help dialogs), each loaded on demand: a launch runs only the shell and the screen it shows
// (the welcome card, or the area a relaunch reopens), so its first usable screen does not wait
// for every area's code (scripts/bench, "cold start to first usable screen"). The others are
// fetched once that screen is usable (`prefetchAreas`), so moving to an area rarely waits.
//
// A screen whose code is already loaded is rendered at once, not through `React.lazy`: a lazy
// component suspends on its first render even when its module is loaded, its Suspense boundary
// shows the fallback, and React then holds the content back for 300 ms after a fallback was shown
// (its throttle against a cascade of fallbacks). That held every relaunch's first screen, and the
// first visit to each area, 300 ms behind.
import { createElement, lazy, useState, type ComponentType, type ReactNode } from "react";

/** A screen: a function component (every screen is one). */
type ScreenFn<P> = (props: P) => ReactNode;

/** A screen loaded on demand, and how to fetch its code ahead of time. */
interface OnDemand<P> {
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

const specs = onDemand(() => import("../specs/SpecsScreen").then((m) => m.SpecsScreen));
const plans = onDemand(() => import("../plans/PlansScreen").then((m) => m.PlansScreen));
const agents = onDemand(() => import("../agents/AgentsScreen").then((m) => m.AgentsScreen));
const gateway = onDemand(() => import("../gateway/GatewayScreen").then((m) => m.GatewayScreen));
const settings = onDemand(() => import("../settings/SettingsScreen").then((m) => m.SettingsScreen));
const palette = onDemand(() => import("./CommandPalette").then((m) => m.CommandPalette));
const help = onDemand(() => import("./HelpSheet").then((m) => m.HelpSheet));

export const SpecsScreen = specs.Screen;
export const PlansScreen = plans.Screen;
export const AgentsScreen = agents.Screen;
export const GatewayScreen = gateway.Screen;
export const SettingsScreen = settings.Screen;
/** The dialogs Ctrl/Cmd+K and ? open. */
export const CommandPalette = palette.Screen;
export const HelpSheet = help.Screen;

const AREAS: Record<string, { fetch: () => Promise<void> }> = { specs, plans, agents, gateway, settings };

/**
 * Fetches the code of `area` (the screen a relaunch reopens) while the app is asked for its
 * state; resolves once it is loaded (or failed: the screen's own load then reports it), so the
 * first render can show the screen itself rather than a fallback.
 */
export function preloadArea(area: string): Promise<void> {
  return AREAS[area]?.fetch() ?? Promise.resolve();
}

let prefetched = false;

/** Fetches every area's code once (a failure is left to the screen that needs it). */
export function prefetchAreas(): void {
  if (prefetched) return;
  prefetched = true;
  for (const one of [specs, plans, agents, gateway, settings, palette, help]) void one.fetch();
}
