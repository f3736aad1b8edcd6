// "Check these stories on my app" on the mock IPC: from a spec's scope, the app's address (a bad
// one refused before anything is sent), the builder prefilled with one task per acceptance
// criterion, the run, pass/fail per story and per criterion with evidence and screenshots, the
// marks beside the spec's scope, and a second run that says what changed. Axe in both themes.
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

const INPUT = "A shared bookshelf for a book club: members list their books, borrow them and leave reviews.";
const APP = "http://localhost:3000";
const CRITERIA = [
  ["Sign in", "The home page shows a Sign in button"],
  ["Sign in", "A wrong password shows an error message"],
  ["List the shelf", "The shelf lists every book with its title and author"],
  ["Borrow a book", "A borrowed book shows who has it"],
  ["Borrow a book", "The Borrow button is disabled for a borrowed book"],
];
const SCHEMA = { type: "object", properties: { passed: { type: "boolean" }, evidence: { type: "string" } }, required: ["passed", "evidence"] };

async function openScope(page) {
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
  await page.getByRole("region", { name: "Library" }).getByRole("button", { name: INPUT }).click();
  await page.getByRole("heading", { level: 1, name: "Book Club Shelf" }).waitFor();
  await page.getByRole("tab", { name: "Scope" }).click();
  await page.getByRole("region", { name: "Acceptance on your app" }).waitFor();
}

const form = (page) => page.getByRole("form", { name: "New batch" });
const results = (page) => page.getByRole("region", { name: "Acceptance results" });

/** Each story of the results: its heading's text and each criterion's line. */
async function resultStories(page) {
  await results(page).locator(".acceptance-story").first().waitFor();
  const stories = await results(page).locator(".acceptance-story").all();
  return Promise.all(
    stories.map(async (s) => ({
      story: await textOf(s.locator("h3")),
      criteria: await Promise.all((await s.locator(".acceptance-criterion").all()).map((c) => textOf(c))),
    })),
  );
}

async function runFromBuilder(page, mock, runs) {
  const f = form(page);
  await f.getByRole("button", { name: "Run 5 tasks" }).waitFor();
  // The checks (check_tasks) settle before Run is enabled.
  await page.waitForFunction(() => !document.querySelector('form[aria-label="New batch"] button[type="submit"]')?.disabled);
  await f.getByRole("button", { name: "Run 5 tasks" }).click();
  await page.waitForFunction((n) => window.__SPECDESK_MOCK__.calls.filter((c) => c.cmd === "submit_batch").length === n, runs);
  const sent = (await mock.calls("submit_batch")).at(-1).args;
  assert.deepEqual(
    sent.tasks,
    CRITERIA.map(([story, c]) => ({ url: APP, instruction: `Check this on the page: ${c} (story: ${story})`, output: SCHEMA })),
  );
  await results(page).locator(".acceptance-summary").filter({ hasNotText: "Running" }).waitFor();
}

