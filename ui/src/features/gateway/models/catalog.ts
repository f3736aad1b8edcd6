// The model catalog as the Models tab and every picker see it: the public catalog, the
// authenticated one (audio models, prices) and the image and video lists merged by id, newest
// first, with the filters of the catalog browser. Pure functions, tested in catalog.test.ts.
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { formatCreditsWord as credits } from "../../../lib/format";
import { priceOf } from "../shared/price";

export interface CatalogFilters {
  /** Words matched against id, name and lab (every word must match). */
  search: string;
  /** A lab id, or "" for every lab. */
  lab: string;
  /** A model type (`text`, `image`, `video`, `embeddings`), or "". */
  type: string;
  /** An input modality (`text`, `image`, `audio`, `file`), or "". */
  input: string;
  /** An output modality, or "". */
  output: string;
  /** The smallest context length shown (0: any). */
  minContext: number;
}

export const NO_FILTERS: CatalogFilters = { search: "", lab: "", type: "", input: "", output: "", minContext: 0 };

/** The lab of a row: its `lab`, else the part of its id before the slash. */
export function labOf(m: CatalogModel): string {
  return m.lab || m.id.split("/")[0] || "";
}

/** Newest first; rows without a date last, then by id. */
export function byNewest(a: CatalogModel, b: CatalogModel): number {
  const d = (b.created ?? -1) - (a.created ?? -1);
  return d !== 0 ? d : a.id.localeCompare(b.id);
}

/**
 * Every list merged by id: a later list's row completes an earlier one's (the authed row brings
 * prices and audio modalities to the public row), then sorted newest first.
 */
export function mergeCatalogs(...lists: (CatalogModel[] | undefined)[]): CatalogModel[] {
  const byId = new Map<string, CatalogModel>();
  for (const list of lists) {
    for (const m of list ?? []) {
      const seen = byId.get(m.id);
      byId.set(m.id, seen ? { ...seen, ...definedOnly(m), input: union(seen.input, m.input), output: union(seen.output, m.output) } : m);
    }
  }
  return [...byId.values()].sort(byNewest);
}

function definedOnly(m: CatalogModel): Partial<CatalogModel> {
  return Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined && v !== null)) as Partial<CatalogModel>;
}

function union(a: string[] = [], b: string[] = []): string[] {
  return [...new Set([...a, ...b])];
}

export function filterModels(rows: CatalogModel[], f: CatalogFilters): CatalogModel[] {
  const words = f.search.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((m) => {
    if (f.lab && labOf(m) !== f.lab) return false;
    if (f.type && (m.type ?? "") !== f.type) return false;
    if (f.input && !m.input.includes(f.input)) return false;
    if (f.output && !m.output.includes(f.output)) return false;
    if (f.minContext > 0 && (m.context_length ?? 0) < f.minContext) return false;
    if (words.length) {
      const hay = `${m.id} ${m.name ?? ""} ${labOf(m)}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return false;
    }
    return true;
  });
}

/** The labs of the rows with their number of models, most models first (as the service orders them). */
export function labsOf(rows: CatalogModel[]): { id: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const m of rows) counts.set(labOf(m), (counts.get(labOf(m)) ?? 0) + 1);
  return [...counts].map(([id, count]) => ({ id, count })).sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
}

/** Every value of one field across the rows, sorted. */
export function valuesOf(rows: CatalogModel[], field: "input" | "output" | "type"): string[] {
  const all = rows.flatMap((m) => (field === "type" ? (m.type ? [m.type] : []) : m[field]));
  return [...new Set(all)].sort();
}

/** What a picker offers for a kind of call. */
export type ModelKind = "text" | "image" | "video" | "speech" | "transcription" | "any";

export function isKind(m: CatalogModel, kind: ModelKind): boolean {
  switch (kind) {
    case "text":
      // A chat model: reads and writes text (audio or transcription models are not chat models).
      return (m.type ?? "text") === "text" && m.input.includes("text") && m.output.includes("text") && !m.output.includes("audio");
    case "image":
      return m.type === "image" || m.output.includes("image");
    case "video":
      return m.type === "video" || m.output.includes("video");
    case "speech":
      return m.output.includes("audio");
    case "transcription":
      return m.input.includes("audio") && !m.output.includes("audio");
    default:
      return true;
  }
}

/**
 * A row's price in one phrase ("0.4 credits per image", "3 credits per 1M tokens read, 15 credits
 * per 1M written", "0.15 credits per 1,000 characters"…), or "" when the row has no price.
 */
export function priceLabel(m: CatalogModel): string {
  const image = priceOf(m, "credits_per_image");
  if (image !== undefined) return `${credits(image)} per image`;
  const second = priceOf(m, "credits_per_second");
  if (second !== undefined) return `${credits(second)} per second`;
  const tokensIn = priceOf(m, "credits_per_mtok_input");
  const tokensOut = priceOf(m, "credits_per_mtok_output");
  if (tokensIn !== undefined && tokensOut !== undefined) return `${credits(tokensIn)} per 1M tokens read, ${credits(tokensOut)} per 1M written`;
  if (tokensIn !== undefined) return `${credits(tokensIn)} per 1M tokens read`;
  if (tokensOut !== undefined) return `${credits(tokensOut)} per 1M tokens written`;
  const chars = priceOf(m, "credits_per_1k_chars");
  if (chars !== undefined) return `${credits(chars)} per 1,000 characters`;
  const clip = priceOf(m, "credits_per_clip");
  if (clip !== undefined) return `${credits(clip)} per clip`;
  const minute = priceOf(m, "credits_per_minute");
  if (minute !== undefined) return `${credits(minute)} per minute of audio`;
  return "";
}

/** "200K", "1M", "8,192". */
export function formatContext(n: number | undefined): string {
  if (!n) return "—";
  if (n >= 1_000_000 && n % 100_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}K`;
  return new Intl.NumberFormat("en-US").format(n);
}

/** A catalog's `updated_at` (Unix seconds or ms, or an ISO date) as a Date, when it is one. */
export function catalogDate(v: unknown): Date | null {
  if (typeof v === "number" && Number.isFinite(v)) return new Date(v < 1e12 ? v * 1000 : v);
  if (typeof v === "string" && v) {
    const d = new Date(/^\d+$/.test(v) ? Number(v) * (v.length <= 10 ? 1000 : 1) : v);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

/** A row's `created` (Unix seconds) as "Nov 20, 2026", or "—". */
export function formatCreated(created: number | undefined): string {
  if (!created) return "—";
  return new Date(created * 1000).toLocaleDateString("en-US", { dateStyle: "medium" });
}
