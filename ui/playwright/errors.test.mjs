// Failures on screen, axe-clean in both themes: an area's error boundary (a screen that fails to
// render shows its panel, the sidebar goes on, "Reload this screen" brings it back), an error
// toast with its action (a missing key: Open Settings), and a connection switched while the Specs
// library is open (the previous connection's rows are never shown).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const PROJECT_ALL = "6741a0c3e4b0f1a2b3c4d6a1";
const MISSING_KEY = "The service needs an API key for this. Add your key in Settings, then try again.";
const FAILURE = "The plans screen was made to fail by an end-to-end test (e2e-hooks build).";

const nav = (page) => page.getByRole("navigation", { name: "Areas" });
const heading = (page, name) => page.locator("main.main").getByRole("heading", { level: 1, name, exact: true });

async function openArea(page, name) {
  await nav(page).getByRole("button", { name, exact: true }).click();
  await heading(page, name).waitFor();
}

/**
 * The failure is logged on purpose (React and ScreenBoundary's onError): those console errors are
 * kept aside in `window.__expectedErrors` instead of failing the harness; any other still does.
 */
async function expectScreenFailureLogs(page) {
  await page.evaluate((failure) => {
    const original = console.error.bind(console);
    window.__expectedErrors = [];
    console.error = (...args) => {
      const text = args.map((a) => (a instanceof Error ? a.message : String(a))).join(" ");
      if (text.includes(failure)) window.__expectedErrors.push(text);
      else original(...args);
    };
  }, FAILURE);
}

for (const theme of ["light", "dark"]) {
  describe(`failures in the ${theme} theme`, () => {
    test(`a screen that fails to render shows its panel; the sidebar works; Reload brings it back (${theme})`, async () => {
      await h.withScenario("screen-break", { theme }, async ({ page, mock }) => {
        await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
        await heading(page, "Specs").waitFor();
        await openArea(page, "Plans");
        await expectScreenFailureLogs(page);
        await mock.emit("e2e://break-screen", "plans");

        const panel = page.locator("main.main").getByRole("alert");
        await panel.getByRole("heading", { level: 1, name: "This screen stopped working" }).waitFor();
        assert.equal(
          await textOf(panel),
          "This screen stopped working Something went wrong while showing it. Your work is saved. Reload the screen, or open another area. " +
            `Details: ${FAILURE} Reload this screen`,
        );
        assert.equal(await heading(page, "Plans").count(), 0);
        const logged = await page.evaluate(() => window.__expectedErrors);
        assert.ok(logged.length > 0, "the failure was logged");
        await expectAxeClean(page, `the error panel of a screen (${theme})`);

        // The sidebar still works: another area opens, and Plans afresh.
        await openArea(page, "Specs");
        assert.equal(await page.getByText("This screen stopped working").count(), 0);
        await openArea(page, "Plans");

        // Broken again: Reload this screen brings it back, in place.
        await mock.emit("e2e://break-screen", "plans");
        await panel.getByRole("button", { name: "Reload this screen" }).click();
        await heading(page, "Plans").waitFor();
        assert.equal(await page.getByText("This screen stopped working").count(), 0);
        await expectAxeClean(page, `Plans reloaded after its failure (${theme})`);
      });
    });

    test(`a missing key: an error toast with Open Settings that stays while focused, and leads to Settings (${theme})`, async () => {
      await h.withScenario("plans-missing-key", { theme }, async ({ page, mock }) => {
        await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
        await openArea(page, "Plans");
        await page.getByRole("button", { name: "Open by project id…" }).click();
        await page.getByRole("textbox", { name: "Project id" }).fill(PROJECT_ALL);
        await page.getByRole("button", { name: "Open plan" }).click();
        await page.getByRole("heading", { level: 2, name: "Recipe Box" }).waitFor();

        await page.getByRole("button", { name: "Download .md" }).click();
        const toast = page.locator(".toast-card").filter({ hasText: "An API key is needed" });
        await toast.waitFor();
        assert.equal(await textOf(toast), `An API key is needed ${MISSING_KEY} Open Settings Dismiss`);
        assert.deepEqual((await toast.getByRole("button").allInnerTexts()).map((t) => t.trim()), ["Open Settings", "Dismiss"]);
        assert.deepEqual((await mock.calls("plan_markdown")).map((c) => c.args), [{ target: { projectId: PROJECT_ALL } }]);
        assert.deepEqual(await mock.calls("save_document"), [], "nothing saved");
        await expectAxeClean(page, `an error toast with Open Settings (${theme})`);

        // Focus in the toast: it stays past sonner's own 4 s (an error toast stays until dismissed).
        const action = toast.getByRole("button", { name: "Open Settings" });
        await action.focus();
        await page.waitForTimeout(5_000);
        assert.equal(await toast.count(), 1, "the toast is still there");
        assert.equal(await action.evaluate((el) => el === document.activeElement), true, "the focus is still on its action");

        await action.click();
        await heading(page, "Settings").waitFor();
        await page.getByRole("heading", { level: 2, name: "Connections" }).waitFor();
        await expectAxeClean(page, `Settings opened from the toast (${theme})`);
      });
    });
  });
}

const library = (page) => page.getByRole("region", { name: "Library" });

/** The visible text of each cell of the library's rows, the date aside (it follows the time zone). */
async function libraryRows(page) {
  const rows = await library(page).locator("tbody tr").all();
  return Promise.all(
    rows.map(async (r) => (await r.locator("td").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()).filter((_, i) => i !== 3)),
  );
}