describe("acceptance run", () => {
  for (const theme of ["light", "dark"]) {
    test(`from a spec's stories to pass/fail per criterion, then what changed (${theme})`, async () => {
      await h.withScenario("acceptance", { theme }, async ({ page, mock }) => {
        await openScope(page);
        const bar = page.getByRole("region", { name: "Acceptance on your app" });
        assert.equal(await bar.getByRole("button", { name: "Open the results" }).count(), 0);
        await bar.getByRole("button", { name: "Check these stories on my app" }).click();
        const address = bar.getByLabel("Address of your running app");
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("type")), "url");

        // A bad address is refused with its message; nothing is sent, the spec stays open.
        await address.fill("my app");
        await bar.getByRole("button", { name: "Prepare the tasks" }).click();
        assert.equal(
          await textOf(bar.getByRole("alert")),
          '"my app" is not a full web address. Write it like http://localhost:3000 or https://staging.example.com.',
        );
        assert.equal(await address.getAttribute("aria-invalid"), "true");
        await address.fill("ftp://books.example");
        await bar.getByRole("button", { name: "Prepare the tasks" }).click();
        assert.equal(await textOf(bar.getByRole("alert")), "Addresses starting with ftp: cannot be opened by a browser task. Use http:// or https://.");
        await expectAxeClean(page, `the app's address refused (${theme})`);
        assert.deepEqual(await mock.calls("submit_batch"), []);
        assert.deepEqual(await mock.calls("check_tasks"), []);
        await page.getByRole("heading", { level: 1, name: "Book Club Shelf" }).waitFor();

        // A good address: the builder holds one task per criterion, to edit before running.
        await address.fill(APP);
        await bar.getByRole("button", { name: "Prepare the tasks" }).click();
        await page.getByRole("heading", { level: 2, name: "Check the stories of Book Club Shelf" }).waitFor();
        assert.equal(
          await textOf(page.locator(".acceptance-intro")),
          "5 acceptance criteria in 3 stories (1 story without criteria left out). Each criterion is one browser task that opens your app and answers whether it holds, with its evidence.",
        );
        const f = form(page);
        assert.equal(await f.locator("tr.task-line").count(), 5);
        for (const [i, [story, c]] of CRITERIA.entries()) {
          assert.equal(await f.getByLabel(`Task ${i + 1} start URL`).inputValue(), APP);
          assert.equal(await f.getByLabel(`Task ${i + 1} instruction`).inputValue(), `Check this on the page: ${c} (story: ${story})`);
        }
        await f.getByRole("button", { name: /^Task 1 details/ }).click();
        assert.deepEqual(JSON.parse(await f.getByRole("group", { name: "Task 1 details" }).getByLabel("Output JSON Schema (optional)").inputValue()), SCHEMA);
        await expectAxeClean(page, `the builder prefilled with the criteria (${theme})`);

        await runFromBuilder(page, mock, 1);
        assert.equal(await textOf(results(page).locator(".acceptance-summary")), "2 of 5 criteria pass · 2 fail · 1 could not be checked");
        assert.equal(await results(page).locator(".acceptance-changes").count(), 0);
        assert.deepEqual(await resultStories(page), [
          {
            story: "1.1 Sign in Fails · 1 of 2 criteria pass",
            criteria: [
              "Passed The home page shows a Sign in button Evidence: The header shows a Sign in button at the top right.",
              "Failed A wrong password shows an error message Evidence: After a wrong password the form was cleared with no message.",
            ],
          },
          {
            story: "2.1 List the shelf Passes · 1 of 1 criterion passes",
            criteria: ["Passed The shelf lists every book with its title and author Evidence: 12 books listed, each with its title and author."],
          },
          {
            story: "2.2 Borrow a book Fails · 0 of 2 criteria pass",
            criteria: [
              "Failed A borrowed book shows who has it Evidence: Borrowed books show a Borrowed label but no member name.",
              "Could not check The Borrow button is disabled for a borrowed book Evidence: Nothing to act on: No Borrow button was found on the page.",
            ],
          },
        ]);
        const shots = results(page).getByRole("img", { name: /^Screenshot of the page checked for/ });
        assert.equal(await shots.count(), 5);
        assert.match(await shots.first().getAttribute("src"), /^data:image\/svg\+xml;base64,/);
        assert.equal(await shots.first().getAttribute("alt"), "Screenshot of the page checked for “The home page shows a Sign in button”");
        await expectAxeClean(page, `the acceptance results (${theme})`);

        // Beside the spec's scope: each story's verdict, each criterion's with its evidence.
        await page.getByRole("button", { name: "Back to the spec" }).click();
        await page.getByRole("heading", { level: 1, name: "Book Club Shelf" }).waitFor();
        await page.getByRole("tab", { name: "Scope" }).click();
        assert.match(
          await textOf(page.getByRole("region", { name: "Acceptance on your app" }).locator(".acceptance-last")),
          /^Last checked .+ on http:\/\/localhost:3000: 2 of 5 criteria pass · 2 fail · 1 could not be checked\.$/,
        );
        assert.deepEqual(
          (await page.locator(".scope-story .verdict-chip").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
          ["Fails · 1 of 2 criteria pass", "Passes · 1 of 1 criterion passes", "Fails · 0 of 2 criteria pass"],
        );
        await page.getByRole("button", { name: /Sign in Fails/ }).click();
        assert.deepEqual(
          (await page.locator(".criteria li").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
          [
            "The home page shows a Sign in button Passed Evidence: The header shows a Sign in button at the top right.",
            "A wrong password shows an error message Failed Evidence: After a wrong password the form was cleared with no message.",
          ],
        );
        await expectAxeClean(page, `the scope with the acceptance marks (${theme})`);

        // A second run, later: the results say which criteria changed.
        await page.getByRole("button", { name: "Open the results" }).click();
        await results(page).waitFor();
        await page.getByRole("button", { name: "Run the check again" }).click();
        assert.equal(await page.getByLabel("Address of your running app").inputValue(), APP);
        await page.getByRole("button", { name: "Prepare the tasks" }).click();
        await runFromBuilder(page, mock, 2);
        assert.equal(await textOf(results(page).locator(".acceptance-summary")), "3 of 5 criteria pass · 2 fail");
        assert.match(await textOf(results(page).locator(".acceptance-changes")), /^Compared with the run of .+: 2 now pass, 1 now fails, 2 unchanged\.$/);
        assert.deepEqual(await resultStories(page), [
          {
            story: "1.1 Sign in Passes · 2 of 2 criteria pass",
            criteria: [
              "Passed Unchanged The home page shows a Sign in button Evidence: The header shows a Sign in button at the top right.",
              "Passed Now passes A wrong password shows an error message Evidence: The form says: Wrong email or password.",
            ],
          },
          {
            story: "2.1 List the shelf Fails · 0 of 1 criterion passes",
            criteria: ["Failed Now fails The shelf lists every book with its title and author Evidence: The shelf page shows: Something went wrong."],
          },
          {
            story: "2.2 Borrow a book Fails · 1 of 2 criteria pass",
            criteria: [
              "Failed Unchanged A borrowed book shows who has it Evidence: Borrowed books show a Borrowed label but no member name.",
              "Passed Now passes The Borrow button is disabled for a borrowed book Evidence: The Borrow button of a borrowed book is greyed out and cannot be clicked.",
            ],
          },
        ]);
        await expectAxeClean(page, `a second run with its changes (${theme})`);

        // The scope shows the newest run and its changes; both runs are kept for the spec.
        await page.getByRole("button", { name: "Back to the spec" }).click();
        await page.getByRole("tab", { name: "Scope" }).click();
        assert.match(
          await textOf(page.getByRole("region", { name: "Acceptance on your app" }).locator(".acceptance-last")),
          /: 3 of 5 criteria pass · 2 fail\. Since the run before: 2 now pass, 1 now fails, 2 unchanged\.$/,
        );
        await page.getByRole("button", { name: /List the shelf Fails/ }).click();
        assert.deepEqual(
          (await page.locator(".criteria li").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
          ["The shelf lists every book with its title and author Failed Now fails Evidence: The shelf page shows: Something went wrong."],
        );
        const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("specdesk.acceptance.runs")).specs["6741a0c3e4b0f1a2b3c4d5f9"]);
        assert.equal(kept.length, 2);
        assert.deepEqual(
          kept.map((r) => [r.finished, r.url, Object.values(r.criteria).map((o) => o.passed)]),
          [
            [true, APP, [true, true, false, false, true]],
            [true, APP, [true, false, true, false, null]],
          ],
        );
        assert.ok(kept.every((r) => typeof r.batchId === "string" && typeof r.at === "string"));
      });
    });
  }
});
