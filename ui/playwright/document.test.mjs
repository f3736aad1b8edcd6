// A spec's document view on the mock IPC: find in the document (Ctrl+F, counts, next and
// previous, highlights without touching the document, Escape), the contents marking the
// section in view, and the stories exported as CSV. Scanned with axe in both themes.
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

const DEEP_INPUT = "A recipe-sharing app with meal plans and shopping lists";

async function openHumanSpec(page) {
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
  await page.getByRole("region", { name: "Library" }).getByRole("button", { name: DEEP_INPUT }).click();
  await page.getByRole("heading", { level: 1, name: "Recipe Box" }).waitFor();
  await page.getByRole("tab", { name: "Human spec" }).click();
  const doc = page.getByRole("article", { name: "Human spec" });
  await doc.getByRole("heading", { level: 1, name: "Recipe Box" }).waitFor();
  // highlight.js has coloured the code block (it rewrites that block's HTML).
  await doc.locator("code.hljs .hljs-comment").waitFor();
  return doc;
}

/** What the page's highlights hold: the text of each range of "specdesk-find" and "specdesk-find-current". */
function highlighted(page) {
  return page.evaluate(() => {
    const texts = (name) => [...(CSS.highlights.get(name) ?? [])].map((r) => r.toString());
    return { all: texts("specdesk-find"), current: texts("specdesk-find-current") };
  });
}

