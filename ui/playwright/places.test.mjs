// Every place has an address (issue 24, point 1): the Gateway's studios and what is open in them,
// a batch with its task, the sections of Settings. The command palette jumps to each kind; Back
// and Forward walk through them; a relaunch (the window opened without a hash) reopens them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startHarness } from "./harness.mjs";

const BATCH_DONE = "6741a0c3e4b0f1a2b3c4d600";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const hashOf = (page) => page.evaluate(() => window.location.hash);
const waitHash = (page, hash) => page.waitForFunction((want) => window.location.hash === want, hash);

async function heading(page, name) {
  await page.locator("main.main").getByRole("heading", { level: 1, name, exact: true }).waitFor();
}

/** Opens the palette, types `query` and clicks the option named `option`. */
async function jump(page, query, option) {
  await page.keyboard.press("Control+K");
  const dialog = page.getByRole("dialog", { name: "Command palette" });
  await dialog.waitFor();
  await page.keyboard.type(query);
  await dialog.getByRole("option", { name: option }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("places", () => {
  test("the palette jumps to a section of Settings, a studio, a conversation, a model, an image and a batch", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      await jump(page, "spending", /^Spending\s*Settings$/);
      await waitHash(page, "#/settings/spending");
      await page.getByRole("navigation", { name: "Sections of Settings" }).getByRole("link", { name: "Spending" }).and(page.locator('[aria-current="location"]')).waitFor();

      await jump(page, "rerank", /^Rerank studio/);
      await waitHash(page, "#/gateway/rerank");
      assert.equal(await page.getByRole("tab", { name: "Rerank" }).getAttribute("aria-selected"), "true");

      await jump(page, "naming", /^Naming ideas/);
      await waitHash(page, "#/gateway/chat?conversation=1");
      await page.getByRole("heading", { level: 2, name: "Naming ideas" }).waitFor();

      await jump(page, "gpt-5", /^gpt-5-mini/);
      await waitHash(page, "#/gateway/models?model=openai%2Fgpt-5-mini");
      const chosen = page.locator('table[aria-label="Models"] tr[aria-current="true"]');
      assert.match(await chosen.innerText(), /^gpt-5-mini\s+openai\/gpt-5-mini/);

      await jump(page, "robot", /^Image: A friendly robot/);
      await waitHash(page, "#/gateway/images?image=1");
      await page.getByRole("dialog").getByRole("heading", { name: "Image 1 of 1" }).waitFor();
      await page.keyboard.press("Escape");
      await waitHash(page, "#/gateway/images");

      await jump(page, "batch", /^Batch of 2 tasks, finished/);
      await waitHash(page, `#/agents/batches/${BATCH_DONE}`);
      await page.getByRole("listbox", { name: "Tasks" }).waitFor();

      // Back walks back through the places (the image viewer's opening replaced its entry).
      await page.goBack();
      await waitHash(page, "#/gateway/images");
      await page.goBack();
      await waitHash(page, "#/gateway/models?model=openai%2Fgpt-5-mini");
      await page.goBack();
      await waitHash(page, "#/gateway/chat?conversation=1");
      await page.getByRole("heading", { level: 2, name: "Naming ideas" }).waitFor();
      await page.goBack();
      await waitHash(page, "#/gateway/rerank");
      await page.goForward();
      await waitHash(page, "#/gateway/chat?conversation=1");
      await page.getByRole("heading", { level: 2, name: "Naming ideas" }).waitFor();
    });
  });

  test("a batch's task and a studio's conversation come back after a relaunch", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Browser agents", exact: true }).click();
      await heading(page, "Browser agents");
      await page.getByRole("button", { name: `Open batch ${BATCH_DONE}` }).click();
      await waitHash(page, `#/agents/batches/${BATCH_DONE}`);
      const tasks = page.getByRole("listbox", { name: "Tasks" });
      await tasks.focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await page.getByRole("heading", { level: 3, name: "Task 2" }).waitFor();
      await waitHash(page, `#/agents/batches/${BATCH_DONE}?task=2`);

      await page.goto(`${h.url}/?scenario=default`);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "default");
      await heading(page, "Browser agents");
      assert.equal(await hashOf(page), `#/agents/batches/${BATCH_DONE}?task=2`);
      await page.getByRole("heading", { level: 3, name: "Task 2" }).waitFor();

      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway", exact: true }).click();
      await page.getByRole("button", { name: "Naming ideas" }).first().click();
      await waitHash(page, "#/gateway/chat?conversation=1");
      await page.goto(`${h.url}/?scenario=default`);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "default");
      await page.getByRole("heading", { level: 2, name: "Naming ideas" }).waitFor();
      assert.equal(await hashOf(page), "#/gateway/chat?conversation=1");
    });
  });
});
