// The router glue: the app's place lives in the window's URL hash. `navigate()` pushes a history
// entry (so Back and Forward walk through places) or, for a change of view within a place (a
// filter), replaces the one shown; the last place is kept in localStorage, and a window opened
// without a hash (the Tauri window loads index.html bare) reopens it. Each history entry carries
// an id in its state, by which ./scrollMemory.ts keeps the entry's scroll position.
//
// A way to the Specs list that does not say which list (the Specs button, "All specs" in a spec,
// the palette) reopens the list last shown, with its search, filters, page and sort, as the
// library always did; only the library itself says which list (features/specs/library/useListView.ts).
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import type { NavOptions, NavTarget } from "../../lib/nav";
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

/** The id in a history entry's state (`specdeskEntry`), if it has one. */
function entryOf(state: unknown): string | null {
  if (state && typeof state === "object" && "specdeskEntry" in state) {
    const id = (state as { specdeskEntry: unknown }).specdeskEntry;
    return typeof id === "string" ? id : null;
  }
  return null;
}

let entryCounter = 0;
function newEntryId(): string {
  entryCounter += 1;
  return `${Date.now().toString(36)}-${entryCounter}`;
}

/**
 * The id of the history entry shown; an entry without one (the window's first, a hash typed in)
 * is given one in place.
 */
export function currentEntry(): string {
  const id = entryOf(window.history.state);
  if (id) return id;
  const fresh = newEntryId();
  window.history.replaceState({ specdeskEntry: fresh }, "", window.location.href);
  return fresh;
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
  window.history.replaceState({ specdeskEntry: currentEntry() }, "", urlWith(canonicalHash(last)));
  return true;
}

/** The library's list last shown (its address's query; "" the defaults), for this window. */
let lastList = "";

/** `to`, with the list last shown when it is the Specs list and names none. */
function withLastList(to: NavTarget): NavTarget {
  return to.area === "specs" && !to.specId && to.list === undefined ? { ...to, list: lastList } : to;
}

/**
 * Goes to `to`: a new history entry, or with `replace` the entry shown rewritten (same id, so its
 * scroll position stays). Nothing when it is already the place shown.
 */
export function pushRoute(to: NavTarget, options: NavOptions = {}): void {
  const hash = formatRoute(withLastList(to));
  if (hash === canonicalHash(currentHash())) return;
  if (options.replace) window.history.replaceState({ specdeskEntry: currentEntry() }, "", urlWith(hash));
  else window.history.pushState({ specdeskEntry: newEntryId() }, "", urlWith(hash));
  window.dispatchEvent(new Event(ROUTE_EVENT));
}

/**
 * The place shown and the way to go elsewhere. A hash that names no place is rewritten as the
 * Specs area (replacing the entry), and every place shown is kept for the next launch.
 */
export function useHashRoute(): {
  route: NavTarget;
  hash: string;
  /** The history entry shown (a new one per navigation; Back and Forward return to earlier ones). */
  entry: string;
  navigate: (to: NavTarget, options?: NavOptions) => void;
} {
  const raw = useSyncExternalStore(subscribe, currentHash, () => "");
  const entry = useSyncExternalStore(subscribe, currentEntry, () => "");
  const hash = canonicalHash(raw);
  // One object per place: screens may depend on their target's identity.
  const route = useMemo(() => routeOf(hash), [hash]);
  useEffect(() => {
    if (raw !== hash) window.history.replaceState({ specdeskEntry: currentEntry() }, "", urlWith(hash));
    saveJson(LAST_ROUTE_KEY, hash);
    if (route.area === "specs" && !route.specId) lastList = route.list ?? "";
  }, [raw, hash, route]);
  const navigate = useCallback((to: NavTarget, options?: NavOptions) => pushRoute(to, options), []);
  return { route, hash, entry, navigate };
}
