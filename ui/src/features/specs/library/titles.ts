// Local titles of specs: a name the user gives a spec on this computer (the service has none),
// kept in localStorage by spec id. The library shows it above the spec's description; the spec
// view can show it with `useSpecTitle(specId)`.
import { useSyncExternalStore } from "react";
import { localMap } from "./localMap";

export const TITLES_KEY = "specdesk.library.titles";
/** The longest title kept (longer text is cut). */
export const MAX_TITLE_LENGTH = 120;

const titles = localMap(TITLES_KEY, (v): v is string => typeof v === "string" && v.trim() !== "");

/** The title as it will be kept: white space collapsed, at most MAX_TITLE_LENGTH characters. */
export function cleanTitle(raw: string): string {
  return raw.replace(/\s+/g, " ").trim().slice(0, MAX_TITLE_LENGTH).trim();
}

export function specTitle(specId: string): string | undefined {
  return titles.get(specId);
}

/** Keeps `raw` as the spec's title; an empty title removes it (the description shows again). */
export function setSpecTitle(specId: string, raw: string): void {
  const title = cleanTitle(raw);
  if ((titles.get(specId) ?? "") === title) return;
  titles.set(specId, title || undefined);
}

/** Every local title, by spec id; re-renders when one changes. */
export function useSpecTitles(): Readonly<Record<string, string>> {
  return useSyncExternalStore(titles.subscribe, titles.all);
}

/** The local title of one spec (undefined when it has none); re-renders when it changes. */
export function useSpecTitle(specId: string): string | undefined {
  return useSyncExternalStore(titles.subscribe, () => titles.get(specId));
}

/** Reads the titles from storage again (tests). */
export function reloadSpecTitles(): void {
  titles.reload();
}
