// A place's view in its address and its history entry: a spec's tab (a history entry of its own,
// focus kept on the tab), a plan's filter chip and open feature (replacing the entry), and the
// scroll position each entry was left at (Back returns to it, a relaunch too).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startHarness } from "./harness.mjs";

const SPEC_HABITS = "6741a0c3e4b0f1a2b3c4d5e6";
const HABITS_INPUT = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";
const PROJECT_ALL = "6741a0c3e4b0f1a2b3c4d6a1";
const PROJECT_LONG = "6741a0c3e4b0f1a2b3c4d6a3"; // 60 features: taller than the window

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const hashOf = (page) => page.evaluate(() => window.location.hash);
const entries = (page) => page.evaluate(() => window.history.length);
const mainTop = (page) => page.evaluate(() => document.querySelector("main.main")?.scrollTop ?? -1);

async function heading(page, name, level = 1) {
  await page.locator("main.main").getByRole("heading", { level, name, exact: true }).waitFor();
}

/** A relaunch: the window opens index.html without a hash. */
async function relaunch(page, scenario) {
  await page.goto(`${h.url}/?scenario=${scenario}`);
  await page.waitForFunction((s) => window.__SPECDESK_MOCK__?.scenario === s, scenario);
}

const selectedTab = (page) => page.getByRole("tablist", { name: "Parts of the spec" }).locator('[role="tab"][aria-selected="true"]').innerText();

describe("a spec's tab", () => {
  test("is in the address: a tab is a history entry, the focus stays on it, and a relaunch reopens it", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      await page.getByRole("button", { name: HABITS_INPUT, exact: true }).click();
      await heading(page, "Team habit tracker");
      assert.equal(await hashOf(page), `#/specs/${SPEC_HABITS}`);
      assert.equal(await selectedTab(page), "Overview");

      const human = page.getByRole("tab", { name: "Human spec" });
      await human.click();
      await page.locator("article.doc-body").waitFor();
      assert.equal(await hashOf(page), `#/specs/${SPEC_HABITS}?tab=human`);
      assert.equal(await selectedTab(page), "Human spec");
      // A new view of the same spec is not a new place: the focus stays on the tab.
      assert.equal(await human.evaluate((el) => el === document.activeElement), true);

      await page.goBack();
      await page.waitForFunction(() => !window.location.hash.includes("tab="));
      assert.equal(await hashOf(page), `#/specs/${SPEC_HABITS}`);
      assert.equal(await selectedTab(page), "Overview");
      await page.goForward();
      await page.locator("article.doc-body").waitFor();
      assert.equal(await selectedTab(page), "Human spec");

      await relaunch(page, "default");
      await page.locator("article.doc-body").waitFor();
      assert.equal(await hashOf(page), `#/specs/${SPEC_HABITS}?tab=human`);
      assert.equal(await selectedTab(page), "Human spec");
    });
  });
});

describe("scroll positions", () => {
  test("Back returns to where an entry was scrolled, a new place starts at the top, and a relaunch reopens the position", async () => {
    await h.withScenario("plans-long", async ({ page }) => {
      const place = `#/plans?projectId=${PROJECT_LONG}`;
      // A fresh page opened on the plan (a query of its own, so this is a load, not a hash change).
      await page.goto(`${h.url}/?scenario=plans-long&open=plan${place}`);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "plans-long");
      const lastFeature = page.locator("li.feature").nth(59);
      await lastFeature.waitFor({ timeout: 30_000 });
      const room = await page.evaluate(() => {
        const main = document.querySelector("main.main");
        return main ? main.scrollHeight - main.clientHeight : 0;
      });
      assert.ok(room > 400, `the document is taller than the window (${room} px to scroll)`);
      const target = Math.min(600, room - 10);
      await page.locator("main.main").evaluate((main, top) => main.scrollTo({ top }), target);
      await page.waitForFunction((top) => Math.abs(document.querySelector("main.main").scrollTop - top) < 2, target);

      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway", exact: true }).click();
      await heading(page, "Gateway");
      assert.equal(await mainTop(page), 0);

      await page.goBack();
      await lastFeature.waitFor({ timeout: 30_000 });
      await page.waitForFunction((top) => Math.abs(document.querySelector("main.main").scrollTop - top) < 2, target);
      assert.equal(Math.round(await mainTop(page)), target);

      // Saved for the next launch with its place, as the user scrolls (written within 250 ms).
      await page.waitForFunction(
        ([hash, top]) => {
          const kept = JSON.parse(window.localStorage.getItem("specdesk.route.scroll") ?? "null");
          return kept?.hash === hash && kept?.top === top;
        },
        [place, target],
      );
      await relaunch(page, "plans-long");
      await lastFeature.waitFor({ timeout: 30_000 });
      await page.waitForFunction((top) => Math.abs(document.querySelector("main.main").scrollTop - top) < 2, target);
      assert.equal(Math.round(await mainTop(page)), target);
    });
  });
});

describe("a plan's view", () => {
  test("its filter chip and open feature are in the address, replace the entry, and survive a relaunch", async () => {
    await h.withScenario("plans-home", async ({ page }) => {
      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Plans", exact: true }).click();
      await heading(page, "Plans");
      await page.getByRole("region", { name: "Your projects", exact: true }).getByRole("button", { name: "Recipe Box", exact: true }).click();
      await heading(page, "Recipe Box", 2);
      const planHash = `#/plans?projectId=${PROJECT_ALL}`;
      assert.equal(await hashOf(page), planHash);
      const length = await entries(page);

      const group = page.getByRole("group", { name: "Show features by status" });
      await group.getByRole("button", { name: "Planned 3" }).click();
      await page.waitForFunction(() => window.location.hash.includes("filter="));
      assert.equal(await hashOf(page), `${planHash}&filter=status%3Aplanned`);
      await page.getByRole("button", { name: "Recipe photos", exact: true }).click();
      await page.getByRole("region", { name: "Recipe photos", exact: true }).waitFor();
      assert.equal(await hashOf(page), `${planHash}&filter=status%3Aplanned&feature=f-photos`);
      assert.equal(await entries(page), length, "a change of view adds no history entry");

      await relaunch(page, "plans-home");
      await page.getByRole("region", { name: "Recipe photos", exact: true }).waitFor();
      assert.equal(await group.getByRole("button", { name: "Planned 3" }).getAttribute("aria-pressed"), "true");
      assert.equal(await page.locator("li.feature").count(), 3);

      // Closing the details and choosing All take them out of the address.
      await page.getByRole("button", { name: "Recipe photos", exact: true }).click();
      await group.getByRole("button", { name: "All 12" }).click();
      await page.waitForFunction((hash) => window.location.hash === hash, planHash);
    });
  });
});
