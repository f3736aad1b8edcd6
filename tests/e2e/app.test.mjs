// The real app on its embedded sandbox, driven through tauri-driver: first run, key entry,
// errors. One app session for the whole file, in order, as a person would use it. It runs first
// (the files run in name order, on one data folder): the welcome of a first run is checked here.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browser, click, env, fill, launch, quit, waitForText } from "./helpers.mjs";

const KEY = "sk_sandbox_pro";

before(async () => {
  await launch();
});

after(async () => {
  await quit();
});

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test("first run lands on the Sandbox profile and shows its balance", async () => {
  await waitForText("Welcome to Specdesk");
  await click("button", "Explore the Sandbox");
  await waitForText("Sandbox — offline, simulated");
  await waitForText("10,000");
  assert.match(await browser.$("header").getText(), /10,000\s*credits/);
});

test("a bad address is refused before sending and the draft is kept", async () => {
  await click("button", "Settings");
  await click("button", "Add connection");
  await fill("Name", "Work");
  await fill("Service address", "http://api.example.com");
  await fill("API key", KEY);
  await click("button", "Add connection");
  await waitForText("The address must start with https://");
  assert.equal(await browser.$("#profile-name").getValue(), "Work");
});

test("a key is stored in the keychain, shown only masked, and written nowhere else", async () => {
  await fill("Service address", env("SPECDESK_E2E_SERVICE_URL"));
  await click("button", "Add connection");
  await waitForText("Key ••••_pro");

  const stored = execFileSync("secret-tool", ["search", "--all", "service", "app.specdesk.desktop"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  assert.match(stored, new RegExp(`secret = ${KEY}`), "read back through the keychain");

  const dom = await browser.getPageSource();
  assert.ok(!dom.includes(KEY), "the web view's DOM never holds the key");
  const dataDir = env("SPECDESK_DATA_DIR");
  for (const file of filesUnder(dataDir).filter((f) => !f.startsWith(join(dataDir, "sandbox")))) {
    assert.ok(!readFileSync(file).includes(KEY), `${file} never holds the key`);
  }
  const work = env("SPECDESK_E2E_WORK");
  for (const log of ["tauri-driver.log", "xvfb.log"]) {
    assert.ok(!readFileSync(join(work, log)).includes(KEY), `${log} never holds the key`);
  }
});

test("the new connection works and a wrong key gets a clear error", async () => {
  const work = await browser.$("li[aria-label=Work]");
  await (await work.$("button=Test connection")).click();
  await waitForText("Connected. 1,000 credits available.");

  await (await work.$("button=API key")).click();
  await fill("Replace the API key", "sk_sandbox_wrong");
  await click("button", "Save key");
  await waitForText("the old key keeps working for 15 minutes");
  await (await work.$("button=Test connection")).click();
  await waitForText("The service did not accept your API key.");
});

test("Copy diagnostics puts the version, the connections and the log on the clipboard, and no key", async () => {
  await click("button", "Copy diagnostics");
  await waitForText("Diagnostics copied");
  const copied = execFileSync("xclip", ["-o", "-selection", "clipboard"], { encoding: "utf8" });
  const lines = copied.split("\n");
  assert.match(lines[0], /^Specdesk \d+\.\d+\.\d+$/);
  assert.equal(lines[2], "Connections: Sandbox (built in) (key set, in use); personal (key set)");
  assert.match(copied, /Specdesk started/);
  assert.match(copied, /API key saved in the keychain/);
  assert.match(copied, /request failed: The service did not accept your API key\./);
  for (const secret of [KEY, "sk_sandbox_wrong"]) assert.ok(!copied.includes(secret), `the diagnostics never hold ${secret}`);
  // One log file a day (a run that crosses midnight writes two), none holding a key.
  const logs = filesUnder(join(env("SPECDESK_DATA_DIR"), "logs"));
  assert.ok(logs.length === 1 || logs.length === 2, `one log file a day: ${logs.join(", ")}`);
  for (const log of logs) {
    assert.match(log, /specdesk\.\d{4}-\d{2}-\d{2}\.log$/);
    const text = readFileSync(log, "utf8");
    for (const secret of [KEY, "sk_sandbox_wrong"]) assert.ok(!text.includes(secret), `${log} never holds ${secret}`);
  }
});

test("a generated image is shown from the media folder through the asset protocol, and no other file is", async () => {
  // Through the real commands and the real WebKit image loader (no screen for images yet).
  const result = await browser.executeAsync((done) => {
    const tauri = window.__TAURI_INTERNALS__;
    const load = (src) =>
      new Promise((resolve) => {
        const img = new Image();
        img.onload = () => resolve([img.naturalWidth, img.naturalHeight]);
        img.onerror = () => resolve("refused");
        img.src = src;
      });
    tauri
      .invoke("generate_images", { request: { model: "openai/gpt-image-1", prompt: "A lighthouse at dusk", n: 1, size: "64x48" } })
      .then(async ({ value: items }) => {
        const path = items[0].path;
        const outside = path.replace(/media[\\/][^\\/]+$/, "settings.json");
        done({ path, outside, shown: await load(tauri.convertFileSrc(path)), other: await load(tauri.convertFileSrc(outside)) });
      })
      .catch((e) => done({ error: String(e?.message ?? JSON.stringify(e)) }));
  });
  assert.equal(result.error, undefined, result.error);
  assert.ok(result.path.startsWith(join(env("SPECDESK_DATA_DIR"), "media")), result.path);
  assert.ok(statSync(result.outside).isFile(), "the file outside the media folder exists");
  assert.deepEqual(result.shown, [64, 48]);
  assert.equal(result.other, "refused");
  // The image cost Sandbox credits: give them back, as the next files expect the Sandbox's 10,000.
  const sandbox = await browser.executeAsync((done) => {
    window.__TAURI_INTERNALS__.invoke("list_profiles", {}).then((ps) => done(ps.find((p) => p.builtIn).baseUrl));
  });
  const reset = await fetch(`${sandbox}/_sandbox/credits`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: "sk_sandbox_org", credits: 10000 }),
  });
  assert.equal(reset.status, 200);
});

