// The settings a media file was made with (size, voice, format, instructions...) that its prompt
// and model do not say: kept in the library with the file (`MediaItem.settings`), so the history
// can show them. (Earlier versions kept them in localStorage; mediaImport.ts brings those in.)
import type { MediaItem } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";

export type MediaSettings = Record<string, string | number>;

export function settingsOf(item: MediaItem): MediaSettings | null {
  return item.settings ?? null;
}

/** Keeps `settings` with files `ids` (read the media list again to see them). */
export async function rememberSettings(ids: number[], settings: MediaSettings): Promise<void> {
  await call("set_media_settings", { ids, settings });
}
