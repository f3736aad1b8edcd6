// A/B listening of two takes: which take is in each slot, which one is heard, the position kept
// when swapping, the swap key, and the preferred take of a pair (kept in localStorage by media id).
import { loadJson, saveJson } from "../../../lib/storage";

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

const PREFERRED_KEY = "specdesk.speech.preferred.v1";

function isIdList(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === "number");
}

export function loadPreferred(): number[] {
  return loadJson(PREFERRED_KEY, isIdList) ?? [];
}

/** Marks `id` preferred over the other take of the pair (that one loses its mark). */
export function markPreferred(preferred: number[], pair: [number, number], id: number): number[] {
  const other = pair[0] === id ? pair[1] : pair[0];
  const next = [...preferred.filter((x) => x !== other && x !== id), id];
  saveJson(PREFERRED_KEY, next);
  return next;
}

export function unmarkPreferred(preferred: number[], id: number): number[] {
  const next = preferred.filter((x) => x !== id);
  saveJson(PREFERRED_KEY, next);
  return next;
}
