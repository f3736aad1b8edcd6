// The settings a media file was made with (size, voice, format, instructions...) that the media
// library does not keep: remembered in localStorage by media id, so the history can show them.
import { loadJson, saveJson } from "../../../lib/storage";

export type MediaSettings = Record<string, string | number>;

const KEY = "specdesk.media.settings.v1";
const MAX = 1000;

type Store = Record<string, MediaSettings>;

function isStore(v: unknown): v is Store {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

export function settingsOf(id: number): MediaSettings | null {
  const s = loadJson(KEY, isStore)?.[String(id)];
  return s && typeof s === "object" ? s : null;
}

export function rememberSettings(ids: number[], settings: MediaSettings): void {
  const store = loadJson(KEY, isStore) ?? {};
  for (const id of ids) store[String(id)] = settings;
  // Oldest ids go first when the store is full (ids grow over time).
  const kept = Object.keys(store)
    .map(Number)
    .sort((a, b) => b - a)
    .slice(0, MAX);
  saveJson(KEY, Object.fromEntries(kept.map((k) => [String(k), store[String(k)]])));
}
