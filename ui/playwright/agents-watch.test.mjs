// The Browser agents watch view on the mock IPC (src/mock/scenarios/agents-watch.ts): the batch
// history (pages, totals), a 1000-task batch fed as a recorded stream at a high rate (polling
// from halfway, then finished with failures said plainly), a task's timeline with its screenshots,
// every task status, the exports without input values, a failed watch and Try again, and the
// capacity gauge. Axe in both themes. Flow: Browser agents → Batch history → Open → the batch.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, startHarness, textOf, openArea } from "./harness.mjs";

const BATCH_LIVE = "6750aaaa0000000000001000";
const BATCH_STATUSES = "6750aaaa0000000000000010";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const openAgents = (page) => openArea(page, "Browser agents");

const history = (page) => page.getByRole("region", { name: "Batch history" });
const batchView = (page, id) => page.getByRole("region", { name: `Batch ${id}` });

async function openBatch(page, id) {
  await history(page).getByRole("button", { name: `Open batch ${id}` }).click();
  await batchView(page, id).waitFor();
  return batchView(page, id);
}

/** The texts of the header's counts ("Succeeded 950", …, "Total 1,000", "Credits 120"). */
async function counts(view) {
  const items = await view.getByRole("list", { name: "Tasks by status" }).getByRole("listitem").allInnerTexts();
  return items.map((t) => t.replace(/\s+/g, " ").trim());
}

describe("batch history", () => {
  test("lists batches newest first with totals and pages of 10, 25 or 50", async () => {
    await h.withScenario("agents-watch", async ({ page, mock }) => {
      await openAgents(page);
      const list = history(page);
      await list.getByRole("table").waitFor();
      assert.equal(await textOf(list.locator(".history-totals")), "Batches 1–10 of 15 · 1,032 tasks · 3.64 credits on this page");
      const ids = await list.locator("tbody tr td:nth-child(2)").allInnerTexts();
      assert.deepEqual(ids.slice(0, 3), [BATCH_LIVE, BATCH_STATUSES, "6741a0c3e4b0f1a2b3c4d600"]);
      assert.equal(await list.locator("tbody tr").count(), 10);
      await list.getByRole("button", { name: "Next page" }).click();
      await list.getByText("Page 2 of 2").waitFor();
      assert.equal(await list.locator("tbody tr").count(), 5);
      await list.getByLabel("Batches per page").selectOption("25");
      await list.getByText("Page 1 of 1").waitFor();
      assert.equal(await list.locator("tbody tr").count(), 15);
      await list.getByLabel("Status").selectOption("processing");
      await list.getByText("Batches 1–1 of 1 · 1,000 tasks · 0 credits on this page").waitFor();
      const last = (await mock.calls("list_batches")).at(-1);
      assert.deepEqual(last.args, { limit: 25, skip: 0, status: "processing" });
      await expectAxeClean(page, "the batch history");
    });
  });
});

