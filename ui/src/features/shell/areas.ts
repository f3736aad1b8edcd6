// The areas' screens (and the palette and help dialogs). The Specs list is the home screen (the
// welcome leads to it, and it is where a relaunch most often reopens): its code is in the main
// script, so it never waits for a second fetch (BENCHMARKS.md, "relaunch to first usable
// screen"). The others are loaded on demand: a launch runs only the shell and the screen it shows,
// so its first usable screen does not wait for every area's code. They are fetched once that
// screen is usable (`prefetchAreas`), so moving to an area rarely waits; a screen whose code is
// loaded renders at once, with no fallback (lib/onDemand.ts). A spec's own view is on demand too.
import { onDemand } from "../../lib/onDemand";
import type { NavTarget } from "../../lib/nav";
import { SpecsScreen as HomeScreen, preloadSpecView } from "../specs/SpecsScreen";

const specs = { Screen: HomeScreen, fetch: () => Promise.resolve() };
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
 * Fetches the code of the screen a relaunch reopens (`route`: its area, and a spec's own view when
 * it names one) while the app is asked for its state; resolves once it is loaded (or failed: the
 * screen's own load then reports it), so the first render shows the screen rather than a fallback.
 */
export function preloadPlace(route: NavTarget): Promise<void> {
  const area = AREAS[route.area]?.fetch() ?? Promise.resolve();
  if (route.area !== "specs" || !route.specId) return area;
  return preloadSpecView();
}

let prefetched = false;

/** Fetches every area's code once (a failure is left to the screen that needs it). */
export function prefetchAreas(): void {
  if (prefetched) return;
  prefetched = true;
  for (const one of [specs, plans, agents, gateway, settings, palette, help]) void one.fetch();
  void preloadSpecView();
}
