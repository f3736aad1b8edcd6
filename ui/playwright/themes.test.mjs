// Every screen, in the light and the dark theme, must be axe-clean; "system" follows the OS.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AxeBuilder } from "@axe-core/playwright";
import { expectAxeClean, startHarness } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const SCREENS = ["Specs", "Plans", "Browser agents", "Gateway", "Settings"];

// The code colours of each theme (src/features/specs/specs.css), as the browser computes them.
const CODE_COLOURS = {
  light: { comment: "rgb(91, 97, 112)", number: "rgb(154, 74, 0)", background: "rgb(240, 241, 247)" },
  dark: { comment: "rgb(154, 163, 181)", number: "rgb(251, 191, 107)", background: "rgb(36, 39, 53)" },
};

/**
 * axe's colour-contrast rule on the document's code block alone: no violation, and it really
 * measured the comment and every number (a rule that saw nothing would pass too).
 */
async function expectCodeContrast(page, label) {
  const result = await new AxeBuilder({ page }).setLegacyMode(true).include(".doc-body pre").withRules(["color-contrast"]).analyze();
  assert.deepEqual(result.violations.map((v) => v.nodes.map((n) => n.html)), [], `colour contrast of the code in ${label}`);
  assert.deepEqual(result.incomplete.flatMap((v) => v.nodes.map((n) => n.html)), [], `code axe could not measure in ${label}`);
  const measured = result.passes.flatMap((v) => v.nodes.map((n) => n.html));
  assert.deepEqual(
    measured.filter((html) => /^<span class="hljs-(comment|number)">/.test(html)),
    ['<span class="hljs-comment">// The newest recipes first, 20 to a page.</span>', '<span class="hljs-number">20</span>', '<span class="hljs-number">0</span>'],
    `what axe measured in ${label}`,
  );
}

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

    test("a spec's documents and scope are axe-clean, code comments and numbers included", async () => {
      await h.withScenario("specs-deep", { theme }, async ({ page }) => {
        await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
        await page.getByRole("region", { name: "Library" }).getByRole("button", { name: "A recipe-sharing app with meal plans and shopping lists" }).click();
        await page.getByRole("heading", { level: 1, name: "Recipe Box" }).waitFor();

        await page.getByRole("tab", { name: "Human spec" }).click();
        const code = page.getByRole("article", { name: "Human spec" }).locator("pre code.hljs");
        await code.locator(".hljs-comment").waitFor();
        assert.deepEqual(await code.locator(".hljs-comment").allInnerTexts(), ["// The newest recipes first, 20 to a page."]);
        assert.deepEqual(await code.locator(".hljs-number").allInnerTexts(), ["20", "0"]);
        const colours = await code.evaluate((el) => ({
          comment: getComputedStyle(el.querySelector(".hljs-comment")).color,
          number: getComputedStyle(el.querySelector(".hljs-number")).color,
          background: getComputedStyle(el.closest("pre")).backgroundColor,
        }));
        assert.deepEqual(colours, CODE_COLOURS[theme]);
        await expectCodeContrast(page, `the human spec (${theme})`);
        await expectAxeClean(page, `the human spec (${theme})`);

        await page.getByRole("tab", { name: "Coding-agent spec" }).click();
        await page.getByRole("article", { name: "Coding-agent spec" }).getByRole("heading", { level: 1, name: "Recipe Box" }).waitFor();
        await expectAxeClean(page, `the coding-agent spec (${theme})`);

        await page.getByRole("tab", { name: "Scope" }).click();
        await page.getByRole("button", { name: /Repository and CI/ }).click();
        assert.equal(await page.locator("table.subtasks tbody tr").count(), 2);
        await expectAxeClean(page, `the scope explorer with a story open (${theme})`);
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
