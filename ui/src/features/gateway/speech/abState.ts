// A/B listening of two takes: which take is in each slot, which one is heard, the position kept
// when swapping, the swap key, and the preferred take of a pair (kept in the library with the
// take, `MediaItem.preferred`).
import type { MediaItem } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";

export type Slot = "a" | "b";

export interface AbState {
  a: number | null;
  b: number | null;
  active: Slot;
}

export const EMPTY_AB: AbState = { a: null, b: null, active: "a" };

/** Puts take `id` in `slot`; if it already sits in the other slot, the two trade places. */
export function putInSlot(state: AbState, slot: Slot, id: number): AbState {
  const other: Slot = slot === "a" ? "b" : "a";
  if (state[other] === id) return { ...state, [slot]: id, [other]: state[slot] };
  return { ...state, [slot]: id };
}

export function swapActive(state: AbState): AbState {
  return { ...state, active: state.active === "a" ? "b" : "a" };
}

export function isReady(state: AbState): boolean {
  return state.a !== null && state.b !== null;
}

/** Where the other take starts when swapping: the same moment, within its length. */
export function syncedTime(current: number, otherDuration: number): number {
  if (!Number.isFinite(current) || current < 0) return 0;
  return Number.isFinite(otherDuration) && otherDuration > 0 ? Math.min(current, otherDuration) : current;
}

/** "S" (no modifier) swaps, unless the user is typing in a field. */
export function isSwapKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; target: EventTarget | null }): boolean {
  if (e.key !== "s" && e.key !== "S") return false;
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const el = e.target as HTMLElement | null;
  const tag = el?.tagName;
  return !(tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el?.isContentEditable);
}

/** The ids of the preferred takes among `takes`. */
export function preferredIds(takes: MediaItem[]): number[] {
  return takes.filter((t) => t.preferred).map((t) => t.id);
}

/**
 * Marks `take` preferred over the other take of the pair (that one loses its mark), or, when it
 * already is, no longer preferred. Read the takes again to see it.
 */
export async function togglePreferred(take: MediaItem, pair: [number, number]): Promise<void> {
  const over = pair[0] === take.id ? pair[1] : pair[0];
  await call("set_media_preferred", take.preferred ? { id: take.id, preferred: false } : { id: take.id, preferred: true, over });
}
