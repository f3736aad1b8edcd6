// The Browser agents builder on the mock IPC: rows and their checks (a bad URL's error in its row,
// Run off with the count), a 1000-row CSV taken and a 1001-row one refused, a batch sent and
// shown as submitted, a balance too low, a refused batch with its action, a batch refused whole
// (400) split, a refused key (401), a locked keychain that cannot keep the draft's input values.
// Axe in both themes.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, expectAxeCleanInBothThemes, startHarness, textOf, openArea } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const openAgents = (page) => openArea(page, "Browser agents");

const form = (page) => page.getByRole("form", { name: "New batch" });
const runButton = (page) => form(page).getByRole("button", { name: /^Run [\d,]+ tasks?$/ });

/** A CSV of `n` tasks with a header row. */
function csv(n) {
  const lines = ["url,instruction,maxSteps,input.query"];
  for (let i = 1; i <= n; i++) lines.push(`https://shop.example/item/${i},"Read the price, then the stock of item ${i}",10,item ${i}`);
  return Buffer.from(`${lines.join("\n")}\n`);
}

async function importFile(page, name, buffer, mimeType) {
  await form(page).getByLabel("Task file to import").setInputFiles({ name, mimeType, buffer });
}

describe("builder", () => {
  for (const theme of ["light", "dark"]) {
    test(`builds two tasks and shows a bad URL's error in its row (${theme})`, async () => {
      await h.withScenario("default", { theme }, async ({ page, mock }) => {
        await openAgents(page);
        const f = form(page);
        await f.getByLabel("Task 1 start URL").fill("https://shop.example/deals");
        await f.getByLabel("Task 1 instruction").fill("List every item on sale");
        await f.getByRole("button", { name: "Add a task" }).click();
        // The new row's URL has the focus.
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Task 2 start URL");
        await page.keyboard.type("shop.example/contact");
        const error = 'Task 2: "shop.example/contact" is not a full web address. Start it with https:// or http://.';
        const row2 = f.locator("tr.task-line").nth(1);
        assert.equal(await textOf(row2.locator(".error-text")), error);
        assert.equal(await f.getByLabel("Task 2 start URL").getAttribute("aria-invalid"), "true");
        assert.equal(await f.locator("tr.task-line").first().locator(".error-text").count(), 0);
        assert.equal(await runButton(page).isDisabled(), true);
        assert.equal(await textOf(f.locator(".run-status")), "1 task has a problem. Fix it to run the batch.");

        // Details: a starter schema, an input whose value stays masked and out of the page's markup.
        await f.getByRole("button", { name: /^Task 1 details/ }).click();
        const details = f.getByRole("group", { name: "Task 1 details" });
        await details.getByRole("button", { name: "Yes/no check with evidence" }).click();
        assert.deepEqual(JSON.parse(await details.getByLabel("Output JSON Schema (optional)").inputValue()), {
          type: "object",
          properties: { passed: { type: "boolean" }, evidence: { type: "string" } },
          required: ["passed", "evidence"],
        });
        assert.equal(await textOf(details.locator("#" + (await details.getByLabel("Output JSON Schema (optional)").getAttribute("aria-describedby")))), "Parses as JSON: an object with passed, evidence.");
        await details.getByRole("button", { name: "Add an input" }).click();
        await details.getByLabel("Task 1 input 1 name").fill("coupon");
        await details.getByLabel("Task 1 input 1 value").fill("SAVE-20-SECRET");
        assert.equal(await details.getByLabel("Task 1 input 1 value").getAttribute("type"), "password");
        // The value is in the input's value only: not in the page's markup.
        assert.equal(await page.evaluate(() => document.documentElement.outerHTML.includes("SAVE-20-SECRET")), false);
        assert.equal(await details.getByText("Values are kept in your system keychain, never in Specdesk's files or exports.", { exact: false }).count(), 1);
        // The keychain has it (by the input's id), the web view's storage does not.
        await page.waitForFunction(() => Object.values(window.__SPECDESK_MOCK__.db.draftValues).includes("SAVE-20-SECRET"));
        assert.equal(await page.evaluate(() => JSON.stringify(window.localStorage).includes("SAVE-20-SECRET")), false);
        await expectAxeClean(page, `the builder with a row error (${theme})`);

        // The count moves focus to the bad cell; fixing it turns Run on.
        await f.getByRole("button", { name: "1 task has a problem" }).click();
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Task 2 start URL");
        await f.getByLabel("Task 2 start URL").fill("https://shop.example/contact");
        await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
        assert.equal(await textOf(f.locator(".cost-line")), "At least 0.2 credits for 2 tasks: every task costs 0.1 credit or more. Your balance: 10,000 credits.");
        assert.ok((await mock.calls("check_tasks")).length > 0);
        assert.ok(!JSON.stringify(await mock.calls("check_tasks")).includes("SAVE-20-SECRET"));
        assert.ok(!(await page.evaluate(() => JSON.stringify(window.localStorage))).includes("SAVE-20-SECRET"));
        await expectAxeClean(page, `the builder ready to run (${theme})`);
      });
    });
  }

  test("reorders, duplicates and deletes rows from the keyboard", async () => {
    await h.withScenario("default", async ({ page }) => {
      await openAgents(page);
      const f = form(page);
      await f.getByLabel("Task 1 start URL").fill("https://a.example");
      await f.getByRole("button", { name: "Add a task" }).click();
      await f.getByLabel("Task 2 start URL").fill("https://b.example");
      await f.getByRole("button", { name: "Move task 2 up" }).focus();
      await page.keyboard.press("Enter");
      assert.equal(await f.getByLabel("Task 1 start URL").inputValue(), "https://b.example");
      assert.equal(await f.getByLabel("Task 2 start URL").inputValue(), "https://a.example");
      // At the top, focus moves to the row's other move button.
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Move task 1 down", null, { timeout: 5000 });
      await f.getByRole("button", { name: "Duplicate task 1" }).click();
      assert.deepEqual(await f.locator("tr.task-line input[aria-label$='start URL']").evaluateAll((els) => els.map((e) => e.value)), [
        "https://b.example",
        "https://b.example",
        "https://a.example",
      ]);
      await f.getByRole("button", { name: "Delete task 2" }).click();
      assert.deepEqual(await f.locator("tr.task-line input[aria-label$='start URL']").evaluateAll((els) => els.map((e) => e.value)), [
        "https://b.example",
        "https://a.example",
      ]);
      await page.getByText("Task 2 was deleted.", { exact: true }).waitFor();
    });
  });

  test("imports a 1000-row CSV and refuses a 1001-row one, importing nothing", async () => {
    await h.withScenario("default", async ({ page }) => {
      await openAgents(page);
      const f = form(page);
      await importFile(page, "tasks-1000.csv", csv(1000), "text/csv");
      await f.locator(".import-message").waitFor();
      assert.equal(await textOf(f.locator(".import-message")), "Added 1,000 tasks from tasks-1000.csv.");
      assert.equal(await textOf(runButton(page)), "Run 1,000 tasks");
      assert.equal(await textOf(f.getByRole("navigation", { name: "Pages of tasks" }).locator("span")), "Tasks 1–50 of 1,000");
      assert.equal(await f.getByLabel("Task 1 start URL").inputValue(), "https://shop.example/item/1");
      assert.equal(await f.getByLabel("Task 1 instruction").inputValue(), "Read the price, then the stock of item 1");
      await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
      assert.equal(await textOf(f.locator(".cost-line")), "At least 100 credits for 1,000 tasks: every task costs 0.1 credit or more. Your balance: 10,000 credits.");
      // Imported values are secrets too: present in memory, out of storage.
      assert.ok(!(await page.evaluate(() => JSON.stringify(window.localStorage))).includes("item 1000"));
      await f.getByRole("button", { name: "Next tasks" }).click();
      assert.equal(await f.getByLabel("Task 51 start URL").inputValue(), "https://shop.example/item/51");
      await expectAxeClean(page, "the builder with 1000 tasks");

      await importFile(page, "tasks-1001.csv", csv(1001), "text/csv");
      await f.getByText("This file has 1001 tasks; a batch holds at most 1000. Nothing was imported.", { exact: true }).waitFor();
      assert.equal(await textOf(f.locator(".import-message")), "This file has 1001 tasks; a batch holds at most 1000. Nothing was imported.");
      assert.equal(await textOf(runButton(page)), "Run 1,000 tasks");
    });
  });

  test("refuses a 1001-task JSON file on an empty draft", async () => {
    await h.withScenario("default", async ({ page }) => {
      await openAgents(page);
      const f = form(page);
      const tasks = Array.from({ length: 1001 }, (_, i) => ({ url: `https://a.example/${i}` }));
      await importFile(page, "tasks.json", Buffer.from(JSON.stringify({ tasks })), "application/json");
      await f.locator(".import-message").waitFor();
      assert.equal(await textOf(f.locator(".import-message")), "This file has 1001 tasks; a batch holds at most 1000. Nothing was imported.");
      assert.equal(await f.locator("tr.task-line").count(), 1);
      assert.equal(await f.getByLabel("Task 1 start URL").inputValue(), "");
    });
  });

  test("sends the batch and shows it as submitted", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await openAgents(page);
      const f = form(page);
      await f.getByRole("button", { name: "Paste rows" }).click();
      await f.getByLabel("Rows from a spreadsheet").fill("https://a.example\tRead the headline\nhttps://b.example\tFind the contact email");
      await f.getByRole("button", { name: "Add these rows" }).click();
      assert.equal(await textOf(f.locator(".import-message")), "Added 2 tasks from the pasted rows.");
      await f.getByLabel("Tasks at once").fill("2");
      assert.equal(await f.getByRole("radio", { name: /^Live/ }).isChecked(), true, "live by default");
      await f.getByRole("radio", { name: /^In the background/ }).check();
      await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
      await runButton(page).click();
      const panel = page.getByRole("region", { name: "Submitted" });
      await panel.waitFor();
      const [call] = await mock.calls("submit_batch");
      assert.deepEqual(call.args, {
        tasks: [
          { url: "https://a.example", instruction: "Read the headline" },
          { url: "https://b.example", instruction: "Find the contact email" },
        ],
        concurrency: 2,
        mode: "background",
      });
      const [job] = await page.evaluate(() => window.__SPECDESK_MOCK__.db.jobs.filter((j) => j.kind === "batch"));
      assert.equal(
        await textOf(panel),
        `Submitted The service has your batch of 2 tasks. It keeps running even if you close Specdesk. Batch ${job.remoteId} Status Sent Job ${job.id} Dismiss`,
      );
      assert.equal(await f.getByLabel("Task 1 start URL").inputValue(), "");
      await expectAxeClean(page, "the builder after a batch was sent");
    });
  });

  test("a balance that cannot cover the batch says so and keeps Run off", async () => {
    await h.withScenario("agents-low-balance", async ({ page }) => {
      await openAgents(page);
      const f = form(page);
      await f.getByLabel("Task 1 start URL").fill("https://a.example");
      await f.getByRole("button", { name: "Add a task" }).click();
      await f.getByLabel("Task 2 start URL").fill("https://b.example");
      await f.locator(".balance-short").waitFor();
      assert.equal(
        await textOf(f.locator(".balance-short")),
        "Your balance (0.15 credits) cannot cover the least this batch costs (0.2 credits). Top up, or run fewer tasks.",
      );
      await f.getByText("Run is off until the balance covers the batch.", { exact: true }).waitFor();
      assert.equal(await runButton(page).isDisabled(), true);
      await expectAxeClean(page, "the builder with a balance too low");
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`a batch the service has no room for waits to be sent, says why, and can be stopped (${theme})`, async () => {
      await h.withScenario("agents-no-room", { theme }, async ({ page, mock }) => {
        await openAgents(page);
        const f = form(page);
        await f.getByLabel("Task 1 start URL").fill("https://a.example");
        await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
        await runButton(page).click();
        const held = page.getByRole("region", { name: "Waiting to be sent" });
        await held.waitFor();
        const [job] = await page.evaluate(() => window.__SPECDESK_MOCK__.db.jobs.filter((j) => j.kind === "batch"));
        assert.equal(
          await textOf(held),
          `Waiting to be sent The service is already running 4,990 of your tasks and takes at most 5,000 at once. Specdesk sends this batch by itself as soon as there is room, even after a restart. You can also stop it and send fewer tasks. Batch not sent yet Status Waiting to be sent Job ${job.id} Stop this batch Dismiss`,
        );
        await expectAxeClean(page, `a batch waiting for room (${theme})`);
        await held.getByRole("button", { name: "Stop this batch" }).click();
        const stopped = page.getByRole("region", { name: "Submitted" });
        await stopped.waitFor();
        assert.deepEqual((await mock.calls("cancel_job")).map((c) => c.args), [{ jobId: job.id }]);
        assert.equal(
          await textOf(stopped),
          `Submitted The batch of 1 task was stopped before the service had it. Batch not sent yet Status Cancelled Job ${job.id} Dismiss`,
        );
      });
    });
  }

  test("a live batch the service refuses (402) comes back to the draft, values and all, with Top up", async () => {
    await h.withScenario("agents-submit-refused", { theme: "dark" }, async ({ page, mock }) => {
      await openAgents(page);
      const f = form(page);
      await f.getByLabel("Task 1 start URL").fill("https://a.example");
      await f.getByRole("button", { name: /^Task 1 details/ }).click();
      await f.getByRole("group", { name: "Task 1 details" }).getByRole("button", { name: "Add an input" }).click();
      await f.getByLabel("Task 1 input 1 name").fill("coupon");
      await f.getByLabel("Task 1 input 1 value").fill("KEEP-7");
      await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
      await runButton(page).click();
      // Sent live: the job is saved, then the service refuses it.
      const alert = f.locator(".panel-error");
      await alert.waitFor();
      assert.deepEqual((await mock.calls("submit_batch")).map((c) => c.args.mode), ["live"]);
      assert.equal(await page.getByRole("region", { name: "Submitted" }).count(), 0, "nothing was sent: no submitted panel");
      assert.equal(await page.locator(".batch-view").count(), 0, "nothing to watch");
      await f.getByRole("button", { name: /^Task 1 details/ }).click();
      assert.equal(await f.getByLabel("Task 1 input 1 value").inputValue(), "KEEP-7");
      assert.equal(
        await textOf(alert.locator("p").first()),
        "You do not have enough credits for this batch. Top up your balance, then run it again.",
      );
      await alert.getByRole("button", { name: "Top up" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "open_external"));
      assert.deepEqual((await mock.calls("open_external")).map((c) => c.args), [{ url: "https://example.com/account/top-up" }]);
      assert.equal(await f.getByLabel("Task 1 start URL").inputValue(), "https://a.example");
      await expectAxeClean(page, "the builder with a refused batch (dark)");
    });
  });
});

