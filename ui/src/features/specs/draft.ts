// The spec composer's draft: kept in localStorage on every change so a failure or a reload never
// loses it, checked here before anything is sent (same rules as the Rust side), and turned into
// the `SpecDraft` that `submit_spec` takes.
import type { FileInfo, SpecDepth, SpecDraft } from "../../ipc/contract";
import { firstTimeThisRun, loadJson, removeKey, saveJson } from "../../lib/storage";

export interface ComposerDraft {
  description: string;
  /** "Add to an existing project" is on. */
  existing: boolean;
  context: string;
  /** Documentation URLs, one per line. */
  docUrls: string;
  /** Null: follow the default depth of the settings. */
  depth: SpecDepth | null;
  file: FileInfo | null;
  /** A file the draft once had but must be chosen again (refilled from a failed job). */
  missingFileName: string | null;
}

export const EMPTY_COMPOSER: ComposerDraft = {
  description: "",
  existing: false,
  context: "",
  docUrls: "",
  depth: null,
  file: null,
  missingFileName: null,
};

export const DRAFT_STORAGE_KEY = "specdesk.specs.draft";

function isDraft(v: unknown): v is ComposerDraft {
  if (!v || typeof v !== "object") return false;
  const d = v as Record<string, unknown>;
  return typeof d.description === "string" && typeof d.docUrls === "string" && typeof d.context === "string";
}

export function loadDraft(): ComposerDraft {
  const d = loadJson(DRAFT_STORAGE_KEY, isDraft);
  const draft = d ? { ...EMPTY_COMPOSER, ...d } : EMPTY_COMPOSER;
  // Specdesk reads only files chosen or dropped since it started (Rust keeps that list for one
  // run): a file kept from an earlier run is offered to be chosen again instead of refused later.
  // Saved at once, so that every later read in this run agrees.
  if (firstTimeThisRun(`${DRAFT_STORAGE_KEY}.run`) && draft.file) {
    const again = { ...draft, file: null, missingFileName: draft.file.name };
    saveDraft(again);
    return again;
  }
  return draft;
}

export function saveDraft(d: ComposerDraft): void {
  if (isEmptyDraft(d)) removeKey(DRAFT_STORAGE_KEY);
  else saveJson(DRAFT_STORAGE_KEY, d);
}

/**
 * Where the drafts set aside by "Edit and try again" wait, newest first, until the user restores
 * or discards each: a second "Edit and try again" sets another aside without losing the first.
 * (An earlier version kept one draft, not a list, under the same key: it is read as a list of one.)
 */
export const SET_ASIDE_STORAGE_KEY = "specdesk.specs.draft.setAside";

const isDraftList = (v: unknown): v is unknown[] => Array.isArray(v) || isDraft(v);

export function loadSetAside(): ComposerDraft[] {
  const v = loadJson(SET_ASIDE_STORAGE_KEY, isDraftList);
  const list: unknown[] = !v ? [] : Array.isArray(v) ? v : [v];
  return list.filter(isDraft).map((d) => ({ ...EMPTY_COMPOSER, ...d })).filter((d) => !isEmptyDraft(d));
}

export function saveSetAside(list: readonly ComposerDraft[]): void {
  const kept = list.filter((d) => !isEmptyDraft(d));
  if (kept.length === 0) removeKey(SET_ASIDE_STORAGE_KEY);
  else saveJson(SET_ASIDE_STORAGE_KEY, kept);
}

/** `list` with `d` set aside first, unless it is empty or already there. */
export function withSetAside(list: readonly ComposerDraft[], d: ComposerDraft): ComposerDraft[] {
  if (isEmptyDraft(d) || list.some((x) => sameDraft(x, d))) return [...list];
  return [d, ...list];
}

