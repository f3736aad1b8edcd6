// The recovery window (features/shell/Recovery.tsx): when a start-up step failed, the app shows
// what failed in plain words with Try again, Open data folder and, for the library, Start with a
// fresh library, instead of no window at all. Axe in both themes. (The real app's recovery from a
// locked and a damaged library is proven in WebKit: tests/e2e/recovery.test.mjs.)
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { expectAxeCleanInBothThemes, startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

test("a locked library: what failed, the folder, and the three ways on", async () => {
  await h.withScenario("start-locked", async ({ page, mock }) => {
    const main = page.getByRole("main", { name: "Specdesk could not open your library" });
    await main.waitFor();
    assert.match(await textOf(main), /Your library is in use by another program: it stayed locked for 5 seconds\./);
    assert.match(await textOf(main), /Your data folder is \/home\/ada\/\.local\/share\/specdesk\./);
    assert.deepEqual(await main.getByRole("button").allInnerTexts(), ["Try again", "Start with a fresh library", "Open data folder"]);
    // The heading has the focus, so a screen reader starts at what failed.
    assert.equal(await page.evaluate(() => document.activeElement?.id), "recovery-title");
    // Nothing of the app behind it: no areas, no header.
    assert.equal(await page.getByRole("navigation", { name: "Areas" }).count(), 0);
    await expectAxeCleanInBothThemes(page, "the recovery window");

    await main.getByRole("button", { name: "Open data folder" }).click();
    await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "open_data_folder"));

    // Try again while it is still locked: it says so, with what it says now.
    await main.getByRole("button", { name: "Try again" }).click();
    await main.getByRole("status").filter({ hasText: "It still could not start: see what it says now." }).waitFor();
    await main.getByText("Details").click();
    await main.getByText("database is locked (again)").waitFor();
    assert.equal((await mock.calls("retry_start")).length, 1);
    await expectAxeCleanInBothThemes(page, "the recovery window after Try again");

    // A fresh library: the app starts, so the page reloads into it.
    await page.evaluate(() => (window.__beforeReload = true));
    await main.getByRole("button", { name: "Start with a fresh library" }).click();
    await page.waitForFunction(() => window.__beforeReload === undefined);
  });
});

test("a read-only data folder offers no fresh library", async () => {
  await h.withScenario("start-read-only", async ({ page }) => {
    const main = page.getByRole("main", { name: "Specdesk could not open its data folder" });
    await main.waitFor();
    assert.match(await textOf(main), /Check that it is writable and on a disk that is connected, then choose Try again\./);
    assert.deepEqual(await main.getByRole("button").allInnerTexts(), ["Try again", "Open data folder"]);
    await expectAxeCleanInBothThemes(page, "the recovery window for a folder");
  });
});