describe("live view", () => {
  test("streams 1000 tasks at a high rate, follows by polling, then says how many did not succeed", async () => {
    await h.withScenario("agents-watch", async ({ page, mock }) => {
      await openAgents(page);
      const view = await openBatch(page, BATCH_LIVE);
      // Held halfway, after the follower fell back to polling.
      await view.getByText(/^Following by polling — progress is read every few seconds\. Reason: The live stream went quiet for 30 s \(no keepalive\)\.$/).waitFor();
      const midway = await counts(view);
      assert.match(midway[0], /^Queued \d+$/);
      assert.match(midway[1], /^Running \d+$/);
      assert.equal(midway.at(-2), "Total 1,000");
      // Virtualized: a thousand tasks, a few dozen rows in the page.
      const tasks = view.getByRole("listbox", { name: "Tasks" });
      const rendered = await tasks.getByRole("option").count();
      assert.ok(rendered > 0 && rendered < 60, `rows rendered: ${rendered}`);
      assert.equal(await tasks.getByRole("option").first().getAttribute("aria-setsize"), "1000");
      await expectAxeClean(page, "a live batch, following by polling (light)");

      await mock.release("watch-midway");
      // The follower went back to the live connection: said so, nothing lost.
      await view.getByText("Live again — the live connection is back; nothing was lost while progress was read by polling.", { exact: true }).waitFor();
      await expectAxeClean(page, "a live batch, live again after polling (light)");
      await mock.release("watch-live");
      await view.getByText(/^Finished/).waitFor();
      assert.equal(
        await textOf(view.locator(".connection")),
        "Finished — every task has ended; this is the batch's full record. The live connection dropped on the way and came back; nothing lost.",
      );
      const alert = view.getByRole("alert");
      assert.equal(await textOf(alert.getByRole("heading")), "⚠ 50 of 1,000 tasks did not succeed.");
      assert.equal(
        await textOf(alert.locator("p")),
        "9 timed out, 9 blocked, 8 CAPTCHA not solved, 8 stuck in a loop, 8 nothing to act on, 8 error. Open a task to see what happened and what to try; export the results to keep them.",
      );
      assert.deepEqual(await counts(view), [
        "Succeeded 950",
        "Error 8",
        "Timed out 9",
        "Blocked 9",
        "CAPTCHA not solved 8",
        "Stuck in a loop 8",
        "Nothing to act on 8",
        "Did not succeed 50",
        "Total 1,000",
        "Credits 120",
      ]);

      // Task 4 (it waited on Cloudflare): its timeline, screenshots and the keyboard.
      await tasks.focus();
      await page.keyboard.press("Home");
      for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
      const detail = view.getByRole("article", { name: "Task 4" });
      await detail.waitFor();
      assert.equal(await textOf(detail.locator(".task-detail-url")), "https://shop.example/item/4");
      const steps = detail.getByRole("listbox", { name: "Steps" });
      const stepTexts = (await steps.getByRole("option").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
      assert.deepEqual(stepTexts, [
        "• Browser Starting a browser +0.0 s",
        "• Navigation Item 4 — Example Shop — https://shop.example/item/4 +0.4 s",
        "• Screenshot https://shop.example/item/4 +0.6 s",
        "• Plan Accept the cookies, then search for the item click #accept-cookies fill input[name=q] with “item 4” +0.9 s",
        "✓ Action click #accept-cookies: Clicked +1.1 s",
        "✓ Action fill input[name=q]: Filled +1.3 s",
        "• Waiting cloudflare +1.5 s",
        "• Screenshot https://shop.example/item/4 +1.7 s",
        "• Plan (finishing) The price is visible +1.9 s",
        "✓ Validation The data matches the output schema. +2.1 s",
        "✓ Done Succeeded after 3 s +2.7 s",
      ]);
      const viewer = detail.getByRole("group", { name: /^Screenshot 2 of 2/ });
      assert.match(await viewer.getByRole("img").getAttribute("src"), /^data:image\/svg\+xml;base64,/);
      await viewer.focus();
      await page.keyboard.press("Home");
      await detail.getByRole("group", { name: /^Screenshot 1 of 2/ }).waitFor();
      assert.match(await detail.getByRole("group", { name: /^Screenshot 1 of 2/ }).getByRole("img").getAttribute("src"), /^data:image\/png;base64,iVBOR/);
      assert.equal(await steps.getByRole("option").nth(2).getAttribute("aria-selected"), "true");
      await page.keyboard.press("ArrowRight");
      assert.equal(await steps.getByRole("option").nth(7).getAttribute("aria-selected"), "true");
      // A step selects the last screenshot at or before it.
      await steps.getByRole("option").nth(5).click();
      await detail.getByRole("group", { name: /^Screenshot 1 of 2/ }).waitFor();
      assert.equal(await detail.getByRole("listbox", { name: "Film strip" }).getByRole("option").first().getAttribute("aria-selected"), "true");
      // The data as a table.
      assert.deepEqual(await detail.getByRole("table").locator("tr").allInnerTexts().then((r) => r.map((t) => t.replace(/\s+/g, " ").trim())), [
        "# name price url",
        "1 Item 4 13 https://shop.example/item/4",
      ]);

      // Exports: every task, no input value.
      await view.getByRole("button", { name: "Export CSV…" }).click();
      await page.getByText("Saved to /home/user/Documents/batch-results").waitFor();
      const [save] = await mock.calls("save_document");
      assert.equal(save.args.fileName, "batch-6750aaaa-results.csv");
      const lines = save.args.contents.trimEnd().split("\r\n");
      assert.equal(lines.length, 1001);
      assert.equal(lines[0], "task,url,instruction,status,durationMs,creditsUsed,cost,error,data");
      assert.equal(lines[20], '20,https://shop.example/item/20,"Open item 20, accept the cookies and read its name, price and stock",TIMEOUT,3000,0.12,0.012,The task ended with TIMEOUT.,');
      assert.doesNotMatch(save.args.contents, /hunter2-/);
      await expectAxeClean(page, "a finished batch with a task open (light)");
    });
  });

  test("narrows a 1000-task batch to its 50 failures by a count, a status and a search, and re-runs what a filter shows", async () => {
    await h.withScenario("agents-watch", async ({ page, mock }) => {
      await openAgents(page);
      const view = await openBatch(page, BATCH_LIVE);
      await view.getByText(/^Following by polling/).waitFor();
      await mock.release("watch-midway");
      await mock.release("watch-live");
      await view.getByText(/^Finished/).waitFor();
      const tasks = view.getByRole("listbox", { name: "Tasks" });
      const numbers = async () => (await tasks.locator(".task-row-num").allInnerTexts()).map(Number);
      const shown = () => textOf(view.locator(".task-filter-count"));

      // The 50 that did not succeed: one in 20, the 20th, 40th… (the list is virtualized: the rows
      // in the page are the first of them, and the list says it holds 50).
      await view.getByRole("button", { name: "Did not succeed 50" }).click();
      assert.equal(await shown(), "50 of 1,000 tasks: did not succeed");
      assert.equal(await tasks.getByRole("option").first().getAttribute("aria-setsize"), "50");
      // Every row of the filtered list, read as the list is scrolled through: exactly the 50.
      const seen = new Set(await numbers());
      for (let guard = 0; guard < 100 && seen.size < 50; guard += 1) {
        await tasks.evaluate((el) => {
          el.scrollTop += el.clientHeight / 2;
        });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
        for (const n of await numbers()) seen.add(n);
      }
      assert.deepEqual(
        [...seen].sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, k) => 20 * (k + 1)),
      );
      assert.match(await page.evaluate(() => window.location.hash), /^#\/agents\/batches\/6750aaaa0000000000001000\?status=failed$/);
      // The keyboard moves through the shown tasks only: End is task 1000, Up the one before it.
      await tasks.focus();
      await page.keyboard.press("End");
      await view.getByRole("article", { name: "Task 1000" }).waitFor();
      await page.keyboard.press("ArrowUp");
      await view.getByRole("article", { name: "Task 980" }).waitFor();

      // One status: every one of its rows.
      await view.getByRole("button", { name: "Timed out 9" }).click();
      assert.deepEqual(await numbers(), [20, 140, 260, 380, 500, 620, 740, 860, 980]);
      assert.equal(await shown(), "9 of 1,000 tasks: timed out");
      // A search over URL, instruction and error, with the status.
      await view.getByLabel("Search tasks").fill("item/5");
      assert.deepEqual(await numbers(), [500]);
      assert.equal(await shown(), "1 of 1,000 tasks: timed out, matching “item/5”");
      await view.getByLabel("Search tasks").fill("");
      assert.deepEqual(await numbers(), [20, 140, 260, 380, 500, 620, 740, 860, 980]);

      // Re-run these: exactly the shown tasks, the input's value entered again.
      await view.getByLabel("query").fill("hunter2-again");
      await view.getByRole("button", { name: "Re-run these 9 tasks" }).click();
      await page.waitForFunction(() => !window.location.hash.includes("6750aaaa0000000000001000"));
      const [sent] = await mock.calls("submit_batch");
      assert.deepEqual(sent.args.rerunOf, { batchId: BATCH_LIVE, taskIndices: [19, 139, 259, 379, 499, 619, 739, 859, 979] });
      assert.deepEqual(
        sent.args.tasks.map((t) => t.url),
        [20, 140, 260, 380, 500, 620, 740, 860, 980].map((n) => `https://shop.example/item/${n}`),
      );
      await expectAxeClean(page, "a re-run sent from a filter (light)");
    });
  });

  test("shows every task status distinctly, with what it means and what to try (dark)", async () => {
    await h.withScenario("agents-watch", { theme: "dark" }, async ({ page }) => {
      await openAgents(page);
      const view = await openBatch(page, BATCH_STATUSES);
      await view.getByText(/^Finished/).waitFor();
      assert.equal(await textOf(view.getByRole("alert").getByRole("heading")), "⚠ 6 of 10 tasks did not succeed.");
      assert.deepEqual(await counts(view), [
        "Succeeded 4",
        "Error 1",
        "Timed out 1",
        "Blocked 1",
        "CAPTCHA not solved 1",
        "Stuck in a loop 1",
        "Nothing to act on 1",
        "Did not succeed 6",
        "Total 10",
        "Credits 1.4",
      ]);
      const expected = [
          [5, "cross", "Error", "The page could not be used"],
        [6, "clock", "Timed out", "The task ran out of time"],
        [7, "blocked", "Blocked", "The site refused the agent"],
        [8, "warning", "CAPTCHA not solved", "The site showed a CAPTCHA"],
        [9, "loop", "Stuck in a loop", "The agent kept repeating"],
        [10, "empty", "Nothing to act on", "The agent could not find"],
      ];
      const tasks = view.getByRole("listbox", { name: "Tasks" });
      const icons = new Set();
      for (const [n, , label, sentence] of expected) {
        await tasks.getByRole("option").nth(n - 1).click();
        const detail = view.getByRole("article", { name: `Task ${n}` });
        const chip = detail.locator(".task-detail-head .status-chip");
        assert.equal(await textOf(chip), label);
        icons.add(await chip.locator("svg.status-icon path").getAttribute("d"));
        assert.ok((await textOf(detail.locator(".status-explain"))).startsWith(`${label}. ${sentence}`));
      }
      assert.equal(icons.size, 6, "each failed status has its own icon");
      await expectAxeClean(page, "a batch with every status, a failed task open (dark)");
      // A record as a tree (collapsible).
      await tasks.getByRole("option").nth(1).click();
      const tree = view.getByRole("list", { name: "Data as a tree" });
      await tree.getByText("evidence").waitFor();
      await tree.locator("summary").nth(1).click();
      assert.equal(await tree.getByText("sections").isVisible(), false);
      await expectAxeClean(page, "data as a tree (dark)");
    });
  });

  test("a watch that fails shows the error with Try again, which follows the batch anew", async () => {
    await h.withScenario("agents-watch-error", async ({ page, mock }) => {
      await openAgents(page);
      const view = await openBatch(page, BATCH_LIVE);
      const panel = view.getByRole("alert");
      await panel.getByRole("heading", { name: "No connection to the service" }).waitFor();
      assert.equal(await textOf(panel.locator("p").first()), "The connection to the service was lost. Check your network, then try again.");
      await expectAxeClean(page, "a failed watch");
      await mock.release("watch-recover");
      await panel.getByRole("button", { name: "Try again" }).click();
      await view.getByText(/^Finished/).waitFor();
      assert.equal(await textOf(view.getByRole("alert").getByRole("heading")), "⚠ 50 of 1,000 tasks did not succeed.");
    });
  });
});

describe("capacity", () => {
  test("shows the gauge with a sentence on the wait", async () => {
    await h.withScenario("agents-watch", async ({ page }) => {
      await openAgents(page);
      const gauge = page.getByRole("region", { name: "Service capacity" });
      await gauge.getByText("1 task is queued; a new task waits about 1 s to start.").waitFor();
      assert.equal(await gauge.getByRole("meter", { name: "Utilization" }).getAttribute("aria-valuenow"), "6");
      assert.deepEqual((await gauge.locator(".stat").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()), [
        "In flight 3 of 50",
        "Queued 1",
        "Utilization 6%",
        "Oldest queued 1.2 s",
      ]);
    });
  });
});
