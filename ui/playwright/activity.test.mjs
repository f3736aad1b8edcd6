// The activity center (issue 24, point 3): the header's control with the number of things
// running; its panel lists the work running and recently ended across the app, each opening its
// item; Stop where the service allows; a failure with its error's action. Keyboard reachable,
// announced politely, axe-clean in both themes.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeCleanInBothThemes, startHarness, textOf } from "./harness.mjs";

const BATCH_DONE = "6741a0c3e4b0f1a2b3c4d600";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const control = (page) => page.getByRole("button", { name: /^Activity/ });
const panel = (page) => page.getByRole("region", { name: "Activity" });

describe("the activity center", () => {
  test("lists what runs and what ended, opens each item, and stops a reply", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await page.locator("main.main").getByRole("heading", { level: 1, name: "Specs", exact: true }).waitFor();
      assert.equal(await control(page).getAttribute("aria-label"), null);
      assert.equal(await textOf(control(page)), "Activity 2 , 2 running");
      assert.equal(await page.locator(".activity [role=status]").textContent(), "2 running");
      assert.equal(await control(page).getAttribute("aria-expanded"), "false");

      // Keyboard: the control opens the panel and its heading takes the focus.
      await control(page).focus();
      await page.keyboard.press("Enter");
      await panel(page).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Activity");
      const rows = await panel(page).getByRole("listitem").evaluateAll((lis) => lis.map((li) => li.getAttribute("aria-label")));
      assert.deepEqual(rows, [
        "Chat reply: Three names for a habit tracker?",
        "Batch: Batch of 2 tasks",
        "Image: A lighthouse at dusk",
        "Image: A friendly robot watering a plant, flat illustration",
      ]);
      const batch = panel(page).getByRole("listitem", { name: "Batch: Batch of 2 tasks" });
      assert.match(await textOf(batch), /^Batch of 2 tasks Batch · Running · .+ · 1 of 2 tasks finished 1 of 2$/);
      assert.equal(await batch.getByRole("progressbar").getAttribute("value"), "1");
      const failed = panel(page).getByRole("listitem", { name: "Image: A lighthouse at dusk" });
      assert.equal(await failed.locator(".activity-meta").innerText(), "Image · Failed");
      assert.equal(await failed.locator(".error-text").innerText(), "Your balance cannot cover this image.");
      await failed.getByRole("button", { name: /Top up/ }).waitFor();
      const done = panel(page).getByRole("listitem", { name: /^Image: A friendly robot/ });
      assert.equal(await done.locator(".activity-meta").innerText(), "Image · Done · 0.4 credits");
      // Only the reply offers Stop (the service cannot stop a batch it has).
      assert.equal(await panel(page).getByRole("button", { name: /^Stop / }).count(), 1);
      await expectAxeCleanInBothThemes(page, "the activity center");

      await panel(page).getByRole("button", { name: "Stop Three names for a habit tracker?" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "cancel_stream"));
      assert.deepEqual((await mock.calls("cancel_stream")).map((c) => c.args.streamId), ["chat-1"]);

      // Each opens its item, and the panel closes.
      await batch.getByRole("button", { name: "Batch of 2 tasks" }).click();
      await page.waitForFunction((id) => window.location.hash === `#/agents/batches/${id}`, BATCH_DONE);
      assert.equal(await panel(page).count(), 0);
      await control(page).click();
      await done.getByRole("button", { name: /^A friendly robot/ }).click();
      await page.waitForFunction(() => window.location.hash === "#/gateway/images?image=1");
      await page.getByRole("dialog").getByRole("heading", { name: "Image 1 of 1" }).waitFor();
      await page.keyboard.press("Escape");

      // Escape closes the panel and gives the focus back to the control.
      await control(page).click();
      await panel(page).waitFor();
      await page.keyboard.press("Escape");
      assert.equal(await panel(page).count(), 0);
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("activity-button")), true);
    });
  });
});