const SANDBOX_ROWS = [
  ["A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.", "✓ Completed", "Fast", "86 h", "2.5 credits", "Rename… Archive"],
  ["A booking app for a climbing gym: time slots, memberships and a waiver signed on first visit.", "✓ Completed", "Deep", "140 h", "10 credits", "Rename… Archive"],
  [
    "A marketplace for used lab equipment. [sandbox:fail] The spec could not be generated from this description. Add more detail and try again.",
    "✕ Failed",
    "Fast",
    "—",
    "0 credits",
    "Rename… Archive",
  ],
];
const WORK_ROWS = [
  ["An invoicing tool for a small bakery: orders, invoices and a monthly statement.", "✓ Completed", "Fast", "—", "2.5 credits", "Rename… Archive"],
  ["A shift planner for a hospital ward: rotas, swaps and leave requests.", "✓ Completed", "Fast", "—", "2.5 credits", "Rename… Archive"],
];

/**
 * From now on, every change of the page made while the header names Work as the connection in use
 * is checked for a row of the Sandbox (`window.__oldRowsSeen`).
 */
function watchForOldRows(page) {
  return page.evaluate((inputs) => {
    window.__oldRowsSeen = [];
    const check = () => {
      if (!document.querySelector(".app-header")?.textContent?.includes("Work")) return;
      const text = document.querySelector("main.main")?.textContent ?? "";
      for (const input of inputs) if (text.includes(input)) window.__oldRowsSeen.push(input);
    };
    new MutationObserver(check).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, SANDBOX_ROWS.map((r) => r[0].split(" [")[0]));
}

describe("switching the connection", () => {
  test("Settings → Use on Work: the Sandbox's specs are never shown again, Work's exact rows come", async () => {
    await h.withScenario("connection-switch", async ({ page, mock }) => {
      await heading(page, "Specs").waitFor();
      await library(page).locator("tbody tr").first().waitFor();
      assert.deepEqual(await libraryRows(page), SANDBOX_ROWS);

      await openArea(page, "Settings");
      const work = page.getByRole("listitem", { name: "Work" });
      await work.getByRole("button", { name: "Use" }).click();
      await work.locator(".badge-success").waitFor();
      assert.deepEqual((await mock.calls("set_active_profile")).map((c) => c.args), [{ id: "p_work" }]);

      await watchForOldRows(page);

      await nav(page).getByRole("button", { name: "Specs", exact: true }).click();
      // Right after the click, while Work's list is held: none of the Sandbox's rows.
      assert.deepEqual(await libraryRows(page), []);
      await library(page).getByText("Loading your specs…", { exact: true }).waitFor();
      assert.deepEqual(await libraryRows(page), []);
      assert.deepEqual(await page.evaluate(() => window.__oldRowsSeen), []);

      await mock.release("work-specs");
      await library(page).getByRole("button", { name: WORK_ROWS[0][0] }).waitFor();
      assert.deepEqual(await libraryRows(page), WORK_ROWS);
      assert.deepEqual(await page.evaluate(() => window.__oldRowsSeen), [], "no Sandbox row was ever shown after the switch");
      await page.getByRole("banner").getByText("Work", { exact: true }).waitFor();
      await expectAxeClean(page, "the library of the connection switched to");
    });
  });
  test("the palette's Switch to Work with the library on screen: no Sandbox row for a frame, then Work's exact rows", async () => {
    await h.withScenario("connection-switch", async ({ page, mock }) => {
      await heading(page, "Specs").waitFor();
      await library(page).locator("tbody tr").first().waitFor();
      assert.deepEqual(await libraryRows(page), SANDBOX_ROWS);
      await watchForOldRows(page);

      await page.keyboard.press("Control+K");
      const dialog = page.getByRole("dialog", { name: "Command palette" });
      await dialog.waitFor();
      await page.keyboard.type("switch to work");
      assert.deepEqual(await dialog.getByRole("option").allTextContents(), ["Switch to Work"]);
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "set_active_profile"));
      assert.deepEqual((await mock.calls("set_active_profile")).map((c) => c.args), [{ id: "p_work" }]);
      // The library stayed on screen: while Work's list is held, the header names Work and the
      // library shows none of the Sandbox's rows.
      await library(page).getByText("Loading your specs…", { exact: true }).waitFor();
      assert.equal(await textOf(page.locator(".app-header .header-right .row")), "Work");
      assert.deepEqual(await libraryRows(page), []);
      assert.deepEqual(await page.evaluate(() => window.__oldRowsSeen), []);

      await mock.release("work-specs");
      await library(page).getByRole("button", { name: WORK_ROWS[0][0] }).waitFor();
      assert.deepEqual(await libraryRows(page), WORK_ROWS);
      assert.deepEqual(await page.evaluate(() => window.__oldRowsSeen), [], "no Sandbox row was ever shown after the switch");
      await page.getByRole("banner").getByText("Work", { exact: true }).waitFor();
    });
  });
  test("the palette's Switch to Work with a Sandbox spec open: Work's list instead of the spec", async () => {
    await h.withScenario("connection-switch", async ({ page, mock }) => {
      await library(page).locator("tbody tr").first().waitFor();
      await library(page).getByRole("button", { name: SANDBOX_ROWS[0][0].split(" [")[0] }).click();
      await page.locator("#spec-title").waitFor();
      assert.match(await page.evaluate(() => location.hash), /^#\/specs\/[0-9a-f]{24}/);

      await page.keyboard.press("Control+K");
      const dialog = page.getByRole("dialog", { name: "Command palette" });
      await dialog.waitFor();
      await page.keyboard.type("switch to work");
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      // The spec belongs to the Sandbox: once the switch is made, the Specs list of Work opens.
      await page.waitForFunction(() => location.hash === "#/specs");
      await heading(page, "Specs").waitFor();
      await mock.release("work-specs");
      await library(page).getByRole("button", { name: WORK_ROWS[0][0] }).waitFor();
      assert.deepEqual(await libraryRows(page), WORK_ROWS);
    });
  });
});
