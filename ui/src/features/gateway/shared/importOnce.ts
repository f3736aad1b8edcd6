// What the one-time imports from localStorage share (chat/localImport.ts, shared/mediaImport.ts):
// a write to the library that is done with once written or refused for good, and a map kept by
// id that loses each entry once it is in the library (its key goes with the last one).
import { toIpcError } from "../../../ipc/invoke";
import { loadJson, removeKey, saveJson } from "../../../lib/storage";

/**
 * Runs one write: true when it is done with, written or refused for good (the item is gone, or
 * the library will never take that value); false when it may work later (kept here).
 */
export async function settled(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (e) {
    const kind = toIpcError(e).kind;
    return kind === "notFound" || kind === "invalidInput";
  }
}

/** Saves `rest` under `key`, or removes the key when nothing is left. */
export function keepRest(key: string, rest: unknown[] | Record<string, unknown>): void {
  if (Array.isArray(rest) ? rest.length : Object.keys(rest).length) saveJson(key, rest);
  else removeKey(key);
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * Writes each entry of the map kept under `key` (by item id) whose id is in `ids` with `write`,
 * which answers null for a value that can never be written (dropped). Entries written or refused
 * for good leave the map; true when any left it.
 */
export async function importById(key: string, ids: Set<number>, write: (id: number, value: unknown) => Promise<unknown> | null): Promise<boolean> {
  const store = loadJson(key, isRecord);
  if (!store) return false;
  const done = new Set<string>();
  for (const [k, value] of Object.entries(store)) {
    const id = Number(k);
    if (!ids.has(id)) continue;
    const sent = write(id, value);
    if (sent && !(await settled(() => sent))) continue;
    done.add(k);
  }
  keepRest(key, Object.fromEntries(Object.entries(store).filter(([k]) => !done.has(k))));
  return done.size > 0;
}
