// The window opens as it was left: its size and place across a relaunch
// (tauri-plugin-window-state), and never off-screen when the place it was left at is on no
// monitor any more (the virtual display is 1400×900). Runs last (file names in order).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { browser, launch, quit } from "./helpers.mjs";

/** Where the plugin keeps the window's state (the app's config folder, under the test HOME). */
const stateFile = () => join(process.env.XDG_CONFIG_HOME ?? join(process.env.HOME, ".config"), "app.specdesk.desktop", ".window-state.json");

after(async () => {
  await quit();
});

test("the window reopens at the size and place it was left", async () => {
  await launch();
  await browser.setWindowRect(60, 40, 1100, 720);
  const left = await browser.getWindowRect();
  assert.deepEqual([left.width, left.height], [1100, 720]);
  // Kept a moment after the window settles (so a killed app keeps it too).
  const saved = () => {
    try {
      return JSON.parse(readFileSync(stateFile(), "utf8")).main;
    } catch {
      return undefined;
    }
  };
  await browser.waitUntil(async () => saved()?.width === 1100 && saved()?.height === 720, {
    timeout: 10000,
    timeoutMsg: "the window's size was never kept",
  });
  await quit();

  await launch();
  const reopened = await browser.getWindowRect();
  assert.deepEqual(
    [reopened.x, reopened.y, reopened.width, reopened.height],
    [left.x, left.y, 1100, 720],
  );
});

test("a place on a monitor that is gone is not restored: the window opens on screen", async () => {
  await quit();
  const saved = JSON.parse(readFileSync(stateFile(), "utf8"));
  // As if it was left on a second monitor to the right, now unplugged.
  saved.main.x = 3000;
  saved.main.y = 200;
  saved.main.prev_x = 3000;
  saved.main.prev_y = 200;
  writeFileSync(stateFile(), JSON.stringify(saved));
  await launch();
  const rect = await browser.getWindowRect();
  assert.deepEqual([rect.width, rect.height], [1100, 720], "its size is kept");
  assert.ok(rect.x >= 0 && rect.x + 200 <= 1400, `on the 1400-pixel-wide screen: x = ${rect.x}`);
  assert.ok(rect.y >= 0 && rect.y + 200 <= 900, `on the 900-pixel-high screen: y = ${rect.y}`);
});
