// The Specs library on the mock IPC (scenario "library", src/mock/scenarios/library.ts): search as
// you type (plain text escaped, "Pattern" checked; each keystroke answered at once from the specs
// kept on this computer until the service answers, scenario "library-held"), columns sorted, local
// titles and the local archive, each kept across a relaunch, and the page size. Every state is
// scanned with axe, in the light and the dark theme.
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

const SHOPPING = "A shared shopping list for roommates, with who pays for what.";
const HABITS = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";
const CPP = "A C++ build dashboard for game studios: nightly builds, crash reports and a leaderboard of slow targets.";
const CLIMBING = "A booking app for a climbing gym: time slots, memberships and a waiver signed on first visit.";
const FAILED = "A marketplace for used lab equipment. [sandbox:fail]";
const DEALS = "Student deals (beta): offers under $5 near campus?";
const TITLES_KEY = "specdesk.library.titles";
const KEPT = "Showing the specs kept on this computer; checking the service…";
const SERVICE_SEARCH_GATE = "service-search"; // src/mock/scenarios/library.ts
const ARCHIVE_KEY = "specdesk.library.archived";

const library = (page) => page.getByRole("region", { name: "Library" });

/** The name shown by each row (its link button), in order. */
async function names(page) {
  return library(page).locator("tbody tr td.lib-desc > button").allInnerTexts();
}

/** Waits until the rows' names are exactly `expected`. */
async function expectNames(page, expected) {
  const deadline = Date.now() + 15_000;
  let seen;
  while (Date.now() < deadline) {
    seen = await names(page);
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    await page.waitForTimeout(50);
  }
  assert.deepEqual(seen, expected);
}

/** Waits until the service has answered the search typed (the rows kept on this computer are gone). */
async function serviceAnswered(page) {
  await library(page).getByRole("status").filter({ hasText: KEPT }).waitFor({ state: "detached" });
}

async function libraryReady(page) {
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
  await library(page).locator("tbody tr").first().waitFor();
}

const row = (page, name) => library(page).locator("tbody tr").filter({ has: page.getByRole("button", { name, exact: true }) });
const header = (page, name) => library(page).locator("th").filter({ has: page.getByRole("button", { name: new RegExp(`^${name}`) }) });
const stored = (page, key) => page.evaluate((k) => JSON.parse(window.localStorage.getItem(k) ?? "null"), key);

async function relaunch(page) {
  await page.reload();
  await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "library");
  await libraryReady(page);
}

