// What a spec is called in the library: its local title when it has one, else the start of its
// description (or the file it was made from).
import type { SpecRecord } from "../../../bindings/SpecRecord";

/** `text` cut to at most `max` characters (and "…"), at the end of a word when there is one. */
export function excerpt(text: string, max = 160): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max + 1);
  const space = cut.search(/\s\S*$/);
  const head = space > max / 2 ? cut.slice(0, space) : t.slice(0, max);
  return `${head.replace(/[\s,;:.]+$/, "")}…`;
}

/** The spec's own description, shortened: what a row shows without a local title. */
export function specDescription(spec: SpecRecord): string {
  return excerpt(spec.input) || (spec.uploadedFileName ? `From the file ${spec.uploadedFileName}` : "Untitled spec");
}

/** The row's name: the local title, else the description. */
export function specName(spec: SpecRecord, titles: Readonly<Record<string, string>>): string {
  return titles[spec._id] ?? specDescription(spec);
}
