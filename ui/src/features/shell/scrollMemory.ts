// Where the user was scrolled, per history entry: Back and Forward return to the position each
// entry was left at, a new place starts at the top, a change of view within a place (a filter,
// which replaces the entry) keeps the position, and a relaunch that reopens the last place
// reopens it where it was scrolled to.
//
// Positions are kept by entry id (./history.ts) in memory and sessionStorage (a reload of the page
// keeps them), and the last place's in localStorage with its hash. Writing them to the history
// entry itself would take a replaceState per scroll, which WebKit limits (100 per 30 s).
import { useEffect, type RefObject } from "react";
import { loadJson, saveJson } from "../../lib/storage";
import { currentEntry } from "./history";

/** The last place's scroll position, for the next launch: `{ hash, top }`. */
export const LAST_SCROLL_KEY = "specdesk.route.scroll";
/** Positions by history entry id, for this window (sessionStorage). */
const ENTRIES_KEY = "specdesk.route.entries";
/** How many entries' positions are kept (the oldest are dropped). */
const MAX_ENTRIES = 200;
/** How long a restore waits for the content to grow tall enough (a spec is read first). */
const RESTORE_MS = 5_000;
/** Saved positions are written at most this often while the user scrolls. */
const SAVE_MS = 250;

interface LastScroll {
  hash: string;
  top: number;
}

const isLastScroll = (v: unknown): v is LastScroll =>
  !!v && typeof v === "object" && typeof (v as LastScroll).hash === "string" && typeof (v as LastScroll).top === "number";

const positions = new Map<string, number>(readEntries());
/** The entry whose position is being put back: its scroll events are not the user's. */
let restoring: string | null = null;

function readEntries(): [string, number][] {
  try {
    const raw = window.sessionStorage.getItem(ENTRIES_KEY);
    const v: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(v) ? v.filter((e): e is [string, number] => Array.isArray(e) && typeof e[0] === "string" && typeof e[1] === "number") : [];
  } catch {
    return [];
  }
}

function writeEntries(): void {
  while (positions.size > MAX_ENTRIES) {
    const oldest = positions.keys().next().value;
    if (oldest === undefined) break;
    positions.delete(oldest);
  }
  try {
    window.sessionStorage.setItem(ENTRIES_KEY, JSON.stringify([...positions]));
  } catch {
    // Storage full or unavailable: positions live in memory only.
  }
}

/**
 * At start, after ./history.ts reopened the last place as entry `entry`: that entry gets the
 * position the last place was left at, when it is the same place.
 */
export function restoreLastScroll(entry: string, hash: string): void {
  const last = loadJson(LAST_SCROLL_KEY, isLastScroll);
  if (last && last.hash === hash && last.top > 0 && !positions.has(entry)) positions.set(entry, last.top);
}

/** The position kept for history entry `entry` (0 when none). */
export function savedPosition(entry: string): number {
  return positions.get(entry) ?? 0;
}

/**
 * Scrolls `el` to `top` once its content is tall enough (it may still be loading), giving up when
 * the user scrolls, clicks or types first, or after RESTORE_MS. Returns the way to stop it.
 */
function scrollWhenTall(el: HTMLElement, entry: string, top: number): () => void {
  let stopped = false;
  restoring = entry;
  const attempt = () => {
    if (stopped) return;
    el.scrollTop = top;
    if (Math.abs(el.scrollTop - top) < 2) stop();
  };
  const mutations = new MutationObserver(attempt);
  const sizes = new ResizeObserver(attempt);
  const userMoved = () => stop();
  const timer = window.setTimeout(() => stop(), RESTORE_MS);
  function stop() {
    if (stopped) return;
    stopped = true;
    if (restoring === entry) restoring = null;
    mutations.disconnect();
    sizes.disconnect();
    window.clearTimeout(timer);
    for (const type of ["wheel", "pointerdown", "keydown", "touchstart"] as const) el.removeEventListener(type, userMoved);
  }
  for (const type of ["wheel", "pointerdown", "keydown", "touchstart"] as const) el.addEventListener(type, userMoved, { passive: true });
  mutations.observe(el, { childList: true, subtree: true });
  for (const child of Array.from(el.children)) sizes.observe(child);
  attempt();
  return stop;
}

/**
 * Keeps `container`'s scroll position for each history entry and puts it back when the entry is
 * shown again (`entry` changes on every navigation, Back and Forward). `hash` is the place shown,
 * kept with the position for the next launch.
 */
export function useScrollMemory(container: RefObject<HTMLElement | null>, entry: string, hash: string, enabled = true): void {
  // Returning to an entry: its position (or the top for a new one).
  useEffect(() => {
    const el = container.current;
    if (!el || !enabled) return;
    const top = savedPosition(entry);
    if (top <= 0) {
      el.scrollTo?.({ top: 0 });
      return;
    }
    return scrollWhenTall(el, entry, top);
  }, [container, entry, enabled]);

  // Leaving it: what the user scrolled to, kept as they scroll.
  useEffect(() => {
    const el = container.current;
    if (!el || !enabled) return;
    let timer = 0;
    const save = () => {
      timer = 0;
      writeEntries();
      saveJson(LAST_SCROLL_KEY, { hash, top: positions.get(entry) ?? 0 } satisfies LastScroll);
    };
    const onScroll = () => {
      // A scroll after the entry was left (the old content clamped), or while its position is
      // put back, is not where the user left it.
      if (restoring === entry || currentEntry() !== entry) return;
      positions.delete(entry); // re-inserted last: the newest entries are kept longest
      positions.set(entry, Math.round(el.scrollTop));
      if (!timer) timer = window.setTimeout(save, SAVE_MS);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      if (timer) {
        window.clearTimeout(timer);
        save();
      }
    };
  }, [container, entry, hash, enabled]);
}