describe("find in the document", () => {
  test("Ctrl+F opens the bar; matches counted and highlighted, Next/Previous/Enter move, Escape closes", async () => {
    await h.withScenario("document", async ({ page }) => {
      const doc = await openHumanSpec(page);
      const htmlBefore = await doc.evaluate((el) => el.innerHTML);
      const tab = page.getByRole("tab", { name: "Human spec" });
      await tab.focus();

      await page.keyboard.press("Control+f");
      const bar = page.getByRole("search", { name: "Find in the human spec" });
      const input = bar.getByRole("searchbox", { name: "Find in the human spec" });
      await input.waitFor();
      await page.waitForFunction(() => document.activeElement?.matches(".find-input"));

      await input.fill("pantry");
      const count = bar.getByRole("status");
      await page.waitForFunction(() => document.querySelector(".find-count")?.textContent === "1 of 6");
      assert.equal(await textOf(count), "1 of 6");
      assert.deepEqual(await highlighted(page), { all: ["pantry", "Pantry", "PANTRY", "pantry", "Pantry"], current: ["pantry"] });
      assert.equal(await doc.evaluate((el) => el.innerHTML), htmlBefore, "the document's DOM is not changed");
      assert.equal(await doc.locator("mark").count(), 0);

      await bar.getByRole("button", { name: "Next" }).click();
      assert.equal(await textOf(count), "2 of 6");
      // The second match is the comment of the code block, which highlight.js split into spans.
      assert.deepEqual((await highlighted(page)).current, ["pantry"]);
      await input.press("Enter");
      assert.equal(await textOf(count), "3 of 6");
      assert.deepEqual((await highlighted(page)).current, ["Pantry"]);
      // The current match is scrolled into view.
      const inView = await page.evaluate(() => {
        const r = [...CSS.highlights.get("specdesk-find-current")][0].getBoundingClientRect();
        const main = document.querySelector(".main").getBoundingClientRect();
        return r.top >= main.top && r.bottom <= main.bottom;
      });
      assert.equal(inView, true, "the current match is on screen");
      await input.press("Shift+Enter");
      assert.equal(await textOf(count), "2 of 6");
      await bar.getByRole("button", { name: "Previous" }).click();
      await bar.getByRole("button", { name: "Previous" }).click();
      assert.equal(await textOf(count), "6 of 6", "Previous from the first goes round to the last");

      await input.fill("no such words");
      await page.waitForFunction(() => document.querySelector(".find-count")?.textContent === "No matches");
      assert.equal(await bar.getByRole("button", { name: "Next" }).isDisabled(), true);
      assert.deepEqual(await highlighted(page), { all: [], current: [] });

      await input.fill("PANTRY");
      await page.waitForFunction(() => document.querySelector(".find-count")?.textContent === "1 of 6");
      await input.press("Escape");
      await bar.waitFor({ state: "detached" });
      assert.equal(await tab.evaluate((el) => el === document.activeElement), true, "focus is back on the tab it was on");
      assert.deepEqual(await highlighted(page), { all: [], current: [] });
      assert.equal(await doc.evaluate((el) => el.innerHTML), htmlBefore);

      // The Find… button opens it too, with the last query, and Escape gives focus back to it.
      await page.getByRole("button", { name: "Find…" }).click();
      await page.waitForFunction(() => document.querySelector(".find-count")?.textContent === "1 of 6");
      assert.equal(await input.inputValue(), "PANTRY");
      await page.keyboard.press("Escape");
      await bar.waitFor({ state: "detached" });
      assert.equal(await page.getByRole("button", { name: "Find…" }).evaluate((el) => el === document.activeElement), true);
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`the find bar open with matches passes axe (${theme})`, async () => {
      await h.withScenario("document", { theme }, async ({ page }) => {
        await openHumanSpec(page);
        await page.keyboard.press("Control+f");
        const input = page.getByRole("searchbox", { name: "Find in the human spec" });
        await input.fill("shopping");
        await page.waitForFunction(() => document.querySelector(".find-count")?.textContent === "1 of 11");
        await input.press("Enter");
        assert.equal(await textOf(page.locator(".find-count")), "2 of 11");
        await expectAxeClean(page, `the human spec with the find bar open (${theme})`);
      });
    });
  }
});

describe("the contents", () => {
  test("mark the section in view as the document scrolls", async () => {
    await h.withScenario("document", async ({ page }) => {
      const doc = await openHumanSpec(page);
      const toc = page.getByRole("navigation", { name: "Contents of the human spec" });
      const current = () => toc.locator('a[aria-current="true"]').allInnerTexts();
      await toc.locator('a[aria-current="true"]').waitFor();
      assert.deepEqual(await current(), ["Recipe Box"]);

      await doc.locator("#milestone-2-pantry-and-shopping").evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.waitForFunction(() => document.querySelector('.doc-toc a[aria-current="true"]')?.textContent === "Milestone 2: Pantry and shopping");
      assert.deepEqual(await current(), ["Milestone 2: Pantry and shopping"]);

      await doc.locator("#milestone-3-deployment").evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.waitForFunction(() => document.querySelector('.doc-toc a[aria-current="true"]')?.textContent === "Milestone 3: Deployment");
      assert.deepEqual(await current(), ["Milestone 3: Deployment"]);

      // Back up to the first story.
      await doc.locator("#story-1-1-repository-and-ci").evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.waitForFunction(() => document.querySelector('.doc-toc a[aria-current="true"]')?.textContent === "Story 1.1: Repository and CI");
      assert.deepEqual(await current(), ["Story 1.1: Repository and CI"]);
      await expectAxeClean(page, "the human spec scrolled, a section marked in the contents");
    });
  });
});

describe("stories as CSV", () => {
  test("Export stories (CSV) saves every story through save_document and says where", async () => {
    await h.withScenario("document", async ({ page, mock }) => {
      await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
      await page.getByRole("region", { name: "Library" }).getByRole("button", { name: DEEP_INPUT }).click();
      await page.getByRole("heading", { level: 1, name: "Recipe Box" }).waitFor();
      await page.getByRole("tab", { name: "Scope" }).click();
      await page.getByRole("button", { name: "Export stories (CSV)" }).click();
      await page.getByText("Saved to /home/user/Downloads/Recipe Box - stories.csv", { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("save_document")).map((c) => c.args), [
        {
          fileName: "Recipe Box - stories.csv",
          contents:
            "id,title,milestone,hours,complexity,acceptance criteria\r\n" +
            "1.1,Repository and CI,Milestone 1: Project setup,8,M,A push to main runs the tests | A tag deploys to staging\r\n" +
            '1.2,"Import ""legacy"" recipes, with tags",Milestone 1: Project setup,16,L,"\'=HYPERLINK(""http://example.com"") | Tags keep their order,\nand their case"\r\n' +
            ",'-1 day shows yesterday's plan,\"Milestone 2: Deployment, CI/CD and monitoring\",16.5,,'@mention notifies the cook | + adds an item\r\n",
          choose: false,
        },
      ]);
      await expectAxeClean(page, "the scope with the stories exported");
    });
  });
});
