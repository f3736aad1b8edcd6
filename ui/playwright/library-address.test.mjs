// The Specs library's list in the address (scenario "specs-long": 130 specs): its search, status
// filter, page size, page and sort are written to `#/specs?…` without adding history entries, so
// Back from an opened spec, "All specs", a reload and a relaunch all return to the same list, rows
// and scroll position; an address with unusable parameters still opens a list.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const LIST = "#/specs?q=salon&status=completed&size=10&page=2&sort=-hours";
/** Page 2 (of 10) of the 21 hair salon specs, all completed, sorted by hours (40 + index) descending. */
const PAGE_TWO = [118, 112, 106, 100, 94, 88, 82, 76, 70, 64].map((n) => `A booking app for a hair salon (#${n})`);

const library = (page) => page.getByRole("region", { name: "Library" });
const hashOf = (page) => page.evaluate(() => window.location.hash);
const entries = (page) => page.evaluate(() => window.history.length);
const mainTop = (page) => page.evaluate(() => Math.round(document.querySelector("main.main")?.scrollTop ?? -1));
const pager = (page) => library(page).locator(".pager span");
const hoursHeader = (page) => library(page).locator("th").filter({ has: page.getByRole("button", { name: /^Hours/ }) });

async function names(page) {
  return library(page).locator("tbody tr td.lib-desc > button").allInnerTexts();
}

/** Waits until `read()` gives exactly `expected` (deep equality), then asserts it. */
async function expectSoon(read, expected) {
  const deadline = Date.now() + 15_000;
  let seen;
  while (Date.now() < deadline) {
    seen = await read();
    if (JSON.stringify(seen) === JSON.stringify(expected)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(seen, expected);
}

/** The list shown is page 2 of the completed salon specs by hours, every control saying so. */
async function expectTheList(page) {
  await expectSoon(() => hashOf(page), LIST);
  const lib = library(page);
  await expectSoon(() => textOf(pager(page)), "11–20 of 21");
  await expectSoon(() => names(page), PAGE_TWO);
  assert.equal(await lib.getByLabel("Search descriptions").inputValue(), "salon");
  assert.equal(await lib.getByLabel("Status").inputValue(), "completed");
  assert.equal(await lib.getByLabel("Per page").inputValue(), "10");
  assert.equal(await lib.getByLabel("Depth").inputValue(), "");
  assert.equal(await lib.getByLabel("Pattern", { exact: true }).isChecked(), false);
  assert.equal(await hoursHeader(page).getAttribute("aria-sort"), "descending");
}

async function openSpec(page, name) {
  await library(page).getByRole("button", { name, exact: true }).click();
  await page.getByRole("button", { name: "All specs" }).waitFor();
  assert.match(await hashOf(page), /^#\/specs\/[0-9a-f]{24}$/);
}

describe("the library's list in the address", () => {
  test("search, filter, page size, page and sort: Back from a spec, All specs, a reload and a relaunch return to the same list", async () => {
    await h.withScenario("specs-long", async ({ page, mock }) => {
      const lib = library(page);
      await lib.getByText("1–25 of 130", { exact: true }).waitFor();
      assert.equal(await hashOf(page), "#/specs");
      const length = await entries(page);

      await lib.getByLabel("Search descriptions").pressSequentially("salon", { delay: 30 });
      await expectSoon(() => hashOf(page), "#/specs?q=salon");
      await lib.getByText("1–21 of 21", { exact: true }).waitFor();
      await lib.getByLabel("Status").selectOption("completed");
      await expectSoon(() => hashOf(page), "#/specs?q=salon&status=completed");
      await lib.getByLabel("Per page").selectOption("10");
      await lib.getByText("1–10 of 21", { exact: true }).waitFor();
      await lib.getByRole("button", { name: "Next" }).click();
      await lib.getByText("11–20 of 21", { exact: true }).waitFor();
      await hoursHeader(page).getByRole("button").click();
      await hoursHeader(page).getByRole("button").click();
      await expectTheList(page);
      assert.equal(await entries(page), length, "typing, filtering, paging and sorting add no history entry");
      assert.deepEqual((await mock.calls("list_specs")).at(-1).args, { query: { limit: 10, skip: 10, status: "completed", search: "salon" } });

      // Where the list was left, scrolled to its pager.
      await pager(page).scrollIntoViewIfNeeded();
      await page.locator("main.main").evaluate((main) => main.scrollBy({ top: 40 }));
      const top = await mainTop(page);
      assert.ok(top > 0, `the list is scrolled (${top} px)`);
      // Written as the user scrolls (within 250 ms): wait until the position is kept.
      await page.waitForFunction((t) => JSON.parse(window.localStorage.getItem("specdesk.route.scroll") ?? "null")?.top === t, top);

      await openSpec(page, PAGE_TWO[3]);
      await page.goBack();
      await expectTheList(page);
      await page.waitForFunction((t) => Math.abs(document.querySelector("main.main").scrollTop - t) < 2, top);

      // "All specs" in a spec reopens the list left too (as a new history entry).
      await openSpec(page, PAGE_TWO[0]);
      await page.getByRole("button", { name: "All specs" }).click();
      await expectTheList(page);

      await page.reload();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "specs-long");
      await expectTheList(page);

      // A relaunch: the window opens index.html without a hash, and reopens the last place.
      await page.goto(`${h.url}/?scenario=specs-long`);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "specs-long");
      await expectTheList(page);

      // Clearing the choices takes them out of the address.
      await lib.getByRole("button", { name: "Clear search" }).click();
      await lib.getByLabel("Status").selectOption("");
      await lib.getByLabel("Per page").selectOption("25");
      await expectSoon(() => hashOf(page), "#/specs?sort=-hours");
      await lib.getByText("1–25 of 130", { exact: true }).waitFor();
    });
  });

  test("unusable parameters are dropped one by one, and a page past the end shows the last one", async () => {
    await h.withScenario("specs-long", async ({ page, mock }) => {
      await page.goto(`${h.url}/?scenario=specs-long&open=bad#/specs?q=salon&status=bogus&size=7&page=abc&sort=price&x=1&depth=deep`);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "specs-long");
      const lib = library(page);
      await expectSoon(() => hashOf(page), "#/specs?q=salon&depth=deep");
      await lib.getByText("1–21 of 21", { exact: true }).waitFor();
      assert.equal(await lib.getByLabel("Search descriptions").inputValue(), "salon");
      assert.equal(await lib.getByLabel("Depth").inputValue(), "deep_spec");
      assert.equal(await lib.getByLabel("Status").inputValue(), "");
      assert.equal(await lib.getByLabel("Per page").inputValue(), "25");
      assert.deepEqual((await mock.calls("list_specs")).map((c) => c.args.query), [{ limit: 25, skip: 0, endpoint: "deep_spec", search: "salon" }]);

      await page.goto(`${h.url}/?scenario=specs-long&open=past#/specs?size=50&page=9`);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "specs-long");
      await lib.getByText("101–130 of 130", { exact: true }).waitFor();
      assert.equal(await hashOf(page), "#/specs?size=50&page=3");
      assert.equal(await lib.locator("tbody tr").count(), 30);
    });
  });
});
