export { formatDateTime } from "../../lib/format";

/** "coding" → "Coding run". */
export function humanizeKind(kind: string): string {
  const t = kind.replace(/[_-]+/g, " ").trim();
  if (!t) return "Run";
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return /run$/i.test(cap) ? cap : `${cap} run`;
}
