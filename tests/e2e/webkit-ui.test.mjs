// What only the real web view can prove (WebKitGTK, not the Chromium of the screen tests): an
// area's error boundary keeps the app alive (the test build, `--features e2e-hooks`, lets the test
// make one screen fail); find in a document paints its matches with CSS Custom Highlights (or
// the <mark> fallback where WebKit lacks them) and steps through them; the command palette keeps
// Tab inside and gives the focus back when it closes, and one that fails to render says so in its
// own dialog (focus on Close, then back); a spec's tab survives a relaunch; the mouse's
// back and forward buttons (pressed with xdotool on the virtual display) move through history. It works
// alone or after the other files (same data folder): it makes its own fast spec.
import { execFileSync } from "node:child_process";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { browser, click, fill, launch, openArea, quit, textOf, useSandbox, waitForText, waitForTextOf } from "./helpers.mjs";

const IDEA = "A shared shopping list for a family: items, who buys what, and a reminder when someone is at the shop.";

before(async () => {
  await launch();
});

after(async () => {
  await quit();
});

const activeTag = () => browser.execute(() => `${document.activeElement?.tagName}:${document.activeElement?.getAttribute("aria-label") ?? ""}`);
const selectedTab = () => browser.execute(() => document.querySelector('[role="tablist"][aria-label="Parts of the spec"] [aria-selected="true"]')?.textContent.trim());

test("the Sandbox is in use", async () => {
  await useSandbox();
});

test("a screen that fails to render shows its error panel; the rest of the app goes on, and Reload brings it back", async () => {
  await openArea("Plans");
  await browser.$("h1=Plans").waitForExist({ timeout: 10000 });
  const breakScreen = (area) => browser.execute((a) => window.__TAURI_INTERNALS__.invoke("plugin:event|emit", { event: "e2e://break-screen", payload: a }), area);

  await breakScreen("plans");
  await browser.$("h1=This screen stopped working").waitForExist({ timeout: 10000 });
  assert.equal(
    await textOf("main.main .panel-error .muted"),
    "Details: The plans screen was made to fail by an end-to-end test (e2e-hooks build).",
  );
  // The frame is alive: the sidebar leads to another area, and back to a working Plans screen.
  await openArea("Specs");
  await browser.$("h1=Specs").waitForExist({ timeout: 10000 });
  await openArea("Plans");
  await browser.$("h1=Plans").waitForExist({ timeout: 10000 });

  // A failure only concerns the area named: the Specs screen shown ignores one for Plans.
  await openArea("Specs");
  await browser.$("h1=Specs").waitForExist({ timeout: 10000 });
  await breakScreen("plans");
  await breakScreen("specs");
  await browser.$("h1=This screen stopped working").waitForExist({ timeout: 10000 });
  await click("button", "Reload this screen");
  await browser.$("h1=Specs").waitForExist({ timeout: 10000 });
  assert.equal(await browser.$("h1=This screen stopped working").isExisting(), false);
});

test("find in a spec's document highlights every match in WebKit and steps through them", async () => {
  await fill("What do you want to build?", IDEA);
  await (await browser.$('form[aria-label="New spec"] input[type="radio"][value="fast"]')).click();
  await click("button", "Generate spec");
  const row = await browser.$(`li.job-row[aria-label="${IDEA}"]`);
  await row.waitForExist({ timeout: 20000 });
  await (await row.$("button=Open spec")).waitForExist({ timeout: 120000 });
  await (await row.$("button=Open spec")).click();
  await browser.$("#spec-title").waitForExist({ timeout: 10000 });
  await click("button", "Human spec", await browser.$('[role="tablist"][aria-label="Parts of the spec"]'));
  await browser.$("article.doc-body h2").waitForExist({ timeout: 20000 });

  // How many times the document says "the", counted from its text block by block (each text
  // node with its nearest paragraph, heading, item or cell), as a reader would.
  const expected = await browser.execute(() => {
    const doc = document.querySelector("article.doc-body");
    const blocks = new Map();
    const walker = document.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const block = n.parentElement.closest("p, li, h1, h2, h3, h4, h5, h6, td, th, pre, dt, dd, blockquote, article");
      blocks.set(block, (blocks.get(block) ?? "") + n.data);
    }
    return [...blocks.values()].reduce((sum, text) => sum + (text.match(/the/gi) ?? []).length, 0);
  });
  assert.ok(expected >= 2, `the document says "the" at least twice (${expected})`);

  await browser.keys(["Control", "f"]);
  const input = await browser.$('input[placeholder="Find in the document"]');
  await input.waitForExist({ timeout: 10000 });
  assert.equal(await input.isFocused(), true);
  await input.setValue("the");
  await waitForTextOf(".find-count", `1 of ${expected}`);

  // WebKitGTK: painted as CSS Custom Highlights when it has them, else as <mark>s in the text.
  const painted = () =>
    browser.execute(() => {
      const registry = globalThis.CSS?.highlights;
      if (registry && typeof globalThis.Highlight === "function") {
        return { api: "highlights", all: registry.get("specdesk-find")?.size ?? 0, current: registry.get("specdesk-find-current")?.size ?? 0 };
      }
      return {
        api: "marks",
        all: document.querySelectorAll("article.doc-body mark.find-mark").length,
        current: document.querySelectorAll("article.doc-body mark.find-mark[data-current]").length,
      };
    });
  const first = await painted();
  assert.equal(first.current, 1, JSON.stringify(first));
  assert.equal(first.api === "highlights" ? first.all + first.current : first.all, expected, JSON.stringify(first));

  await browser.keys("Enter");
  await waitForTextOf(".find-count", `2 of ${expected}`);
  await browser.keys(["Shift", "Enter"]);
  await waitForTextOf(".find-count", `1 of ${expected}`);
  await browser.keys("Escape");
  await browser.waitUntil(async () => !(await browser.$(".find-bar").isExisting()), { timeout: 10000, timeoutMsg: "the find bar stayed open" });
  const cleared = await painted();
  assert.deepEqual([cleared.all, cleared.current], [0, 0]);
});