/** A draft's first words, to name it ("A tool library for…"). */
export function draftSummary(d: ComposerDraft): string {
  const text = d.description.trim().replace(/\s+/g, " ");
  if (!text) return d.file?.name ?? d.missingFileName ?? "a draft without a description";
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Whether two drafts hold the same things (a file by its path). */
export function sameDraft(a: ComposerDraft, b: ComposerDraft): boolean {
  return (
    a.description === b.description &&
    a.existing === b.existing &&
    a.context === b.context &&
    a.docUrls === b.docUrls &&
    a.depth === b.depth &&
    (a.file?.path ?? null) === (b.file?.path ?? null) &&
    a.missingFileName === b.missingFileName
  );
}

export function isEmptyDraft(d: ComposerDraft): boolean {
  return !d.description.trim() && !d.context.trim() && !d.docUrls.trim() && !d.file && d.depth === null && !d.existing;
}

/** The fields of the composer an error can be shown beside. */
export type DraftField = "input" | "context" | "docUrls" | "file";
export type DraftErrors = Partial<Record<DraftField, string>>;

export const NEED_INPUT = "Describe what you want to build, or attach a file that describes it.";
export const NEED_CONTEXT =
  "Describe the existing project (what it does, its stack), or turn off “Add to an existing project”.";

/** Null when `raw` is an absolute http(s) address with a host. */
export function checkWebUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
  } catch {
    return false;
  }
}

/** The non-empty lines of the URL box with their 1-based line numbers. */
export function docUrlLines(text: string): { line: number; url: string }[] {
  return text
    .split(/\r?\n/)
    .map((l, i) => ({ line: i + 1, url: l.trim() }))
    .filter((l) => l.url.length > 0);
}

/** The message for the first bad documentation URL, naming its line; null when all are good. */
export function checkDocUrls(text: string): string | null {
  for (const { line, url } of docUrlLines(text)) {
    if (!checkWebUrl(url)) {
      return `Line ${line} (“${url}”) is not a full web address. Write one address per line, like https://docs.example.com.`;
    }
  }
  return null;
}

/** Every problem of the draft, by field; empty when it can be sent. */
export function checkSpecDraft(d: ComposerDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!d.description.trim() && !d.file) errors.input = NEED_INPUT;
  if (d.existing && !d.context.trim()) errors.context = NEED_CONTEXT;
  const urls = checkDocUrls(d.docUrls);
  if (urls) errors.docUrls = urls;
  return errors;
}

/** The command's draft. */
export function toSpecDraft(d: ComposerDraft, defaultDepth: SpecDepth): SpecDraft {
  const out: SpecDraft = {
    depth: d.depth ?? defaultDepth,
    input: d.description.trim(),
    docUrls: docUrlLines(d.docUrls).map((l) => l.url),
  };
  if (d.existing && d.context.trim()) out.currentContext = d.context.trim();
  if (d.file) out.filePath = d.file.path;
  return out;
}

/** Which composer field a service or Rust `IpcError.field` is about. */
export function fieldOf(field: string | undefined): DraftField | null {
  if (!field) return null;
  if (field === "input") return "input";
  if (field === "file" || field === "filePath") return "file";
  if (field === "currentContext" || field === "context") return "context";
  if (field.toLowerCase().startsWith("docurls")) return "docUrls";
  return null;
}

/** The composer refilled from a job's request (`{depth, input, currentContext?, docUrls?, fileName?}`). */
export function draftFromJobRequest(request: unknown): ComposerDraft {
  const r = (request && typeof request === "object" ? request : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const context = str(r.currentContext);
  const urls = Array.isArray(r.docUrls) ? r.docUrls.filter((u): u is string => typeof u === "string") : [];
  const depth = r.depth === "fast" || r.depth === "deep" ? r.depth : null;
  const fileName = str(r.fileName);
  return {
    description: str(r.input),
    existing: context.trim().length > 0,
    context,
    docUrls: urls.join("\n"),
    depth,
    file: null,
    missingFileName: fileName || null,
  };
}

/** The documented cost range of a spec (the service's Limits table). */
export function costRange(depth: SpecDepth): { low: number; high: number } {
  return depth === "deep" ? { low: 10, high: 50 } : { low: 5, high: 10 };
}

/** "Fast spec: about 5–10 credits." */
export function costHint(depth: SpecDepth): string {
  const { low, high } = costRange(depth);
  return `${depth === "deep" ? "Deep" : "Fast"} spec: about ${low}–${high} credits.`;
}

/** A warning when the balance may not cover the spec; null when it does. */
export function balanceWarning(depth: SpecDepth, balance: number | undefined): string | null {
  if (balance === undefined) return null;
  const { low, high } = costRange(depth);
  if (balance < low) return "Your balance is below what this spec usually costs. Top up before you send it.";
  if (balance < high) return "Your balance may not cover this spec if it runs long.";
  return null;
}