/** The ids of the running copies of the app binary. */
function appProcesses() {
  const app = env("SPECDESK_E2E_APP");
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] === app;
      } catch {
        return false; // gone meanwhile
      }
    });
}

test("a second launch brings the running app forward and exits, so jobs are followed once", async () => {
  const running = appProcesses();
  assert.equal(running.length, 1, "one copy runs");
  // Every copy that gets as far as opening the library and resuming jobs logs its start.
  const starts = () =>
    filesUnder(join(env("SPECDESK_DATA_DIR"), "logs"))
      .map((f) => readFileSync(f, "utf8").split("Specdesk started").length - 1)
      .reduce((a, b) => a + b, 0);
  const before = starts();
  assert.ok(before >= 1, "the first copy logged its start");

  const second = spawn(env("SPECDESK_E2E_APP"), [], { env: process.env, stdio: "ignore" });
  const code = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the second launch did not exit")), 30000);
    second.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 0, "the second launch exits cleanly");
  assert.deepEqual(appProcesses(), running, "still the one first copy");
  assert.equal(starts(), before, "the second launch never opened the library nor resumed a job");
  // The first copy goes on answering.
  await click("button", "Specs", await browser.$('nav[aria-label="Areas"]'));
  await waitForText("Generate spec");
});

test("a settings file cut short is set aside and its last good copy restored, the user told once", async () => {
  await quit();
  const dataDir = env("SPECDESK_DATA_DIR");
  const broken = '{"settings": {"theme": ';
  // As a power cut leaves a save: the file cut short, its last good copy (the save before) beside it.
  const lastGood = JSON.parse(readFileSync(join(dataDir, "settings.last-good.json"), "utf8"));
  assert.equal(lastGood.welcomeDone, true, "the last good copy is past the first run");
  writeFileSync(join(dataDir, "settings.json"), broken);
  await launch();
  await waitForText("Your settings file was damaged (the computer may have stopped while it was saved), so Specdesk restored your settings, connections and spend caps from their last good copy");
  const kept = readdirSync(dataDir).filter((n) => n.startsWith("settings.damaged-") && n.endsWith(".json"));
  assert.equal(kept.length, 1, "the damaged file is kept");
  assert.equal(readFileSync(join(dataDir, kept[0]), "utf8"), broken);
  assert.deepEqual(JSON.parse(readFileSync(join(dataDir, "settings.json"), "utf8")), lastGood, "restored as it was");
  await click("button", "Dismiss");
  // The app itself, not the first run's welcome the defaults would show.
  await browser.$('nav[aria-label="Areas"]').waitForExist({ timeout: 10000 });
  assert.equal(await browser.$("main.welcome").isExisting(), false);
  for (const name of kept) rmSync(join(dataDir, name));
});

test("with the settings file and its last good copy both damaged, the defaults are used and the user told once", async () => {
  await quit();
  const dataDir = env("SPECDESK_DATA_DIR");
  const broken = '{"settings": {"theme": ';
  writeFileSync(join(dataDir, "settings.json"), broken);
  writeFileSync(join(dataDir, "settings.last-good.json"), '{"settings"');
  await launch();
  await waitForText("Your settings file was damaged, so Specdesk started with its default settings.");
  const kept = readdirSync(dataDir).filter((n) => n.startsWith("settings.damaged-") && n.endsWith(".json"));
  assert.equal(kept.length, 1, "the damaged file is kept");
  assert.equal(readFileSync(join(dataDir, kept[0]), "utf8"), broken);
  assert.match(await browser.$(".start-notice").getText(), new RegExp(kept[0].replace(/\./g, "\\.")));
  await click("button", "Dismiss");
  assert.equal(await browser.$(".start-notice").isExisting(), false);
  // Back on the defaults: the welcome of a first run.
  await waitForText("Welcome to Specdesk");
});
