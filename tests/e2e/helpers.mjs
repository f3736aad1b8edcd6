// Shared by the end-to-end tests: the app session (through tauri-driver) and small helpers that
// find things the way a person does, by their visible text and labels. Each test file runs in its
// own process, so the one session of a file lives here; `browser` is a live binding that follows
// `launch()` and `quit()`.
import { execFileSync } from "node:child_process";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { remote } from "webdriverio";

/** A 1×1 PNG (base64): `decoded` tells it was drawn. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** A variable set by scripts/lib/e2e.sh. */
export const env = (name) => {
  const v = process.env[name];
  assert.ok(v, `${name} is set by scripts/lib/e2e.sh`);
  return v;
};

/** The app's session, or undefined between `quit()` and the next `launch()`. */
export let browser;

/** Starts the app (a new WebDriver session) on the run's data folder. */
export async function launch() {
  browser = await remote({
    hostname: "127.0.0.1",
    port: Number(env("SPECDESK_E2E_DRIVER_PORT")),
    logLevel: "error",
    capabilities: {
      // WebKitWebDriver speaks classic WebDriver only (no BiDi).
      "wdio:enforceWebDriverClassic": true,
      "tauri:options": { application: env("SPECDESK_E2E_APP") },
    },
  });
  return browser;
}

/** Ends the session, which quits the app. */
export async function quit() {
  const b = browser;
  browser = undefined;
  await b?.deleteSession();
}

/** Waits until the page's text contains `text`. */
export async function waitForText(text, timeout = 20000) {
  await browser.waitUntil(async () => (await browser.$("body").getText()).includes(text), {
    timeout,
    timeoutMsg: `"${text}" never appeared`,
  });
}

/** Clicks the `tag` element whose whole text is `name` (e.g. `click("button", "Save")`). */
export async function click(tag, name, root = browser) {
  const el = await root.$(`${tag}=${name}`);
  await el.waitForClickable({ timeout: 10000 });
  await el.click();
}

/** Types `value` into the field whose label reads exactly `label`. */
export async function fill(label, value) {
  const id = await browser.execute((text) => {
    const l = [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === text);
    return l ? l.htmlFor : null;
  }, label);
  assert.ok(id, `a field labelled ${label}`);
  // React's generated ids may hold characters a CSS id selector would need escaped.
  const input = await browser.$(`[id="${id}"]`);
  await input.clearValue();
  await input.setValue(value);
}

/** The rendered text of every element matching `selector`, white space collapsed. */
export async function texts(selector) {
  return browser.execute(
    (sel) => [...document.querySelectorAll(sel)].map((el) => el.innerText.replace(/\s+/g, " ").trim()),
    selector,
  );
}

/** The rendered text of the one element matching `selector`, white space collapsed. */
export async function textOf(selector) {
  const all = await texts(selector);
  assert.equal(all.length, 1, `exactly one element matches ${selector}`);
  return all[0];
}

/** Waits until `selector` matches exactly `n` elements. */
export async function waitForCount(selector, n, timeout = 20000) {
  let last = -1;
  await browser.waitUntil(
    async () => {
      last = await browser.execute((sel) => document.querySelectorAll(sel).length, selector);
      return last === n;
    },
    { timeout, timeoutMsg: `${selector}: ${n} elements expected, ${last} found` },
  );
}

/** Waits until the text of `selector` (one element) is exactly `expected`. */
export async function waitForTextOf(selector, expected, timeout = 20000) {
  let last;
  await browser.waitUntil(
    async () => {
      const all = await texts(selector);
      last = all.length === 1 ? all[0] : `${all.length} elements`;
      return last === expected;
    },
    { timeout, timeoutMsg: `${selector}: "${expected}" expected, "${last}" found` },
  );
}

/** The element whose `aria-label` is exactly `label`. */
export const $label = (label) => browser.$(`[aria-label="${label}"]`);

/** Replaces the value of the field whose `aria-label` is `label` (the builder's cells). */
export async function setField(label, value) {
  const el = await $label(label);
  await el.waitForExist({ timeout: 10000 });
  // Emptied as typing would (the value's own setter, then an input event React hears): WebDriver's
  // clear does not always reach a React-controlled field in WebKit, and the text typed next was
  // then added to the old value.
  await browser.execute((field) => {
    const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value").set.call(field, "");
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }, el);
  await browser.waitUntil(async () => (await el.getValue()) === "", { timeout: 5000, timeoutMsg: `${label} was not emptied` });
  await el.setValue(value);
  await browser.waitUntil(async () => (await el.getValue()) === value, {
    timeout: 5000,
    timeoutMsg: `${label} does not hold what was typed: ${JSON.stringify(await el.getValue())}`,
  });
}

