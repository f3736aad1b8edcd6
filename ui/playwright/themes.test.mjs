// Every screen, in the light and the dark theme, must be axe-clean; "system" follows the OS.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, startHarness } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const SCREENS = ["Specs", "Plans", "Browser agents", "Gateway", "Settings"];

for (const theme of ["light", "dark"]) {
  describe(`the ${theme} theme`, () => {
    test("welcome is axe-clean", async () => {
      await h.withScenario("welcome", { theme }, async ({ page }) => {
        await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
        await page.getByRole("heading", { level: 1, name: "Welcome to Specdesk" }).waitFor();
        await expectAxeClean(page, `the welcome screen (${theme})`);
      });
    });

    test("every area and Settings are axe-clean", async () => {
      await h.withScenario("connections", { theme }, async ({ page }) => {
        await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
        const nav = page.getByRole("navigation", { name: "Areas" });
        for (const screen of SCREENS) {
          await nav.getByRole("button", { name: screen, exact: true }).click();
          await page.locator("main.main").getByRole("heading", { level: 1, name: screen, exact: true }).waitFor();
          if (screen === "Settings") await page.getByRole("heading", { level: 2, name: "Preferences" }).waitFor();
          await expectAxeClean(page, `${screen} (${theme})`);
        }
        // The open add-connection form and a key form too.
        await page.getByRole("button", { name: "Add connection" }).click();
        await page.getByRole("form", { name: "Add connection" }).getByRole("button", { name: "Add connection" }).click();
        await page.locator("#profile-name-error").waitFor();
        await page.getByRole("listitem", { name: "Personal" }).getByRole("button", { name: "API key" }).click();
        await expectAxeClean(page, `Settings with forms open (${theme})`);
      });
    });

    test("error panels are axe-clean", async () => {
      await h.withScenario("broke", { theme }, async ({ page }) => {
        await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Settings" }).click();
        await page.getByRole("button", { name: "Test connection" }).click();
        await page.getByRole("alert").getByRole("button", { name: "Top up" }).waitFor();
        await expectAxeClean(page, `the out-of-credits error (${theme})`);
      });
      await h.withScenario("startup-error", { theme }, async ({ page }) => {
        await page.getByRole("alert").getByRole("button", { name: "Try again" }).waitFor();
        await expectAxeClean(page, `the start-up error (${theme})`);
      });
    });
  });
}

describe("the system theme", () => {
  for (const colorScheme of ["light", "dark"]) {
    test(`follows a ${colorScheme} system`, async () => {
      await h.withScenario("default", { theme: "system", colorScheme }, async ({ page }) => {
        await page.locator(`html[data-theme=${colorScheme}]`).waitFor({ state: "attached" });
        assert.equal(await page.locator("html").getAttribute("data-theme"), colorScheme);
      });
    });
  }
});
