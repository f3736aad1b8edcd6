// What the command palette offers (areas, actions, connections, specs; the other kinds in
// paletteKinds.ts) and how its filter picks from it. Pure (no React, no IPC):
// CommandPalette.tsx builds the items from the app's data and runs the one chosen.
import type { NavTarget } from "../../lib/nav";

export type PaletteGroup = "Go to" | "Actions" | "Connections" | "Specs" | "Plans" | "Conversations" | "Batches" | "Media" | "Models";

/** The groups in the order the palette lists them. */
export const GROUPS: readonly PaletteGroup[] = ["Go to", "Actions", "Connections", "Specs", "Plans", "Conversations", "Batches", "Media", "Models"];

/** The groups of the user's things (and the catalog's models): each lists at most MAX_SPECS of
 * those that match, the newest first (paletteKinds.ts makes the items of all but Specs). */
const LONG_GROUPS: ReadonlySet<PaletteGroup> = new Set(["Specs", "Plans", "Conversations", "Batches", "Media", "Models"]);

/** The most items a long group lists (the newest that match). */
export const MAX_SPECS = 50;

export type PaletteRun =
  | { kind: "go"; to: NavTarget }
  | { kind: "newSpec" }
  | { kind: "connection"; profileId: string }
  | { kind: "spec"; specId: string };

export interface PaletteItem {
  /** Unique among the items (and usable in an element id). */
  id: string;
  group: PaletteGroup;
  label: string;
  /** Words it is also found by (not shown). */
  keywords?: string;
  /** A short note shown beside the label (a spec's date). */
  hint?: string;
  /** When it was made or last used (ISO 8601), to list the newest first in a long group. */
  created?: string;
  /** Listed only once the user types (the studios, sections and the user's other things): the
   * empty palette stays short. */
  searchOnly?: boolean;
  run: PaletteRun;
}

/** The areas and Settings, in the order of the app's navigation. */
export const GO_ITEMS: readonly PaletteItem[] = [
  { id: "go-specs", group: "Go to", label: "Specs", keywords: "library composer", run: { kind: "go", to: { area: "specs" } } },
  { id: "go-plans", group: "Go to", label: "Plans", keywords: "projects progress", run: { kind: "go", to: { area: "plans" } } },
  { id: "go-agents", group: "Go to", label: "Browser agents", keywords: "batches tasks", run: { kind: "go", to: { area: "agents" } } },
  { id: "go-gateway", group: "Go to", label: "Gateway", keywords: "chat models images speech video", run: { kind: "go", to: { area: "gateway" } } },
  { id: "go-settings", group: "Go to", label: "Settings", keywords: "preferences connections keys theme", run: { kind: "go", to: { area: "settings" } } },
];

export const NEW_SPEC_ITEM: PaletteItem = {
  id: "new-spec",
  group: "Actions",
  label: "New spec",
  keywords: "create describe write idea composer",
  run: { kind: "newSpec" },
};

export interface ProfileLike {
  id: string;
  name: string;
  active: boolean;
  builtIn: boolean;
}

/** "Switch to …" for every connection but the one in use. */
export function connectionItems(profiles: readonly ProfileLike[]): PaletteItem[] {
  return profiles
    .filter((p) => !p.active)
    .map((p) => ({
      id: `connection-${safeId(p.id)}`,
      group: "Connections",
      label: `Switch to ${p.name}`,
      keywords: `connection profile account${p.builtIn ? " sandbox" : ""}`,
      run: { kind: "connection", profileId: p.id },
    }));
}

export interface SpecLike {
  id: string;
  input?: string;
  fileName?: string;
  created?: string;
  /** The service's status, when known (a completed spec has a plan). */
  status?: string;
}

/** The longest title shown for a spec (its description's first line, cut). */
export const MAX_TITLE = 80;

/** A spec's title in lists: the first line of its description, else its file. */
export function specTitle(input: string | undefined, fileName?: string): string {
  const line = ((input ?? "").trim().split(/\r?\n/, 1)[0] ?? "").replace(/\s+/g, " ").trim();
  if (line) return line.length > MAX_TITLE ? `${cutAtWord(line, MAX_TITLE - 1)}…` : line;
  return fileName ? `From the file ${fileName}` : "Untitled spec";
}

/** At most `max` characters of `text`, ending on a whole word when one ends in its second half. */
function cutAtWord(text: string, max: number): string {
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  const kept = /\s/.test(text.charAt(max)) || space < max / 2 ? cut : cut.slice(0, space);
  return kept.replace(/[\s,;:.-]+$/, "");
}

/** One item per spec (the first of each id kept), found by title and whole description. */
export function specItems(specs: readonly SpecLike[], dateOf: (iso: string) => string = (iso) => iso.slice(0, 10)): PaletteItem[] {
  const seen = new Set<string>();
  const out: PaletteItem[] = [];
  for (const s of specs) {
    if (seen.has(s.id)) continue;
    seen.add(s.id);
    out.push({
      id: `spec-${safeId(s.id)}`,
      group: "Specs",
      label: specTitle(s.input, s.fileName),
      keywords: `${s.input ?? ""} ${s.fileName ?? ""}`,
      hint: s.created ? dateOf(s.created) : undefined,
      created: s.created,
      run: { kind: "spec", specId: s.id },
    });
  }
  return out;
}

export function safeId(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** Lower case, accents removed, white space collapsed: "Café  Übung" → "cafe ubung". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The items that match `query` (every word of it is in the label or the keywords), grouped in
 * GROUPS order; each group keeps its order, but specs come newest first and at most `maxSpecs`.
 */
export function filterPalette(items: readonly PaletteItem[], query: string, maxSpecs = MAX_SPECS): PaletteItem[] {
  const words = fold(query).split(" ").filter(Boolean);
  const matches = (item: PaletteItem) => {
    if (words.length === 0) return !item.searchOnly;
    const text = fold(`${item.label} ${item.keywords ?? ""}`);
    return words.every((w) => text.includes(w));
  };
  const found = items.filter(matches);
  return GROUPS.flatMap((group) => {
    const inGroup = found.filter((i) => i.group === group);
    if (!LONG_GROUPS.has(group)) return inGroup;
    return inGroup
      .map((item, index) => ({ item, index }))
      .sort((a, b) => (b.item.created ?? "").localeCompare(a.item.created ?? "") || a.index - b.index)
      .slice(0, maxSpecs)
      .map((x) => x.item);
  });
}
