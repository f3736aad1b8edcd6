// The mock IPC must never reach a production bundle: `vite build` (no mock mode) is scanned for
// strings only the mock has, and the same scan must find them in dist-mock (so it can find them).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { DIST_MOCK, UI_DIR } from "./harness.mjs";

/** Strings of src/mock and of @tauri-apps/api/mocks.js that no other code holds. */
const MARKERS = [
  /__SPECDESK_MOCK__/, // the test control object (src/mock/install.ts)
  /Unknown mock scenario/, // src/mock/install.ts
  /Sandbox reply to: /, // src/mock/base.ts
  /keychain-locked/, // a scenario name (src/mock/scenarios/shell.ts)
  /Couldn't find callback id/, // @tauri-apps/api/mocks.js
  /__TAURI_EVENT_PLUGIN_INTERNALS__\.unregisterListener\s*=/, // @tauri-apps/api/mocks.js
];

async function files(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(path.join(entry.parentPath ?? entry.path, entry.name));
  }
  return out;
}

async function markersIn(dir) {
  const found = new Set();
  for (const file of await files(dir)) {
    const text = await readFile(file, "utf8");
    for (const m of MARKERS) if (m.test(text)) found.add(`${m.source} in ${path.relative(dir, file)}`);
  }
  return [...found].sort();
}

let prod;
before(async () => {
  prod = await mkdtemp(path.join(tmpdir(), "specdesk-prod-"));
  const vite = path.join(UI_DIR, "node_modules", "vite", "bin", "vite.js");
  const r = spawnSync(process.execPath, [vite, "build", "--outDir", prod, "--emptyOutDir", "--logLevel", "error"], {
    cwd: UI_DIR,
    encoding: "utf8",
  });
  assert.equal(r.status, 0, `vite build failed:\n${r.stdout}\n${r.stderr}`);
});
after(async () => {
  if (prod) await rm(prod, { recursive: true, force: true });
});

test("the mock bundle holds every marker (the scan works)", async () => {
  const found = await markersIn(DIST_MOCK);
  for (const m of MARKERS) {
    assert.ok(
      found.some((f) => f.startsWith(`${m.source} in `)),
      `${m.source} not found in dist-mock: rebuild it (npm run build:mock) or update MARKERS`,
    );
  }
});

test("a production build holds no trace of the mock", async () => {
  assert.deepEqual(await markersIn(prod), []);
  const names = (await files(prod)).map((f) => path.basename(f));
  assert.deepEqual(
    names.filter((n) => /mock|install/i.test(n)),
    [],
  );
  assert.ok(names.includes("index.html"), `no index.html in the production build: ${names.join(", ")}`);
});
