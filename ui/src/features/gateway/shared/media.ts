// Generated media of the library: the address a saved file is shown from (the asset protocol,
// whose scope is the media folder only), and small facts read from its path.
import { convertFileSrc } from "@tauri-apps/api/core";

/** The asset-protocol address of a saved file; null where there is no app shell to serve it. */
export function mediaSrc(path: string): string | null {
  try {
    return convertFileSrc(path);
  } catch {
    return null;
  }
}

/** The file's name: "image-123-0.png". */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The file's extension in lower case, without the dot ("" when it has none). */
export function fileExtension(path: string): string {
  const name = fileName(path);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** A model id without its lab: "openai/gpt-image-1" → "gpt-image-1". */
export function shortModel(id: string): string {
  const slash = id.indexOf("/");
  return slash >= 0 ? id.slice(slash + 1) : id;
}

/** A recording made from the microphone (kept as audio, but nothing generated it). */
export function isRecording(item: { settings?: Record<string, string | number> }): boolean {
  return item.settings?.source === "microphone";
}

/**
 * The number each audio file of the connection goes by in its history, counted from its oldest
 * (ids grow with time): "Take 1" is the connection's first take and "Recording 1" its first
 * recording. Not the file's id, which the media library gives every file of every kind and
 * connection (the first take of a new connection was "Take 2"). Counted over the files the studio
 * reads (the newest MEDIA_LIMIT of the kind).
 */
export function historyNumbers(items: readonly { id: number; settings?: Record<string, string | number> }[]): Map<number, number> {
  const numbers = new Map<number, number>();
  let takes = 0;
  let recordings = 0;
  for (const item of [...items].sort((a, b) => a.id - b.id)) {
    numbers.set(item.id, isRecording(item) ? ++recordings : ++takes);
  }
  return numbers;
}
