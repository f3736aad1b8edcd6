// Searching the image gallery by prompt: plain text (no patterns), every word must appear in the
// prompt, case and accents ignored.
import type { MediaItem } from "../../../ipc/contract";

function fold(s: string): string {
  return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

export function searchWords(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean);
}

export function matchesPrompt(prompt: string, words: string[]): boolean {
  const text = fold(prompt);
  return words.every((w) => text.includes(w));
}

export function filterByPrompt<T extends Pick<MediaItem, "prompt">>(items: T[], query: string): T[] {
  const words = searchWords(query);
  return words.length === 0 ? items : items.filter((i) => matchesPrompt(i.prompt, words));
}

/** Sizes the composer offers (the service takes "WxH"). */
export const IMAGE_SIZES = ["1024x1024", "1536x1024", "1024x1536", "512x512"] as const;

/** Selection for "compare": toggles an id; never more than four. */
export function toggleCompare(selected: number[], id: number): number[] {
  if (selected.includes(id)) return selected.filter((x) => x !== id);
  return selected.length >= 4 ? selected : [...selected, id];
}

/** Comparing takes two or four images side by side. */
export function canCompare(selected: number[]): boolean {
  return selected.length === 2 || selected.length === 4;
}

/** Another model for "same prompt on another model": the next one in the list after `current`. */
export function otherModel(models: string[], current: string): string | undefined {
  const others = models.filter((m) => m !== current);
  if (others.length === 0) return undefined;
  const at = models.indexOf(current);
  return at === -1 ? others[0] : (models.slice(at + 1).find((m) => m !== current) ?? others[0]);
}
