// First run (welcome) and a failure at start, on the mock IPC.
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

describe("welcome (first run)", () => {
  test("explains the Sandbox and says where the real service's key goes", async () => {
    await h.withScenario("welcome", async ({ page }) => {
      const main = page.getByRole("main", { name: "Welcome to Specdesk" });
      await main.getByRole("heading", { level: 1, name: "Welcome to Specdesk" }).waitFor();
      assert.equal(
        await textOf(main.locator("p").first()),
        "Turn an idea into a project spec, follow your project's plan, run browser agents and try AI models — all from one app.",
      );
      assert.equal(await textOf(main.getByRole("heading", { level: 2, name: "You are on the Sandbox" })), "You are on the Sandbox");
      assert.equal(
        await textOf(main.locator(".panel-info p")),
        "Specdesk starts on a built-in Sandbox: a simulated service that runs on this computer. Nothing you do leaves your machine, and its credits are not real money, so explore freely.",
      );
      await main.getByRole("heading", { level: 2, name: "When you are ready for the real service" }).waitFor();
      assert.equal(
        await textOf(main.locator("p").nth(2)),
        "Open Settings → Connections, add a connection with the service address and paste your API key. Your key is kept in your system keychain, never in Specdesk's files.",
      );
      await main.getByRole("button", { name: "Explore the Sandbox" }).waitFor();
      await main.getByRole("button", { name: "Add my API key" }).waitFor();
      // The frame is not shown before the welcome is dismissed.
      assert.equal(await page.getByRole("navigation", { name: "Areas" }).count(), 0);
      await expectAxeClean(page, "the welcome screen");
    });
  });

  test("Explore the Sandbox dismisses it for good and opens Specs", async () => {
    await h.withScenario("welcome", async ({ page, mock }) => {
      await page.getByRole("button", { name: "Explore the Sandbox" }).click();
      await page.getByRole("navigation", { name: "Areas" }).waitFor();
      await page.getByRole("button", { name: "Specs", exact: true }).and(page.locator("[aria-current=page]")).waitFor();
      await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
      assert.equal((await mock.calls("finish_welcome")).length, 1);
      assert.equal(await page.evaluate(() => window.__SPECDESK_MOCK__.db.appInfo.firstRun), false);
    });
  });

  test("Add my API key dismisses it and opens Settings", async () => {
    await h.withScenario("welcome", async ({ page }) => {
      await page.getByRole("button", { name: "Add my API key" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      await page.getByRole("heading", { level: 2, name: "Connections" }).waitFor();
      await page.getByRole("button", { name: "Settings" }).and(page.locator("[aria-current=page]")).waitFor();
    });
  });
});

describe("a failure at start", () => {
  test("shows the error in plain words with Try again, which recovers", async () => {
    await h.withScenario("startup-error", async ({ page, mock }) => {
      const alert = page.getByRole("alert");
      await alert.getByRole("heading", { name: "Local data could not be saved" }).waitFor();
      assert.equal(
        await textOf(alert.locator("p")),
        "Specdesk could not read or write its local data (disk I/O error). Check that the disk is not full, then try again.",
      );
      await expectAxeClean(page, "the start-up error panel");
      await alert.getByRole("button", { name: "Try again" }).click();
      await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
      assert.equal((await mock.calls("app_info")).length, 3);
    });
  });
});