test("the command palette keeps Tab inside and gives the focus back when it closes", async () => {
  // The focus on the spec's open tab (put there directly: a click focuses a button on some
  // WebKit ports only).
  await browser.execute(() => document.querySelector('[role="tab"][aria-selected="true"]')?.focus());
  assert.equal(await browser.execute(() => document.activeElement?.textContent.trim()), "Human spec");

  await browser.keys(["Control", "k"]);
  await browser.$("dialog[open]").waitForExist({ timeout: 10000 });
  assert.equal(await activeTag(), "INPUT:Type a command or a name");
  for (let i = 0; i < 4; i += 1) {
    await browser.keys("Tab");
    assert.equal(await browser.execute(() => !!document.activeElement?.closest("dialog[open]")), true, `Tab ${i + 1} stays in the palette`);
  }
  await browser.keys("Escape");
  await browser.waitUntil(async () => !(await browser.$("dialog[open]").isExisting()), { timeout: 10000, timeoutMsg: "the palette stayed open" });
  assert.equal(await browser.execute(() => document.activeElement?.textContent.trim()), "Human spec");
});

test("a palette that fails to render says so in a dialog of its own, with the focus on Close, then gives the focus back", async () => {
  await browser.execute(() => document.querySelector('[role="tab"][aria-selected="true"]')?.focus());
  await browser.keys(["Control", "k"]);
  await browser.$("dialog[open]").waitForExist({ timeout: 10000 });
  // The test build lets the test make the open palette fail as it renders.
  await browser.execute(() => window.__TAURI_INTERNALS__.invoke("plugin:event|emit", { event: "e2e://break-screen", payload: "command palette" }));
  await browser.$("h2=The command palette stopped working").waitForExist({ timeout: 10000 });
  assert.deepEqual(
    await browser.execute(() => {
      const dialog = document.querySelector("dialog[open]");
      return [document.activeElement?.textContent.trim(), !!document.activeElement?.closest("dialog[open]"), dialog?.querySelector(".muted")?.textContent.trim()];
    }),
    ["Close", true, "Details: The command palette was made to fail by an end-to-end test (e2e-hooks build)."],
  );
  // The screen under it is still there.
  assert.equal(await selectedTab(), "Human spec");
  await browser.keys("Enter");
  await browser.waitUntil(async () => !(await browser.$("dialog[open]").isExisting()), { timeout: 10000, timeoutMsg: "the error dialog stayed open" });
  assert.equal(await browser.execute(() => document.activeElement?.textContent.trim()), "Human spec");
  // Opened again, the palette is tried afresh and works.
  await browser.keys(["Control", "k"]);
  await browser.$("dialog[open]").waitForExist({ timeout: 10000 });
  assert.equal(await activeTag(), "INPUT:Type a command or a name");
  await browser.keys("Escape");
  await browser.waitUntil(async () => !(await browser.$("dialog[open]").isExisting()), { timeout: 10000, timeoutMsg: "the palette stayed open" });
});

test("a spec's open tab is in its address and a relaunch reopens it", async () => {
  assert.equal(await selectedTab(), "Human spec");
  assert.match(await browser.execute(() => window.location.hash), /^#\/specs\/[0-9a-f]{24}\?tab=human$/);
  await quit();
  await launch();
  await browser.$("article.doc-body h2").waitForExist({ timeout: 20000 });
  assert.equal(await selectedTab(), "Human spec");
  await waitForText("Human spec");
});

/** Clicks a mouse button (8: back, 9: forward, as X numbers them) over the app's window. */
function mouseButton(x11Button) {
  const [win] = execFileSync("xdotool", ["search", "--onlyvisible", "--name", "Specdesk"], { encoding: "utf8" }).trim().split("\n");
  execFileSync("xdotool", ["mousemove", "--window", win, "700", "450"]);
  execFileSync("xdotool", ["click", String(x11Button)]);
}

test("the mouse's back and forward buttons move through the app's history one place at a time", async () => {
  await openArea("Plans");
  await browser.$("h1=Plans").waitForExist({ timeout: 10000 });
  await openArea("Browser agents");
  await browser.$("h1=Browser agents").waitForExist({ timeout: 10000 });
  // The page sees buttons 3 and 4 (WebKitGTK's numbering of X's 8 and 9); each press must move
  // one place, not two (the engine's own navigation is cancelled, the app's done once).
  await browser.execute(() => {
    window.__moves = 0;
    window.addEventListener("popstate", () => (window.__moves += 1));
  });
  const hash = () => browser.execute(() => window.location.hash);
  assert.equal(await hash(), "#/agents");

  mouseButton(8);
  await browser.$("h1=Plans").waitForExist({ timeout: 10000 });
  assert.equal(await hash(), "#/plans");
  mouseButton(9);
  await browser.$("h1=Browser agents").waitForExist({ timeout: 10000 });
  assert.equal(await hash(), "#/agents");
  assert.equal(await browser.execute(() => window.__moves), 2);
});
