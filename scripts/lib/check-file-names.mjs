// Fails when two files under a folder differ only by case or by extension (`library.ts` and
// `Library.tsx`): on macOS and Windows disks, which ignore case, `import "./Library"` could then
// resolve to either. Usage: node scripts/lib/check-file-names.mjs DIR...
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p) : [p];
  });
}

/** What an import or a case-blind disk sees: the path without its last extension, in lower case. */
function key(path) {
  return path.replace(/\.[^./\\]+$/, "").toLowerCase();
}

let clashes = 0;
for (const root of process.argv.slice(2)) {
  const seen = new Map();
  for (const file of files(root)) {
    const rel = relative(root, file);
    const k = key(rel);
    seen.set(k, [...(seen.get(k) ?? []), rel]);
  }
  for (const group of seen.values()) {
    if (group.length > 1) {
      clashes += 1;
      console.error(`${root}: ${group.join(" and ")} differ only by case or extension; rename one.`);
    }
  }
}
process.exit(clashes ? 1 : 0);
