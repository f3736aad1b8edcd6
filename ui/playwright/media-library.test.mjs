// Lists that never stop silently and files that can all be removed (issue 24, point 7), on the
// mock IPC: a gallery of 525 images read 500 at a time with "N of M" and Show more; 230+
// conversations read 200 at a time the same way; a take, a video and an image deleted with Undo,
// each back where it was.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, openGateway, startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** The toast that says `text`, and its Undo. */
async function undo(page, text) {
  const toast = page.locator(".toast-card", { hasText: text });
  await toast.waitFor();
  await toast.getByRole("button", { name: "Undo" }).click();
}

describe("media library", () => {
  test("a gallery larger than a page says how many it shows of how many, and shows the rest on demand", async () => {
    await h.withScenario("gateway-media-many", async ({ page, mock }) => {
      await openGateway(page, "Images");
      const more = page.locator(".list-more");
      await more.getByText("Showing 500 of 525 images.").waitFor();
      // A virtual grid: a few rows of cards in the page, each saying its place in the 500.
      const cards = page.locator(".gallery-card");
      assert.equal(await cards.first().getAttribute("aria-setsize"), "500");
      const rendered = await cards.count();
      assert.ok(rendered > 0 && rendered < 80, `cards rendered: ${rendered}`);
      // Near the end, the grid reads the next page by itself.
      await page.evaluate(() => {
        const main = document.querySelector("main");
        main.scrollTop = main.scrollHeight;
      });
      await more.getByText("All 525 images.").waitFor();
      await page.evaluate(() => {
        const main = document.querySelector("main");
        main.scrollTop = main.scrollHeight;
      });
      await page.locator('.gallery-card[aria-posinset="525"]').waitFor();
      assert.equal(await cards.first().getAttribute("aria-setsize"), "525");
      assert.deepEqual(
        (await mock.calls("list_media")).map((c) => [c.args.kind, c.args.limit, c.args.offset]),
        [
          ["image", 500, 0],
          ["image", 500, 500],
        ],
      );
      await expectAxeClean(page, "a gallery read in two pages");
    });
  });

  test("a chat list longer than a page says how many it shows of how many, and shows the rest on demand", async () => {
    await h.withScenario("gateway-chat-many", async ({ page, mock }) => {
      await openGateway(page, "Chat");
      const more = page.locator(".conv-list ~ .list-more");
      await more.getByText(/^Showing 200 of 2\d\d conversations\.$/).waitFor();
      const total = Number((await textOf(more.locator("p"))).match(/of (\d+)/)[1]);
      assert.ok(total >= 230, `total ${total}`);
      assert.equal(await page.locator(".conv-list > li").count(), 200);
      await more.getByRole("button", { name: `Show ${Math.min(200, total - 200)} more` }).click();
      await more.getByText(`All ${total} conversations.`).waitFor();
      assert.equal(await page.locator(".conv-list > li").count(), total);
      assert.deepEqual(
        (await mock.calls("list_conversations")).map((c) => [c.args.limit, c.args.offset]).slice(-2),
        [
          [200, 0],
          [200, 200],
        ],
      );
    });
  });

  test("a take, a video and an image are deleted with an Undo that brings each back", async () => {
    await h.withScenario("gateway-media", async ({ page, mock }) => {
      await openGateway(page, "Speech and music");
      const takes = page.getByRole("list", { name: "Takes" });
      await takes.getByRole("button", { name: "Delete take 2" }).click();
      await page.locator(".toast-card", { hasText: "Take 2 deleted." }).waitFor();
      // The takes left are numbered again from the oldest.
      await page.waitForFunction(() => document.querySelectorAll('[aria-label="Takes"] > li').length === 2);
      assert.deepEqual(await takes.getByRole("listitem").evaluateAll((li) => li.map((l) => l.getAttribute("aria-label"))), ["Take 2", "Take 1"]);
      await undo(page, "Take 2 deleted.");
      await takes.getByRole("listitem", { name: "Take 3" }).waitFor();
      assert.equal(await takes.getByRole("listitem").count(), 3);

      await page.getByRole("tab", { name: "Video" }).click();
      const card = page.getByRole("listitem", { name: "Video: A paper boat on a rainy street" });
      await card.getByRole("button", { name: "Delete this video" }).click();
      await card.waitFor({ state: "detached" });
      await undo(page, "Video deleted.");
      await card.waitFor();

      await page.getByRole("tab", { name: "Images" }).click();
      await page.locator(".list-more").getByText(/^All \d+ images\.$/).waitFor();
      const count = Number((await textOf(page.locator(".list-more p"))).match(/\d+/)[0]);
      await page.locator(".gallery-thumb").first().click();
      const viewer = page.getByRole("dialog");
      await viewer.getByRole("button", { name: /^Delete/ }).click();
      await page.locator(".list-more").getByText(`All ${count - 1} images.`).waitFor();
      await undo(page, "Image deleted.");
      await page.locator(".list-more").getByText(`All ${count} images.`).waitFor();
      assert.deepEqual(
        (await mock.calls("restore_media")).map((c) => c.args.id),
        [30, 40, 21],
      );
      assert.equal(await textOf(page.locator(".list-more p")), `All ${count} images.`);
    });
  });
});
