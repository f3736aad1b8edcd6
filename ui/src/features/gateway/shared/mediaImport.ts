// One-time import: the settings files were made with and the preferred takes of A/B listening,
// which an earlier version kept in this web view's localStorage by media id, are written to the
// library's media rows, then removed here. Only files of the connection in use can be written, so
// only listed files are brought in; the rest wait here until their connection is in use.
import type { MediaItem } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { loadJson, storedKeys } from "../../../lib/storage";
import { importById, keepRest, settled } from "./importOnce";

// The keys earlier versions wrote (never written any more).
const SETTINGS = "specdesk.media.settings.v1";
const PREFERRED = "specdesk.speech.preferred.v1";

type Settings = Record<string, string | number>;
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const isSettings = (v: unknown): v is Settings => isRecord(v) && Object.values(v).every((x) => typeof x === "string" || typeof x === "number");
const isIdList = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === "number");

async function importSettings(ids: Set<number>): Promise<boolean> {
  return importById(SETTINGS, ids, (id, settings) => (isSettings(settings) ? call("set_media_settings", { ids: [id], settings }) : null));
}

async function importPreferred(ids: Set<number>): Promise<boolean> {
  const list = loadJson(PREFERRED, isIdList);
  if (!list) return false;
  const done = new Set<number>();
  for (const id of list.filter((i) => ids.has(i))) {
    if (await settled(() => call("set_media_preferred", { id, preferred: true }))) done.add(id);
  }
  keepRest(PREFERRED, list.filter((i) => !done.has(i)));
  return done.size > 0;
}

let running: Promise<boolean> | null = null;

/**
 * Brings what is kept here for the listed files into the library; true when something was
 * written (so the list is read again). What fails for a reason that may pass stays for next time.
 */
export function importLocalMedia(list: MediaItem[]): Promise<boolean> {
  if (!storedKeys(SETTINGS).length && !storedKeys(PREFERRED).length) return Promise.resolve(false);
  running ??= (async () => {
    const ids = new Set(list.map((m) => m.id));
    const settings = await importSettings(ids);
    const preferred = await importPreferred(ids);
    return settings || preferred;
  })().finally(() => {
    running = null;
  });
  return running;
}