/** Opens an area from the sidebar ("Specs", "Plans", "Browser agents", "Gateway", "Settings"). */
export async function openArea(name) {
  await click("button", name, await browser.$('nav[aria-label="Areas"]'));
}

/** Opens one of the Gateway's studios and waits until its tab is the selected one. */
export async function openStudio(name) {
  await click("button", name, await browser.$('[role="tablist"][aria-label="Studios"]'));
  await browser.waitUntil(
    async () => (await browser.execute(() => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent.trim())) === name,
    { timeout: 10000, timeoutMsg: `the ${name} studio did not open` },
  );
}

/** Makes connection `name` the one in use (Settings); returns its list item. */
export async function useConnection(name) {
  await openArea("Settings");
  const item = await browser.$(`li[aria-label="${name}"]`);
  await item.waitForExist({ timeout: 20000 });
  const use = await item.$("button=Use");
  if (await use.isExisting()) await use.click();
  await item.$("span=In use").waitForExist({ timeout: 10000 });
  return item;
}

/**
 * The app on its built-in Sandbox, however it starts: a first run's welcome is passed with
 * "Explore the Sandbox", then the Sandbox is made the connection in use. Returns the embedded
 * sandbox's address (it changes with every launch).
 */
export async function useSandbox() {
  await browser.waitUntil(
    async () => (await browser.$("main.welcome").isExisting()) || (await browser.$('nav[aria-label="Areas"]').isExisting()),
    { timeout: 20000, timeoutMsg: "neither the welcome nor the app frame appeared" },
  );
  if (await browser.$("main.welcome").isExisting()) await click("button", "Explore the Sandbox");
  const sandbox = await useConnection("Sandbox");
  const url = await sandbox.$(".mono").getText();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  return url;
}

/** Calls an app command from the page, as the UI does; a refusal throws with its IpcError. */
export async function invoke(command, args) {
  const out = await browser.executeAsync(
    (c, a, done) => {
      window.__TAURI_INTERNALS__.invoke(c, a).then(
        (v) => done({ ok: v }),
        (e) => done({ failed: e }),
      );
    },
    command,
    args,
  );
  if (out.failed) throw new Error(`${command}: ${JSON.stringify(out.failed)}`);
  return out.ok;
}

/** A GET (or, with `body`, a JSON POST) to the run's second sandbox, the "real service" (its control endpoints). */
export async function outsideService(path, body) {
  const r = await fetch(`${env("SPECDESK_E2E_SERVICE_URL")}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/**
 * For the benchmarks: the app past its welcome, on a new connection `name` to the run's second
 * sandbox with `apiKey` (added and made the one in use through the commands, not the screens).
 */
export async function useOutsideConnection(name, apiKey) {
  await browser.waitUntil(async () => (await browser.$("main.welcome").isExisting()) || (await browser.$('nav[aria-label="Areas"]').isExisting()), {
    timeout: 60000,
    timeoutMsg: "neither the welcome nor the app frame appeared",
  });
  if (await browser.$("main.welcome").isExisting()) await click("button", "Explore the Sandbox");
  const profile = await invoke("add_profile", { input: { name, baseUrl: env("SPECDESK_E2E_SERVICE_URL"), keyKind: "organization" }, apiKey });
  await invoke("set_active_profile", { id: profile.id });
}


/**
 * Waits until the audio or video element matching `selector` has been decoded by WebKit and
 * returns its duration in seconds; fails with the element's state when it never is.
 */
export async function waitForDuration(selector, what, timeout = 20000) {
  let duration = 0;
  await browser
    .waitUntil(
      async () => {
        duration = await browser.execute((s) => {
          const media = document.querySelector(s);
          return media && Number.isFinite(media.duration) ? media.duration : 0;
        }, selector);
        return duration > 0;
      },
      { timeout },
    )
    .catch(async () => {
      const state = await browser.execute((s) => {
        const m = document.querySelector(s);
        return m ? `src=${m.src} error=${m.error ? m.error.code : "none"} ready=${m.readyState} network=${m.networkState}` : "no such element";
      }, selector);
      assert.fail(`${what} never reported a duration: ${state}`);
    });
  return duration;
}

/** The value of the field (a select, mostly) whose label reads exactly `label`, or null. */
export async function selected(label) {
  return browser.execute((text) => {
    const l = [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === text);
    return l ? (document.getElementById(l.htmlFor)?.value ?? null) : null;
  }, label);
}

/** Waits until the field labelled `label` has a value (a model list loaded, say) and returns it. */
export async function waitForSelected(label, timeout = 20000) {
  await browser.waitUntil(async () => !!(await selected(label)), { timeout, timeoutMsg: `nothing was chosen in "${label}"` });
  return selected(label);
}

/** Adds a fault to the sandbox at `url` (`/_sandbox/faults`: `match`, `times`, what to do). */
export async function addFault(url, fault) {
  const res = await fetch(`${url}/_sandbox/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fault),
  });
  assert.equal(res.status, 200, await res.clone().text());
}

