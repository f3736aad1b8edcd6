// The areas' screens (and the palette and help dialogs), each loaded on demand: a launch runs only the shell and the screen it shows
// (the welcome card, or the area a relaunch reopens), so its first usable screen does not wait
// for every area's code (scripts/bench, "cold start to first usable screen"). The others are
// fetched once that screen is usable (`prefetchAreas`), so moving to an area rarely waits.
import { lazy } from "react";

const loadSpecs = () => import("../specs/SpecsScreen");
const loadPlans = () => import("../plans/PlansScreen");
const loadAgents = () => import("../agents/AgentsScreen");
const loadGateway = () => import("../gateway/GatewayScreen");
const loadSettings = () => import("../settings/SettingsScreen");
const loadPalette = () => import("./CommandPalette");
const loadHelp = () => import("./HelpSheet");

export const SpecsScreen = lazy(() => loadSpecs().then((m) => ({ default: m.SpecsScreen })));
export const PlansScreen = lazy(() => loadPlans().then((m) => ({ default: m.PlansScreen })));
export const AgentsScreen = lazy(() => loadAgents().then((m) => ({ default: m.AgentsScreen })));
export const GatewayScreen = lazy(() => loadGateway().then((m) => ({ default: m.GatewayScreen })));
export const SettingsScreen = lazy(() => loadSettings().then((m) => ({ default: m.SettingsScreen })));
/** The dialogs Ctrl/Cmd+K and ? open. */
export const CommandPalette = lazy(() => loadPalette().then((m) => ({ default: m.CommandPalette })));
export const HelpSheet = lazy(() => loadHelp().then((m) => ({ default: m.HelpSheet })));

const AREA_LOADS: Record<string, () => Promise<unknown>> = {
  specs: loadSpecs,
  plans: loadPlans,
  agents: loadAgents,
  gateway: loadGateway,
  settings: loadSettings,
};

/**
 * Starts fetching the code of `area` (the screen a relaunch reopens) before the app's first
 * answers come, so the two overlap; the screen's lazy import then finds it loaded or loading.
 */
export function preloadArea(area: string): void {
  AREA_LOADS[area]?.().catch(() => undefined);
}

let prefetched = false;

/** Fetches every area's code once (a failure is left to the screen that needs it). */
export function prefetchAreas(): void {
  if (prefetched) return;
  prefetched = true;
  for (const load of [loadSpecs, loadPlans, loadAgents, loadGateway, loadSettings, loadPalette, loadHelp]) load().catch(() => undefined);
}
