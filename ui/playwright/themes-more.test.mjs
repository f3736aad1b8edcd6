// Screens that were scanned with axe in the light theme only, now in the dark theme too: a
// document not saved offline, the help sheet, the document's contents marking the section in
// view, and the scope after its stories were exported as CSV.
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

const HABITS = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";
const DEEP_INPUT = "A recipe-sharing app with meal plans and shopping lists";
const theme = "dark";

async function darkReady(page) {
  await page.locator("html[data-theme=dark]").waitFor({ state: "attached" });
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
}

async function openDeepSpec(page) {
  await darkReady(page);
  await page.getByRole("region", { name: "Library" }).getByRole("button", { name: DEEP_INPUT }).click();
  await page.getByRole("heading", { level: 1, name: "Recipe Box" }).waitFor();
}

describe("the dark theme, more screens", () => {
  test("a cached spec's document not saved offline is axe-clean (dark)", async () => {
    await h.withScenario("offline-docs", { theme }, async ({ page }) => {
      await darkReady(page);
      await page.getByRole("region", { name: "Library" }).getByRole("button", { name: HABITS }).click();
      await page.getByRole("heading", { level: 1, name: "Team habit tracker" }).waitFor();
      await page.getByRole("tab", { name: "Coding-agent spec" }).click();
      const panel = page.getByRole("region", { name: "Not saved offline" });
      await panel.waitFor();
      assert.equal(
        await textOf(panel.locator("p")),
        "This document was not downloaded on this computer. Connect to Work and open it again to keep a copy.",
      );
      await expectAxeClean(page, "a document not saved offline (dark)");
    });
  });

  test("the help sheet is axe-clean (dark)", async () => {
    await h.withScenario("default", { theme }, async ({ page }) => {
      await darkReady(page);
      await page.locator("main.main h1").focus();
      await page.keyboard.press("?");
      const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await sheet.waitFor();
      assert.equal(await sheet.locator(".shortcut").count(), 9);
      await expectAxeClean(page, "the help sheet (dark)");
    });
  });

  test("the human spec's contents marking the section in view are axe-clean (dark)", async () => {
    await h.withScenario("document", { theme }, async ({ page }) => {
      await openDeepSpec(page);
      await page.getByRole("tab", { name: "Human spec" }).click();
      const doc = page.getByRole("article", { name: "Human spec" });
      await doc.locator("code.hljs .hljs-comment").waitFor();
      const toc = page.getByRole("navigation", { name: "Contents of the human spec" });
      await toc.locator('a[aria-current="true"]').waitFor();
      await doc.locator("#milestone-2-pantry-and-shopping").evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.waitForFunction(() => document.querySelector('.doc-toc a[aria-current="true"]')?.textContent === "Milestone 2: Pantry and shopping");
      assert.deepEqual(await toc.locator('a[aria-current="true"]').allInnerTexts(), ["Milestone 2: Pantry and shopping"]);
      await expectAxeClean(page, "the human spec scrolled, a section marked in the contents (dark)");
    });
  });

  test("the scope with Export stories (CSV) and its notice is axe-clean (dark)", async () => {
    await h.withScenario("document", { theme }, async ({ page, mock }) => {
      await openDeepSpec(page);
      await page.getByRole("tab", { name: "Scope" }).click();
      const exportButton = page.getByRole("button", { name: "Export stories (CSV)" });
      await exportButton.waitFor();
      await expectAxeClean(page, "the scope with its CSV export button (dark)");
      await exportButton.click();
      await page.getByText("Saved to /home/user/Downloads/Recipe Box - stories.csv", { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("save_document")).map((c) => c.args.fileName), ["Recipe Box - stories.csv"]);
      await expectAxeClean(page, "the scope with the stories exported (dark)");
    });
  });
});