/** Clears every fault of the sandbox at `url`. */
export async function clearFaults(url) {
  await fetch(`${url}/_sandbox/faults`, { method: "DELETE" });
}

/** The text the page gives the one element matching `selector`, white space collapsed. */
export async function plain(selector) {
  return browser.execute((sel) => {
    const all = document.querySelectorAll(sel);
    return all.length === 1 ? all[0].textContent.replace(/\s+/g, " ").trim() : `${all.length} elements match ${sel}`;
  }, selector);
}

/** Waits until the chat's live region says `expected` (fails with what it says instead). */
export async function waitForAnnouncement(expected, timeoutMsg) {
  const announcer = await browser.$('[data-testid="chat-announcer"]');
  let last = "";
  await browser
    .waitUntil(async () => (last = await announcer.getProperty("textContent")) === expected, { timeout: 30000 })
    .catch(() => assert.fail(`${timeoutMsg}: the live region says ${JSON.stringify(last)}`));
}

/** Whether every image matching `selector` is decoded (WebKit drew the 1×1 image it was given). */
export async function decoded(selector) {
  return browser.execute((sel) => {
    const imgs = [...document.querySelectorAll(sel)];
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth === 1 && i.naturalHeight === 1);
  }, selector);
}

/** Checks the checkbox of `label` (a `label.check` around it) when it is not as `checked`. */
export async function setCheck(label, checked) {
  const box = await browser.$(`//label[contains(@class, "check")][contains(normalize-space(.), "${label}")]/input`);
  if ((await box.isSelected()) !== checked) await box.click();
}

/**
 * Tells the web view a drag from the OS `type` ("enter", "over", "drop" or "leave") with `paths`,
 * as Tauri does (its `tauri://drag-*` events): WebDriver cannot drag a file from outside the
 * window. The test build (`--features e2e-hooks`) counts the files of a drop as dropped.
 */
export async function tauriDrag(type, paths = []) {
  await browser.execute(
    (event, ps) =>
      window.__TAURI_INTERNALS__.invoke("plugin:event|emit", {
        event,
        payload: event === "tauri://drag-leave" ? null : { paths: ps, position: { x: 300, y: 300 } },
      }),
    `tauri://drag-${type}`,
    paths,
  );
}

/** The visible windows titled `title` on the virtual display (none: an empty list). */
export function windowsTitled(title) {
  try {
    return execFileSync("xdotool", ["search", "--onlyvisible", "--name", `^${title}$`], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return []; // xdotool exits with 1 when nothing matches
  }
}

/** Answers the native file dialog titled `title` with `path`, as a person would: the window given
 * the keyboard, its location field opened (Ctrl+L), the path typed over whatever it held, then
 * Enter. GTK's chooser completes a typed path in the background: an Enter taken before that may
 * only open a folder of the path, so the path is typed again, given longer each time, until the
 * dialog has taken it. */
export async function answerFileDialog(title, path) {
  await browser.waitUntil(async () => windowsTitled(title).length > 0, { timeout: 20000, timeoutMsg: `no dialog titled "${title}" opened` });
  const [window] = windowsTitled(title);
  for (let tries = 0, settle = 250; tries < 6 && windowsTitled(title).length > 0; tries += 1, settle *= 2) {
    execFileSync("xdotool", ["windowfocus", "--sync", window]);
    execFileSync("xdotool", ["key", "ctrl+l"]);
    execFileSync("xdotool", ["key", "ctrl+a"]);
    execFileSync("xdotool", ["type", "--delay", "20", path]);
    await new Promise((r) => setTimeout(r, settle));
    execFileSync("xdotool", ["key", "--window", window, "Return"]);
    await browser.waitUntil(async () => windowsTitled(title).length === 0, { timeout: 2000 }).catch(() => undefined);
  }
  assert.deepEqual(windowsTitled(title), [], `the dialog titled "${title}" did not take the path`);
}

/**
 * The newest speech take in the media folder, copied to `dir` as `name` (its extension kept): a
 * recording of the user's own for the transcription tests. Returns the copy's path.
 */
export function copyOfLatestTake(dir, name) {
  const media = join(env("SPECDESK_DATA_DIR"), "media");
  const audio = readdirSync(media, { recursive: true })
    .map((f) => join(media, String(f)))
    .filter((f) => /\.(wav|mp3)$/i.test(f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  assert.ok(audio, `a speech take in ${media}`);
  const copy = join(dir, `${name}${audio.slice(audio.lastIndexOf("."))}`);
  copyFileSync(audio, copy);
  return copy;
}