describe("refusals from the service", () => {
  test("a batch refused whole (400) is split: half goes, half waits in the draft for the next Run", async () => {
    await h.withScenario("agents-too-big", async ({ page, mock }) => {
      await openAgents(page);
      const f = form(page);
      await f.getByRole("button", { name: "Paste rows" }).click();
      const urls = [1, 2, 3, 4, 5].map((i) => `https://shop.example/item/${i}`);
      await f.getByLabel("Rows from a spreadsheet").fill(urls.map((u) => `${u}\tRead the price`).join("\n"));
      await f.getByRole("button", { name: "Add these rows" }).click();
      await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
      await runButton(page).click();
      const alert = f.locator(".panel-error");
      await alert.waitFor();
      assert.equal(await textOf(alert.locator("h3")), "Please check what you entered");
      assert.equal(
        await textOf(alert.locator("p").first()),
        "The service refused the request: tasks holds more tasks than one batch may. Check what you entered and try again.",
      );
      assert.equal(
        await textOf(f.locator(".split-offer p")),
        "The service may take fewer tasks in one batch than this. Split it: the first 3 tasks go now as one batch, and the other 2 tasks wait here for the next Run.",
      );
      await expectAxeClean(page, "the builder offering to split a refused batch");
      await f.getByRole("button", { name: "Split the batch" }).click();
      // 3 are still too many for this service: refused again, and half of those offered.
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.filter((c) => c.cmd === "submit_batch").length === 2);
      await page.getByText("Split it: the first 2 tasks go now as one batch, and the other 3 tasks wait here for the next Run.", { exact: false }).waitFor();
      assert.equal(await f.locator("tr.task-line").count(), 5, "nothing left the draft");
      await f.getByRole("button", { name: "Split the batch" }).click();
      await page.getByRole("region", { name: "Submitted" }).waitFor();
      const sent = (await mock.calls("submit_batch")).map((c) => c.args.tasks.map((t) => t.url));
      assert.deepEqual(sent, [urls, urls.slice(0, 3), urls.slice(0, 2)]);
      assert.equal(
        await textOf(f.locator(".import-message")),
        "The first 2 tasks went as one batch; the other 3 tasks wait here. Run them when you are ready.",
      );
      assert.equal(await f.locator(".panel-error").count(), 0);
      assert.deepEqual(
        await Promise.all([1, 2, 3].map((n) => f.getByLabel(`Task ${n} start URL`).inputValue())),
        urls.slice(2),
      );
      assert.equal(await f.locator("tr.task-line").count(), 3);
    });
  });

  test("a key the service refuses (401) says so in plain words, offers Settings and keeps the draft", async () => {
    await h.withScenario("agents-key-refused", async ({ page }) => {
      await openAgents(page);
      const f = form(page);
      await f.getByLabel("Task 1 start URL").fill("https://a.example");
      await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
      await runButton(page).click();
      const alert = f.locator(".panel-error");
      await alert.waitFor();
      assert.equal(await textOf(alert.locator("h3")), "Your API key was not accepted");
      assert.equal(
        await textOf(alert.locator("p").first()),
        "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.",
      );
      assert.equal(await f.locator(".split-offer").count(), 0, "a key problem is not offered a split");
      assert.equal(await f.getByLabel("Task 1 start URL").inputValue(), "https://a.example");
      await alert.getByRole("button", { name: "Open Settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    });
  });
});

describe("trusting the results", () => {
  test("data checked against its schema with the failing paths; failed tasks re-run and compared", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await openAgents(page);
      const f = form(page);
      await f.getByRole("button", { name: "Add a task" }).click();
      await f.getByLabel("Task 1 start URL").fill("https://shop.example/item/1");
      await f.getByLabel("Task 1 instruction").fill("Is the kettle in stock?");
      await f.getByRole("button", { name: /^Task 1 details/ }).click();
      await f.getByRole("group", { name: "Starter schemas for task 1" }).getByRole("button", { name: "Yes/no check with evidence" }).click();
      await f.getByLabel("Task 2 start URL").fill("https://shop.example/item/2");
      await f.getByLabel("Task 2 instruction").fill('Click "Add to basket"');
      await f.getByRole("button", { name: /^Task 2 details/ }).click();
      await f.getByRole("group", { name: "Task 2 details" }).getByRole("button", { name: "Add an input" }).click();
      await f.getByLabel("Task 2 input 1 name").fill("coupon");
      await f.getByLabel("Task 2 input 1 value").fill("FIRST-RUN-CODE");
      await f.getByRole("radio", { name: /^In the background/ }).check();
      await page.waitForFunction(() => !document.querySelector("form[aria-label='New batch'] button[type=submit]").disabled);
      await runButton(page).click();

      const view = page.locator(".batch-view").first();
      await view.getByText("1 of 2 tasks did not succeed.").waitFor();
      await view.locator(".task-row").first().click();
      const check = view.getByRole("group", { name: "Does not match the schema" });
      await check.waitFor();
      assert.deepEqual(await check.locator("li").allInnerTexts(), [
        '(the whole data) — "passed" is a required property',
        '(the whole data) — "evidence" is a required property',
      ]);
      const [asked] = await mock.calls("check_task_data");
      assert.deepEqual(asked.args.data, { title: "Page 1" });

      // Its input value is not kept after sending: entered again for the re-run.
      const rerun = view.getByRole("button", { name: "Re-run the 1 task that did not succeed" });
      assert.equal(await rerun.isDisabled(), true);
      const values = view.getByRole("group", { name: "Input values for the re-run" });
      assert.equal(
        await textOf(values.locator(".hint")),
        "Specdesk does not keep input values after sending: enter it again. Each value goes to every re-run task with that input.",
      );
      await values.getByLabel("coupon").fill("SECOND-RUN-CODE");
      await expectAxeClean(page, "a re-run asking for its input values");
      await rerun.click();
      const calls = await mock.calls("submit_batch");
      assert.equal(calls.length, 2);
      // Newest first: the re-run's job, then the batch it re-runs.
      const first = await page.evaluate(() => window.__SPECDESK_MOCK__.db.jobs.filter((j) => j.kind === "batch")[1].remoteId);
      assert.deepEqual(calls[1].args, {
        tasks: [{ url: "https://shop.example/item/2", instruction: 'Click "Add to basket"', input: { coupon: "SECOND-RUN-CODE" } }],
        rerunOf: { batchId: first, taskIndices: [1] },
        concurrency: 5,
        mode: "live",
      });
      const compare = page.getByRole("region", { name: /^Compared with the first run/ });
      await compare.waitFor();
      assert.deepEqual(await compare.locator("tbody tr").evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.innerText.trim()))), [
        ["2 https://shop.example/item/2", "Nothing to act on", "Nothing to act on", "Same", "0.12 → 0.12"],
      ]);
      await expectAxeClean(page, "a re-run compared with its first run");
    });
  });
});

