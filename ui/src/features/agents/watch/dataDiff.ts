// What changed in a task's data between a batch and its re-run, path by path ("items[2].price:
// 12.5 → 13"), for the re-run comparison. The structural diff is microdiff's; this file names the
// paths and words the changes.
import diff from "microdiff";

export interface DataChange {
  /** `items[2].price`; "(the whole data)" when the data itself was added, removed or replaced. */
  path: string;
  /** "12.5 → 13", "added 13", "removed (was 12.5)". */
  text: string;
}

const WHOLE = "(the whole data)";
/** A value longer than this is cut with "…". */
const VALUE_MAX = 40;

function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === "object" && v !== null;
}

function absent(v: unknown): boolean {
  return v === null || v === undefined;
}

/** A value as compact JSON, cut to `VALUE_MAX` characters. */
export function shortValue(v: unknown): string {
  const text = v === undefined ? "nothing" : (JSON.stringify(v) ?? String(v));
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
}

/** `["items", 2, "price"]` → `items[2].price`. */
export function pathText(path: (string | number)[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out || WHOLE;
}

/** Every change from `before` to `after`, in the order microdiff finds them; empty when equal. */
export function dataChanges(before: unknown, after: unknown): DataChange[] {
  if (absent(before) && absent(after)) return [];
  if (absent(before)) return [{ path: WHOLE, text: `added ${shortValue(after)}` }];
  if (absent(after)) return [{ path: WHOLE, text: `removed (was ${shortValue(before)})` }];
  if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: WHOLE, text: `${shortValue(before)} → ${shortValue(after)}` }];
  }
  return diff(before, after).map((d) => {
    const path = pathText(d.path);
    if (d.type === "CREATE") return { path, text: `added ${shortValue(d.value)}` };
    if (d.type === "REMOVE") return { path, text: `removed (was ${shortValue(d.oldValue)})` };
    return { path, text: `${shortValue(d.oldValue)} → ${shortValue(d.value)}` };
  });
}
