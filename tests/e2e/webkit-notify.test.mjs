// Notifications that bring the user back (issue 24, point 4), in the real app with a stand-in
// notification server on the test's session bus: a spec that finishes while the window has the
// focus is told in the window only (a notice without a list marker, gone once the spec is open);
// one that finishes while another window has the focus also reaches the desktop, and clicking that
// notification brings the window back on the spec (its human document, as the notice's Open); a
// kind switched off in Settings stays in the window, and the next one on reaches the desktop
// alone. Works alone or after the others.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { browser, click, invoke, launch, openArea, quit, useSandbox, windowsTitled } from "./helpers.mjs";
import { startNotificationServer } from "./notification-server.mjs";

let server;

before(async () => {
  server = await startNotificationServer();
  await launch();
});

after(async () => {
  await quit().catch(() => undefined);
  server?.stop();
});

const appWindow = () => windowsTitled("Specdesk")[0];
const focused = () => execFileSync("xdotool", ["getwindowfocus"], { encoding: "utf8" }).trim();
/** Gives the keyboard to the app's window, or to the screen's root window with the pointer in a
 * corner the window does not cover (X gives keys on the root to the window under the pointer). */
const focusApp = () => execFileSync("xdotool", ["windowfocus", "--sync", appWindow()]);
const focusElsewhere = () => {
  const root = execFileSync("xdotool", ["search", "--maxdepth", "0", ""], { encoding: "utf8" }).trim();
  execFileSync("xdotool", ["mousemove", "--sync", "0", "0"]);
  execFileSync("xdotool", ["windowfocus", "--sync", root]);
  assert.notEqual(focused(), appWindow());
};

/** Starts a spec of `input` as the composer does. */
const submit = (input) => invoke("submit_spec", { draft: { depth: "fast", input, docUrls: [] } });

/** The notices shown now (their text) and the list marker their list items would show. */
const notices = () =>
  browser.execute(() =>
    [...document.querySelectorAll("[data-sonner-toast]")].map((li) => ({
      text: li.querySelector(".toast-card > span")?.textContent ?? "",
      marker: getComputedStyle(li).listStyleType,
      listMarker: getComputedStyle(li.parentElement).listStyleType,
    })),
  );

async function waitForNotice(text) {
  let shown = [];
  await browser.waitUntil(
    async () => {
      shown = await notices();
      return shown.some((n) => n.text === text);
    },
    { timeout: 60000, timeoutMsg: `no notice "${text}": ${JSON.stringify(shown)}` },
  );
  return shown.find((n) => n.text === text);
}

test("a spec finished while the window has the focus is told in the window only, without a list marker", async () => {
  await useSandbox();
  await openArea("Plans");
  focusApp();
  await submit("Notified in the window: a recipe box");
  const notice = await waitForNotice("Your spec is ready: “Notified in the window: a recipe box”.");
  assert.deepEqual([notice.marker, notice.listMarker], ["none", "none"]);
  assert.deepEqual(server.received, [], "no desktop notification while the window has the focus");
  // Open shows the spec, and the notice goes.
  const toast = await browser.$("[data-sonner-toast]*=Notified in the window");
  await click("button", "Open", toast);
  await browser.waitUntil(async () => /^#\/specs\/[^/?]+\?tab=human$/.test(await browser.execute(() => window.location.hash)), {
    timeout: 10000,
    timeoutMsg: "Open did not show the spec",
  });
  await browser.waitUntil(async () => !(await notices()).some((n) => n.text.includes("Notified in the window")), {
    timeout: 10000,
    timeoutMsg: "the notice stayed after its spec was opened",
  });
});

test("a spec finished while another window has the focus reaches the desktop, and its click opens the spec", async () => {
  await openArea("Plans");
  focusElsewhere();
  const job = await submit("Notified on the desktop: a habit tracker");
  await browser.waitUntil(async () => server.received.length > 0, { timeout: 60000, timeoutMsg: "no desktop notification arrived" });
  const [sent] = server.received;
  assert.deepEqual(
    { app: sent.app, summary: sent.summary, body: sent.body, actions: sent.actions },
    { app: "Specdesk", summary: "Your spec is ready", body: "Notified on the desktop: a habit tracker", actions: ["default", "Open"] },
  );
  // The window shows its notice too, for when the user comes back by other means.
  await waitForNotice("Your spec is ready: “Notified on the desktop: a habit tracker”.");
  const [done] = (await invoke("list_jobs", { kind: "spec", limit: 20 })).filter((j) => j.id === job.id);
  assert.equal(done.status, "completed");

  server.click(sent.id);
  await browser.waitUntil(async () => (await browser.execute(() => window.location.hash)) === `#/specs/${done.remoteId}?tab=human`, {
    timeout: 10000,
    timeoutMsg: "the click did not open the spec",
  });
  await browser.waitUntil(async () => focused() === appWindow(), { timeout: 10000, timeoutMsg: "the click did not bring the window forward" });
  await browser.waitUntil(async () => !(await notices()).some((n) => n.text.includes("Notified on the desktop")), {
    timeout: 10000,
    timeoutMsg: "the notice stayed after its spec was opened",
  });
});

test("a kind switched off in Settings is told in the window only", async () => {
  await openArea("Settings");
  const specs = await browser.$("#pref-notify-specs");
  await specs.waitForExist({ timeout: 10000 });
  assert.equal(await specs.isSelected(), true);
  await specs.click();
  await click("button", "Save preferences");
  await browser.$("span=Saved.").waitForExist({ timeout: 10000 });
  const before = server.received.length;
  focusElsewhere();
  await submit("Not on the desktop: a packing list");
  await waitForNotice("Your spec is ready: “Not on the desktop: a packing list”.");
  // Back as it was: the next spec finished in the background reaches the desktop, and only it (a
  // notification of the switched-off kind that came late would be here too).
  focusApp();
  await specs.click();
  await click("button", "Save preferences");
  await browser.waitUntil(async () => (await specs.isSelected()) === true, { timeout: 10000, timeoutMsg: "the switch did not come back on" });
  focusElsewhere();
  await submit("Back on the desktop: a reading list");
  await browser.waitUntil(async () => server.received.length > before, { timeout: 60000, timeoutMsg: "no desktop notification once the kind was on again" });
  await waitForNotice("Your spec is ready: “Back on the desktop: a reading list”.");
  assert.deepEqual(
    server.received.slice(before).map((n) => n.body),
    ["Back on the desktop: a reading list"],
  );
  focusApp();
});