describe("a locked keychain", () => {
  test("the builder says its input values are not kept, with Unlock your keychain and Try again, then brings them back", async () => {
    await h.withScenario("agents-keychain-locked", async ({ page, mock }) => {
      // A draft from an earlier run: a task with an input whose value the keychain keeps.
      const row = { id: "r1", url: "https://shop.example/login", instruction: "Sign in", inputs: [{ id: "kept-input", name: "password" }], output: "", successCondition: "", timeoutMs: "", maxSteps: "", maxDurationSeconds: "", mode: "" };
      await page.evaluate((d) => window.localStorage.setItem("specdesk.agents.draft", JSON.stringify(d)), { version: 1, concurrency: "4", rows: [row] });
      await page.reload();
      await openAgents(page);
      const f = form(page);
      // Reading the kept value back is refused: said, with the next steps.
      const panel = f.getByRole("alert").filter({ hasText: "Your keychain is locked" });
      await panel.waitFor();
      assert.equal(await textOf(panel.getByRole("heading", { level: 3 })), "Your keychain is locked");
      assert.equal(
        await textOf(panel.locator("p")),
        "Until you unlock it, the input values you type here are lost when you close Specdesk. Unlock it, then try again: they are kept from then on.",
      );
      assert.deepEqual(await panel.getByRole("button").allInnerTexts(), ["Unlock your keychain", "Try again"]);
      // What is typed meanwhile is not written over the kept value.
      await f.getByRole("button", { name: /^Task 1 details/ }).click();
      const details = f.getByRole("group", { name: "Task 1 details" });
      await details.getByRole("button", { name: "Add an input" }).click();
      await details.getByLabel("Task 1 input 2 name").fill("otp");
      await details.getByLabel("Task 1 input 2 value").fill("typed-while-locked");
      // The debounced save has run (the draft, without values, is in the web view's storage)...
      await page.waitForFunction(() => (window.localStorage.getItem("specdesk.agents.draft") ?? "").includes('"otp"'));
      // ...and asked nothing of the keychain: no write until the kept values are read back.
      assert.equal((await mock.calls("keep_draft_values")).length, 0);
      assert.equal(await details.getByLabel("Task 1 input 1 value").inputValue(), "");
      assert.deepEqual(await page.evaluate(() => window.__SPECDESK_MOCK__.db.draftValues), { "kept-input": "kept-before-lock" });
      await expectAxeCleanInBothThemes(page, "the builder with a locked keychain");

      // Unlocked: Try again brings the kept value back and keeps both; the panel goes.
      await page.evaluate(() => {
        window.__SPECDESK_MOCK__.db.keychainLocked = false;
      });
      await panel.getByRole("button", { name: "Try again" }).click();
      await panel.waitFor({ state: "detached" });
      assert.equal(await details.getByLabel("Task 1 input 1 value").inputValue(), "kept-before-lock");
      assert.equal(await details.getByLabel("Task 1 input 2 value").inputValue(), "typed-while-locked");
      await page.waitForFunction(() => Object.keys(window.__SPECDESK_MOCK__.db.draftValues).length === 2);
      const kept = await page.evaluate(() => Object.values(window.__SPECDESK_MOCK__.db.draftValues).sort());
      assert.deepEqual(kept, ["kept-before-lock", "typed-while-locked"]);

      // Locked again later: its next step is Settings, whose keychain read asks to unlock it.
      await page.evaluate(() => {
        window.__SPECDESK_MOCK__.db.keychainLocked = true;
      });
      await details.getByLabel("Task 1 input 2 value").fill("typed-after-lock");
      await panel.waitFor();
      const before = (await mock.calls("list_profiles")).length;
      await panel.getByRole("button", { name: "Unlock your keychain" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      await page.waitForFunction((n) => window.__SPECDESK_MOCK__.calls.filter((c) => c.cmd === "list_profiles").length > n, before);
    });
  });
});