describe("library", () => {
  test("search as you type: plain text escaped once the typing pauses, Enter at once, Pattern checked", async () => {
    await h.withScenario("library", async ({ page, mock }) => {
      await libraryReady(page);
      const lib = library(page);
      await expectNames(page, [SHOPPING, HABITS, CPP, CLIMBING, FAILED, DEALS]);
      assert.equal(await lib.getByRole("button", { name: "Search", exact: true }).count(), 0, "no Search button");
      const first = (await mock.calls("list_specs")).length;

      const search = lib.getByLabel("Search descriptions");
      await search.pressSequentially("c++", { delay: 40 });
      await expectNames(page, [CPP]);
      await serviceAnswered(page);
      const calls = await mock.calls("list_specs");
      assert.equal(calls.length, first + 1, "one search for the three keys typed");
      assert.deepEqual(calls.at(-1).args, { query: { limit: 25, skip: 0, search: "c\\+\\+" } });
      assert.equal(await textOf(lib.locator(".pager span")), "1–1 of 1");
      await expectAxeClean(page, "a plain-text search");

      await search.fill("(beta): offers under $5");
      await expectNames(page, [DEALS]);
      await serviceAnswered(page);
      assert.deepEqual((await mock.calls("list_specs")).at(-1).args, {
        query: { limit: 25, skip: 0, search: "\\(beta\\):\\s+offers\\s+under\\s+\\$5" },
      });

      await search.fill("habit|c++");
      await lib.getByText("No spec matches these filters. Change or clear them to see more.", { exact: true }).waitFor();
      await serviceAnswered(page);

      await lib.getByLabel("Pattern", { exact: true }).check();
      await lib
        .getByText(
          "“habit|c++” is not a search pattern the service can use: a bracket or a special character such as ( [ { * + ? \\ is out of place. Close every bracket, or put a \\ before a special character to search for it as it is.",
          { exact: true },
        )
        .waitFor();
      assert.equal(await search.getAttribute("aria-invalid"), "true");
      const beforeBad = (await mock.calls("list_specs")).length;
      await expectAxeClean(page, "a pattern that is not valid");

      await search.fill("habit|c\\+\\+");
      await search.press("Enter");
      await expectNames(page, [HABITS, CPP]);
      const after = await mock.calls("list_specs");
      assert.equal(after.length, beforeBad + 1, "Enter searched at once and the pause did not search again");
      assert.deepEqual(after.at(-1).args, { query: { limit: 25, skip: 0, search: "habit|c\\+\\+" } });
      await page.waitForTimeout(400);
      assert.equal((await mock.calls("list_specs")).length, beforeBad + 1);

      await lib.getByRole("button", { name: "Clear search" }).click();
      await expectNames(page, [SHOPPING, HABITS, CPP, CLIMBING, FAILED, DEALS]);
      assert.equal(await search.evaluate((el) => el === document.activeElement), true);
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`each keystroke is answered at once from this computer, marked until the service's answer replaces it (${theme})`, async () => {
      await h.withScenario("library-held", { theme }, async ({ page, mock }) => {
        await libraryReady(page);
        const lib = library(page);
        const mark = lib.getByRole("status").filter({ hasText: KEPT });
        assert.equal(await textOf(lib.locator(".lib-local")), "");
        const search = lib.getByLabel("Search descriptions");
        await search.pressSequentially("c++", { delay: 40 });
        await expectNames(page, [CPP]);
        await mark.waitFor();
        const kept = await mock.calls("search_cached_specs");
        assert.deepEqual(
          kept.map((c) => c.args.query.search),
          ["c", "c\\+", "c\\+\\+"],
          "each keystroke asked this computer",
        );
        // The pause has passed and the service is asked; it has not answered yet.
        await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "list_specs" && c.args.query.search));
        assert.deepEqual((await mock.calls("list_specs")).at(-1).args, { query: { limit: 25, skip: 0, search: "c\\+\\+" } });
        assert.equal(await mark.count(), 1, "still the rows kept on this computer");
        await expectAxeClean(page, `the rows kept on this computer, the service not answered yet (${theme})`);
        if (theme === "dark") return;

        await mock.release(SERVICE_SEARCH_GATE);
        await mark.waitFor({ state: "detached" });
        assert.equal(await textOf(lib.locator(".lib-local")), "");
        await expectNames(page, [CPP]);
        assert.equal(await textOf(lib.locator(".pager span")), "1–1 of 1");

        // A pattern works the same.
        await lib.getByRole("button", { name: "Clear search" }).click();
        await expectNames(page, [SHOPPING, HABITS, CPP, CLIMBING, FAILED, DEALS]);
        await lib.getByLabel("Pattern", { exact: true }).check();
        await search.pressSequentially("shopping|habit", { delay: 20 });
        await expectNames(page, [SHOPPING, HABITS]);
        assert.equal((await mock.calls("search_cached_specs")).at(-1).args.query.search, "shopping|habit");
        await mark.waitFor({ state: "detached" });
        assert.equal((await mock.calls("list_specs")).at(-1).args.query.search, "shopping|habit");
        await expectAxeClean(page, "a pattern answered by the service");
      });
    });
  }

  test("columns sort the page: a button in each header, aria-sort on the sorted one", async () => {
    await h.withScenario("library", async ({ page, mock }) => {
      await libraryReady(page);
      const asked = (await mock.calls("list_specs")).length;
      assert.equal(await header(page, "Hours").getAttribute("aria-sort"), null);

      await header(page, "Hours").getByRole("button").click();
      assert.equal(await header(page, "Hours").getAttribute("aria-sort"), "ascending");
      await expectNames(page, [SHOPPING, DEALS, HABITS, CLIMBING, CPP, FAILED]);
      await header(page, "Hours").getByRole("button").click();
      assert.equal(await header(page, "Hours").getAttribute("aria-sort"), "descending");
      await expectNames(page, [CPP, CLIMBING, HABITS, DEALS, SHOPPING, FAILED]);
      await expectAxeClean(page, "the library sorted by hours");

      await header(page, "Credits").getByRole("button").click();
      assert.equal(await header(page, "Hours").getAttribute("aria-sort"), null);
      assert.equal(await header(page, "Credits").getAttribute("aria-sort"), "ascending");
      await expectNames(page, [FAILED, HABITS, DEALS, SHOPPING, CLIMBING, CPP]);

      await header(page, "Description").getByRole("button").click();
      await expectNames(page, [CLIMBING, CPP, HABITS, FAILED, SHOPPING, DEALS]);
      await header(page, "Created").getByRole("button").click();
      assert.equal(await header(page, "Created").getAttribute("aria-sort"), "descending");
      await expectNames(page, [SHOPPING, HABITS, CPP, CLIMBING, FAILED, DEALS]);
      await header(page, "Depth").getByRole("button").click();
      await expectNames(page, [SHOPPING, HABITS, FAILED, DEALS, CPP, CLIMBING]);
      await header(page, "Status").getByRole("button").click();
      await header(page, "Status").getByRole("button").click();
      await expectNames(page, [FAILED, SHOPPING, HABITS, CPP, CLIMBING, DEALS]);
      assert.equal((await mock.calls("list_specs")).length, asked, "sorting asks the service nothing");
    });
  });

  test("a local title: renamed in place (Escape cancels, Enter keeps), the description under it, kept across a relaunch", async () => {
    await h.withScenario("library", async ({ page }) => {
      await libraryReady(page);
      await row(page, CPP).getByRole("button", { name: "Rename…" }).click();
      const input = library(page).getByLabel("Title", { exact: true });
      assert.equal(await input.evaluate((el) => el === document.activeElement), true);
      await expectAxeClean(page, "a spec being renamed");
      await input.fill("Not kept");
      await input.press("Escape");
      await expectNames(page, [SHOPPING, HABITS, CPP, CLIMBING, FAILED, DEALS]);
      assert.equal(await stored(page, TITLES_KEY), null);

      await row(page, CPP).getByRole("button", { name: "Rename…" }).click();
      await library(page).getByLabel("Title", { exact: true }).fill("Build dashboard");
      await library(page).getByLabel("Title", { exact: true }).press("Enter");
      await expectNames(page, [SHOPPING, HABITS, "Build dashboard", CLIMBING, FAILED, DEALS]);
      assert.equal(await textOf(row(page, "Build dashboard").locator(".lib-input")), CPP);
      assert.equal(await row(page, "Build dashboard").getByRole("button", { name: "Rename…" }).evaluate((el) => el === document.activeElement), true);
      assert.deepEqual(await stored(page, TITLES_KEY), { "6744a0c3e4b0f1a2b3c4d501": "Build dashboard" });
      await expectAxeClean(page, "a spec with a local title");

      await relaunch(page);
      await expectNames(page, [SHOPPING, HABITS, "Build dashboard", CLIMBING, FAILED, DEALS]);
      // The search still reads the description, not the local title.
      await library(page).getByLabel("Search descriptions").fill("c++ build");
      await expectNames(page, ["Build dashboard"]);
    });
  });

  test("archive: hidden from the list with Undo, Show archived lists it with Unarchive, kept across a relaunch", async () => {
    await h.withScenario("library", async ({ page }) => {
      await libraryReady(page);
      const lib = library(page);
      assert.equal(await lib.getByLabel(/^Show archived/).count(), 0);

      await row(page, CLIMBING).getByRole("button", { name: "Archive" }).click();
      await expectNames(page, [SHOPPING, HABITS, CPP, FAILED, DEALS]);
      await lib.getByText("1 archived spec on this page is not shown.", { exact: true }).waitFor();
      const toggle = lib.getByLabel("Show archived (1)", { exact: true });
      assert.equal(await toggle.evaluate((el) => el === document.activeElement), true);
      const toast = page.locator(".toast-card").filter({
        hasText: "“A booking app for a climbing gym: time slots, memberships…” is archived: hidden from the list, still in your library.",
      });
      await toast.waitFor();
      await expectAxeClean(page, "a spec archived, with Undo");
      await toast.getByRole("button", { name: "Undo" }).click();
      await expectNames(page, [SHOPPING, HABITS, CPP, CLIMBING, FAILED, DEALS]);
      assert.deepEqual(await stored(page, ARCHIVE_KEY), {});

      await row(page, CLIMBING).getByRole("button", { name: "Archive" }).click();
      await row(page, FAILED).getByRole("button", { name: "Archive" }).click();
      await expectNames(page, [SHOPPING, HABITS, CPP, DEALS]);
      assert.deepEqual(Object.keys(await stored(page, ARCHIVE_KEY)).sort(), ["6741a0c3e4b0f1a2b3c4d5e7", "6741a0c3e4b0f1a2b3c4d5e8"]);

      await relaunch(page);
      await expectNames(page, [SHOPPING, HABITS, CPP, DEALS]);
      await lib.getByLabel("Show archived (2)", { exact: true }).check();
      await expectNames(page, [FAILED, CLIMBING]);
      assert.equal(await lib.locator(".pager").count(), 0);
      await expectAxeClean(page, "the archived specs");

      await row(page, CLIMBING).getByRole("button", { name: "Unarchive" }).click();
      await expectNames(page, [FAILED]);
      await lib.getByLabel("Show archived (1)", { exact: true }).uncheck();
      await expectNames(page, [SHOPPING, HABITS, CPP, CLIMBING, DEALS]);
    });
  });

  test("page size: 10, 25 or 50 a page", async () => {
    await h.withScenario("specs-long", async ({ page, mock }) => {
      await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
      const lib = library(page);
      await lib.getByText("1–25 of 130", { exact: true }).waitFor();
      const size = lib.getByLabel("Per page");
      assert.equal(await size.inputValue(), "25");
      await size.selectOption("10");
      await lib.getByText("1–10 of 130", { exact: true }).waitFor();
      assert.equal(await lib.locator("tbody tr").count(), 10);
      assert.deepEqual((await mock.calls("list_specs")).at(-1).args, { query: { limit: 10, skip: 0 } });
      await lib.getByRole("button", { name: "Next" }).click();
      await lib.getByText("11–20 of 130", { exact: true }).waitFor();
      await size.selectOption("50");
      await lib.getByText("1–50 of 130", { exact: true }).waitFor();
      assert.equal(await lib.locator("tbody tr").count(), 50);
    });
  });

  test("dark theme: sorted, renamed, archived and a bad pattern pass axe", async () => {
    await h.withScenario("library", { theme: "dark" }, async ({ page }) => {
      await libraryReady(page);
      await page.waitForFunction(() => document.documentElement.getAttribute("data-theme") === "dark");
      await header(page, "Hours").getByRole("button").click();
      await row(page, CPP).getByRole("button", { name: "Rename…" }).click();
      await expectAxeClean(page, "the library sorted, a spec being renamed (dark)");
      await library(page).getByLabel("Title", { exact: true }).fill("Build dashboard");
      await library(page).getByLabel("Title", { exact: true }).press("Enter");
      await row(page, CLIMBING).getByRole("button", { name: "Archive" }).click();
      await page.locator(".toast-card").filter({ hasText: "is archived" }).waitFor();
      await expectAxeClean(page, "a local title and a spec archived, with Undo (dark)");
      await library(page).getByLabel("Show archived (1)", { exact: true }).check();
      await expectNames(page, [CLIMBING]);
      await expectAxeClean(page, "the archived specs (dark)");
      await library(page).getByLabel("Show archived (1)", { exact: true }).uncheck();
      await library(page).getByLabel("Pattern", { exact: true }).check();
      await library(page).getByLabel("Search descriptions").fill("(oops");
      await library(page).getByRole("alert").filter({ hasText: "is not a search pattern the service can use" }).waitFor();
      await expectAxeClean(page, "a pattern that is not valid (dark)");
    });
  });
});
