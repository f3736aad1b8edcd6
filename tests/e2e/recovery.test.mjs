// A library that cannot be opened never stops the app: the real app, started on a library held
// locked by another program, opens the recovery window (Try again, Start with a fresh library,
// Open data folder) instead of no window; a damaged library is set aside and a fresh one made.
// Runs after app.test.mjs on the same data folder, and leaves the library as it found it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browser, click, env, launch, quit, waitForText } from "./helpers.mjs";

const dataDir = () => env("SPECDESK_DATA_DIR");
const library = () => join(dataDir(), "library.sqlite");
const setAside = () => readdirSync(dataDir()).filter((n) => /^library\.damaged-.*\.sqlite$/.test(n));

/** Another program holding the library under an exclusive lock (Python's sqlite3), until `release`. */
async function lockLibrary() {
  const holder = spawn(
    "python3",
    [
      "-c",
      `import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA locking_mode=EXCLUSIVE")
c.execute("BEGIN EXCLUSIVE")
c.execute("SELECT count(*) FROM sqlite_master").fetchall()
print("locked", flush=True)
sys.stdin.read()`,
      library(),
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  await new Promise((resolve, reject) => {
    holder.stdout.on("data", (d) => String(d).includes("locked") && resolve());
    holder.on("exit", (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return {
    release: () =>
      new Promise((resolve) => {
        holder.removeAllListeners("exit");
        holder.on("exit", resolve);
        holder.stdin.end();
      }),
  };
}

let keep;

before(async () => {
  // Each file runs in its own process, after app.test.mjs quit the app: the library is free.
  keep = join(env("SPECDESK_E2E_WORK"), "library.kept.sqlite");
  copyFileSync(library(), keep);
});

after(async () => {
  await quit();
  for (const name of setAside()) rmSync(join(dataDir(), name));
  for (const suffix of ["-wal", "-shm"]) rmSync(library() + suffix, { force: true });
  copyFileSync(keep, library());
});

test("a library locked by another program opens the recovery window, and Try again starts the app once it is free", async () => {
  const lock = await lockLibrary();
  try {
    await launch();
    await waitForText("Specdesk could not open your library", 30000);
    await waitForText("Your library is in use by another program: it stayed locked for 5 seconds.");
    assert.equal(await browser.$("h1").getText(), "Specdesk could not open your library");
    // The heading has the focus, so a screen reader starts there.
    assert.equal(await browser.execute(() => document.activeElement?.id), "recovery-title");
    assert.match(await browser.$("main.recovery").getText(), new RegExp(`Your data folder is ${dataDir().replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`));
    for (const name of ["Try again", "Start with a fresh library", "Open data folder"]) {
      assert.ok(await browser.$(`button=${name}`).isExisting(), `${name} is offered`);
    }
    // Still locked: it says so again, and nothing was set aside.
    await click("button", "Try again");
    await waitForText("It still could not start: see what it says now.", 30000);
    assert.deepEqual(setAside(), [], "a lock is no damage: nothing set aside");
  } finally {
    await lock.release();
  }
  await click("button", "Try again");
  // The app itself: the frame (or the welcome of the defaults app.test.mjs left).
  await browser.waitUntil(
    async () => (await browser.$("main.welcome").isExisting()) || (await browser.$('nav[aria-label="Areas"]').isExisting()),
    { timeout: 30000, timeoutMsg: "the app never started after the lock was let go" },
  );
  assert.equal(await browser.$("main.recovery").isExisting(), false);
  assert.deepEqual(setAside(), []);
});

test("Start with a fresh library sets the held library aside and starts on a new one", async () => {
  await quit();
  const before = readFileSync(library());
  const lock = await lockLibrary();
  try {
    await launch();
    await waitForText("Your library is in use by another program", 30000);
    await click("button", "Start with a fresh library");
    await browser.waitUntil(async () => !(await browser.$("main.recovery").isExisting()), {
      timeout: 30000,
      timeoutMsg: "the app never started on a fresh library",
    });
  } finally {
    await lock.release();
  }
  const kept = setAside();
  assert.equal(kept.length, 1, "the old library is kept aside");
  assert.deepEqual(readFileSync(join(dataDir(), kept[0])), before, "kept as it was");
});

test("a damaged library is set aside at start, a fresh one made, and the user told once", async () => {
  await quit();
  for (const name of setAside()) rmSync(join(dataDir(), name));
  const damaged = Buffer.from("SQLite format 3\0".padEnd(4096, "#"));
  writeFileSync(library(), damaged);
  for (const suffix of ["-wal", "-shm"]) rmSync(library() + suffix, { force: true });
  await launch();
  await waitForText("Your library could not be read, so Specdesk set it aside as");
  const kept = setAside();
  assert.equal(kept.length, 1);
  assert.deepEqual(readFileSync(join(dataDir(), kept[0])), damaged);
  assert.match(await browser.$(".start-notice").getText(), new RegExp(kept[0].replace(/\./g, "\\.")));
  assert.match(await browser.$(".start-notice").getText(), /listed again from the service/);
  await click("button", "Dismiss");
  assert.equal(await browser.$(".start-notice").isExisting(), false);
});
