// The router glue: the app's place lives in the window's URL hash. `navigate()` pushes a history
// entry (so Back and Forward walk through places), the last place is kept in localStorage, and a
// window opened without a hash (the Tauri window loads index.html bare) reopens it.
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import type { NavTarget } from "../../lib/nav";
import { loadJson, saveJson } from "../../lib/storage";
import { canonicalHash, formatRoute, parseRoute, routeOf } from "./route";

/** Where the last place is kept between launches. */
export const LAST_ROUTE_KEY = "specdesk.route.last";
/** Sent on the window when `pushRoute` changes the hash (pushState sends no hashchange). */
const ROUTE_EVENT = "specdesk:route";

const isString = (v: unknown): v is string => typeof v === "string";

function currentHash(): string {
  return window.location.hash;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener("hashchange", listener);
  window.addEventListener("popstate", listener);
  window.addEventListener(ROUTE_EVENT, listener);
  return () => {
    window.removeEventListener("hashchange", listener);
    window.removeEventListener("popstate", listener);
    window.removeEventListener(ROUTE_EVENT, listener);
  };
}

function urlWith(hash: string): string {
  const { pathname, search } = window.location;
  return `${pathname}${search}${hash}`;
}

/**
 * At start, before the first render: a window opened without a hash reopens the last place
 * (replacing the bare entry, so Back does not lead to an empty page). True when it did.
 */
export function restoreLastRoute(): boolean {
  const hash = currentHash();
  if (hash !== "" && hash !== "#") return false;
  const last = loadJson(LAST_ROUTE_KEY, isString);
  if (!last || !parseRoute(last)) return false;
  window.history.replaceState(window.history.state, "", urlWith(canonicalHash(last)));
  return true;
}

/** Goes to `to` as a new history entry (nothing when it is already the place shown). */
export function pushRoute(to: NavTarget): void {
  const hash = formatRoute(to);
  if (hash === canonicalHash(currentHash())) return;
  window.history.pushState(null, "", urlWith(hash));
  window.dispatchEvent(new Event(ROUTE_EVENT));
}

/**
 * The place shown and the way to go elsewhere. A hash that names no place is rewritten as the
 * Specs area (replacing the entry), and every place shown is kept for the next launch.
 */
export function useHashRoute(): { route: NavTarget; hash: string; navigate: (to: NavTarget) => void } {
  const raw = useSyncExternalStore(subscribe, currentHash, () => "");
  const hash = canonicalHash(raw);
  useEffect(() => {
    if (raw !== hash) window.history.replaceState(window.history.state, "", urlWith(hash));
    saveJson(LAST_ROUTE_KEY, hash);
  }, [raw, hash]);
  // One object per place: screens may depend on their target's identity.
  const route = useMemo(() => routeOf(hash), [hash]);
  const navigate = useCallback((to: NavTarget) => pushRoute(to), []);
  return { route, hash, navigate };
}
