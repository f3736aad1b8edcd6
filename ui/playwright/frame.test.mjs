// The app frame: header (active connection, live credit meter), the areas' navigation and
// each area's page, on the mock IPC.
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

const AREAS = [
  { nav: "Specs", title: "Specs" },
  { nav: "Plans", title: "Plans" },
  { nav: "Browser agents", title: "Browser agents" },
  { nav: "Gateway", title: "Gateway" },
];

describe("the frame", () => {
  test("names the active connection, flags the Sandbox and shows its balance", async () => {
    await h.withScenario("default", async ({ page }) => {
      const header = page.getByRole("banner");
      const credits = header.getByLabel("Credits remaining: 10,000");
      await credits.waitFor();
      assert.equal(await textOf(credits), "10,000 credits");
      assert.equal(await textOf(header.locator(".brand")), "Specdesk");
      await header.getByText("Sandbox", { exact: true }).waitFor();
      assert.equal(await textOf(header.locator(".badge-sandbox")), "Sandbox — offline, simulated");
      const nav = page.getByRole("navigation", { name: "Areas" });
      assert.deepEqual(
        (await nav.getByRole("button").allInnerTexts()).map((t) => t.trim()),
        ["Specs", "Plans", "Browser agents", "Gateway", "Settings"],
      );
      await expectAxeClean(page, "the frame on Specs");
    });
  });

  test("keeps the balance live from credits-changed events, with the last change", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      const header = page.getByRole("banner");
      await header.getByLabel("Credits remaining: 10,000").waitFor();
      await mock.emit("credits-changed", { profileId: "sandbox", creditsRemaining: 9997.5, at: "2026-11-22T09:10:00.000Z" });
      const credits = header.getByLabel("Credits remaining: 9,997.5");
      await credits.waitFor();
      assert.equal(await textOf(credits), "9,997.5 credits −2.5");
      // Another connection's balance does not replace the active one's.
      await mock.emit("credits-changed", { profileId: "p_other", creditsRemaining: 5, at: "2026-11-22T09:11:00.000Z" });
      await mock.emit("credits-changed", { profileId: "sandbox", creditsRemaining: 9999.5, at: "2026-11-22T09:12:00.000Z" });
      assert.equal(await textOf(header.getByLabel("Credits remaining: 9,999.5")), "9,999.5 credits +2");
      await expectAxeClean(page, "the frame with a credit change");
    });
  });

  test("reads the balance again when a job ends (a batch resumed after a relaunch, charged by the service)", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      const header = page.getByRole("banner");
      await header.getByLabel("Credits remaining: 10,000").waitFor();
      const batch = (status, progress) => ({
        id: 41,
        kind: "batch",
        profileId: "sandbox",
        request: { tasks: [] },
        remoteId: "b041",
        status,
        progress,
        result: null,
        createdAt: "2026-11-22T09:00:00.000Z",
        updatedAt: "2026-11-22T09:10:00.000Z",
      });
      // The service charges the resumed batch as it runs; this app is told nothing of it.
      await page.evaluate(() => {
        window.__SPECDESK_MOCK__.db.credits.sandbox = 9996.796;
      });
      const reads = (await mock.calls("credits_balance")).length;
      await mock.emit("job-changed", batch("running", "3 of 4 tasks finished"));
      assert.equal(await header.getByLabel("Credits remaining: 10,000").count(), 1);
      await mock.emit("job-changed", batch("completed", "4 of 4 tasks finished"));
      const credits = header.getByLabel("Credits remaining: 9,996.796");
      await credits.waitFor();
      assert.equal(await textOf(credits), "9,996.796 credits −3.204");
      assert.equal((await mock.calls("credits_balance")).length, reads + 1);
      // A charge under 0.005 credits beside the balance: as it is, never "−0".
      await mock.emit("credits-changed", { profileId: "sandbox", creditsRemaining: 9996.792, at: "2026-11-22T09:12:00.000Z" });
      assert.equal(await textOf(header.getByLabel("Credits remaining: 9,996.792")), "9,996.792 credits −0.004");
    });
  });

  test("says plainly when the balance cannot be read", async () => {
    await h.withScenario("broke", async ({ page }) => {
      const header = page.getByRole("banner");
      await header.getByText("Balance unavailable").waitFor();
      assert.equal(
        await header.getByText("Balance unavailable").getAttribute("title"),
        "You have run out of credits. Top up your balance, then try again.",
      );
    });
  });

  for (const area of AREAS) {
    test(`opens ${area.nav}`, async () => {
      await h.withScenario("default", async ({ page }) => {
        const nav = page.getByRole("navigation", { name: "Areas" });
        await nav.getByRole("button", { name: area.nav, exact: true }).click();
        await nav.getByRole("button", { name: area.nav, exact: true }).and(page.locator("[aria-current=page]")).waitFor();
        assert.equal(await nav.locator("[aria-current=page]").count(), 1);
        const main = page.locator("main.main");
        await main.getByRole("heading", { level: 1, name: area.title, exact: true }).waitFor();
        await expectAxeClean(page, `the ${area.nav} area`);
      });
    });
  }
});
