// The Plans area on the mock IPC: opening a plan (by project id, checked first; from a spec),
// every feature status, progress, launch readiness, the app map cut at 25, the last code change,
// progress over time, export, and the plan errors in plain words. Every state is scanned with axe.
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

const PROJECT_ALL = "6741a0c3e4b0f1a2b3c4d6a1";
const PROJECT_EMPTY = "6741a0c3e4b0f1a2b3c4d6a2";
const PROJECT_LONG = "6741a0c3e4b0f1a2b3c4d6a3";
const SPEC_HABITS = "6741a0c3e4b0f1a2b3c4d5e6";
const HABITS = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";

async function openPlans(page) {
  await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Plans", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Plans" }).waitFor();
}

async function openProject(page, id) {
  await openPlans(page);
  await page.getByRole("button", { name: "Open by project id…" }).click();
  await page.getByRole("textbox", { name: "Project id" }).fill(id);
  await page.getByRole("button", { name: "Open plan" }).click();
}

/** Opens the habits spec from the library and its plan. */
async function openFromSpec(page) {
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
  await page.getByRole("region", { name: "Library" }).getByRole("button", { name: HABITS }).click();
  await page.getByRole("heading", { level: 1, name: "Team habit tracker" }).waitFor();
  await page.getByRole("button", { name: "Open plan" }).click();
  await page.getByRole("heading", { level: 1, name: "Plans" }).waitFor();
}

const section = (page, name) => page.getByRole("region", { name, exact: true });

describe("opening a plan", () => {
  test("checks the project id before asking, and says when nothing is planned yet", async () => {
    await h.withScenario("plans-empty", async ({ page, mock }) => {
      await openPlans(page);
      await page.getByRole("region", { name: "Your projects" }).locator("li.recent-plan").first().waitFor();
      await expectAxeClean(page, "Plans with nothing open");
      await page.getByRole("button", { name: "Open by project id…" }).click();
      const input = page.getByRole("textbox", { name: "Project id" });
      await input.fill("6741a0c3e4b0f1a2b3c4d6a");
      await page.getByRole("button", { name: "Open plan" }).click();
      const error = page.getByText("A project id is 24 characters, each a digit 0–9 or a letter a–f.", { exact: true });
      await error.waitFor();
      assert.equal(await input.getAttribute("aria-invalid"), "true");
      assert.deepEqual(await mock.calls("get_plan"), []);
      await expectAxeClean(page, "a refused project id");

      await input.fill(PROJECT_EMPTY.toUpperCase());
      await page.getByRole("button", { name: "Open plan" }).click();
      await page
        .getByText("Nothing is planned or built in this project yet. The plan appears once there is.", { exact: true })
        .waitFor();
      assert.deepEqual((await mock.calls("get_plan")).map((c) => c.args), [{ target: { projectId: PROJECT_EMPTY } }]);
      await expectAxeClean(page, "an empty plan");
    });
  });

  test("from a completed spec: the plan of its project", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await openFromSpec(page);
      await page.getByRole("heading", { level: 2, name: "Team habit tracker" }).waitFor();
      assert.deepEqual((await mock.calls("get_plan")).map((c) => c.args), [{ target: { specId: SPEC_HABITS } }]);
      assert.equal(await textOf(page.locator(".progress-headline")), "2 of 5 features built (20%)");
      await expectAxeClean(page, "the habits plan");
      // Its spec opens back from the plan.
      await page.getByRole("button", { name: "Open its spec" }).click();
      await page.getByRole("heading", { level: 1, name: "Team habit tracker" }).waitFor();
    });
  });

  test("loading, then the plan; Refresh reads it again", async () => {
    await h.withScenario("plans-loading", async ({ page, mock }) => {
      await openFromSpec(page);
      await page.getByText("Opening the plan…", { exact: true }).waitFor();
      assert.equal(await textOf(page.locator(".plan-refresh .muted")), "Read again every 30 seconds while open.");
      await expectAxeClean(page, "a plan loading");
      await mock.release("get_plan");
      await page.getByRole("heading", { level: 2, name: "Team habit tracker" }).waitFor();
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.filter((c) => c.cmd === "get_plan").length === 2);
      await page.getByRole("button", { name: "Refresh" }).and(page.locator(":enabled")).waitFor();
    });
  });
});

describe("plan errors in plain words", () => {
  test("No project yet: explained, and Try again finds it", async () => {
    await h.withScenario("plans-no-project", async ({ page }) => {
      await openFromSpec(page);
      const panel = page.getByRole("status").filter({ has: page.getByRole("heading", { name: "No project yet" }) });
      await panel.waitFor();
      assert.equal(
        await textOf(panel),
        "No project yet This spec is still becoming a project. Its plan appears a moment after the spec is completed. Specdesk checks again every 30 seconds while this page is open. Try again",
      );
      await expectAxeClean(page, "No project yet");
      await panel.getByRole("button", { name: "Try again" }).click();
      await page.getByRole("heading", { level: 2, name: "Team habit tracker" }).waitFor();
    });
  });

  test("a personal key without a paid plan: the Upgrade action, opened in the system browser", async () => {
    await h.withScenario("plans-upgrade", async ({ page, mock }) => {
      await openProject(page, PROJECT_ALL);
      const alert = page.locator(".plan-view").getByRole("alert");
      await alert.waitFor();
      assert.equal(await textOf(alert.getByRole("heading")), "A paid plan is needed");
      assert.equal(await textOf(alert.locator("p")), "This needs a paid plan. Upgrade your plan to use it.");
      await expectAxeClean(page, "a plan refused for want of a paid plan");
      await alert.getByRole("button", { name: "Upgrade" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "open_external"));
      assert.deepEqual((await mock.calls("open_external")).map((c) => c.args), [{ url: "https://example.com/account/upgrade" }]);
    });
  });

  test("not found", async () => {
    await h.withScenario("default", async ({ page }) => {
      await openProject(page, "6741a0c3e4b0f1a2b3c4d6ff");
      const alert = page.locator(".plan-view").getByRole("alert");
      await alert.getByRole("heading", { name: "Plan not found" }).waitFor();
      assert.equal(
        await textOf(alert),
        "Plan not found The service could not find that. It may have been deleted, or it belongs to another account. Check the project id: it may belong to another account, or the project was deleted. Try again",
      );
      await expectAxeClean(page, "a plan not found");
    });
  });
});

describe("the plan view", () => {
  for (const theme of ["light", "dark"]) {
    test(`every feature status in its own colour, icon and words (${theme})`, async () => {
      await h.withScenario("plans-statuses", { theme }, async ({ page }) => {
        await openProject(page, PROJECT_ALL);
        await page.getByRole("heading", { level: 2, name: "Recipe Box" }).waitFor();
        const features = section(page, "Features").locator("li.feature");
        const rows = await features.evaluateAll((els) =>
          els.map((el) => {
            const tag = el.querySelector(".status-tag");
            return [
              el.querySelector("strong")?.textContent,
              el.getAttribute("data-depth"),
              tag?.querySelector(".status-icon")?.textContent,
              tag?.lastElementChild?.textContent,
              tag ? getComputedStyle(tag).borderTopColor : null,
            ];
          }),
        );
        assert.deepEqual(
          rows.map((r) => r.slice(0, 4)),
          [
            ["Sign in with email", "0", "✓", "Works"],
            ["Recipes", "0", "●", "Built, not checked yet"],
            ["Recipe photos", "1", "○", "Planned"],
            ["Weekly meal plan", "0", "↻", "Changed since its check passed"],
            ["Shopping list", "0", "!", "Needs a look"],
            ["Share a recipe by link", "0", "✕", "Not working"],
            ["Search recipes", "0", "◐", "In progress"],
            ["Comments", "0", "○", "Planned"],
            ["Import from a website", "0", "?", "Waiting for your review"],
            ["Pantry tracking", "0", "○", "Suggested"],
            ["Grocery delivery", "0", "⊘", "Out of scope"],
            ["Nutrition facts", "0", "⌫", "Removed"],
          ],
        );
        // Each status of the table has its own colour; the unknown one has a neutral colour of its own.
        const colourOf = Object.fromEntries(rows.map((r) => [r[3], r[4]]));
        const distinct = new Set([
          colourOf["Works"],
          colourOf["Built, not checked yet"],
          colourOf["Changed since its check passed"],
          colourOf["Needs a look"],
          colourOf["Not working"],
          colourOf["In progress"],
          colourOf["Planned"],
          colourOf["Out of scope"],
          colourOf["Removed"],
          colourOf["Waiting for your review"],
        ]);
        assert.equal(distinct.size, 10);
        assert.equal(await textOf(features.nth(9).locator(".badge-proposed")), "Suggested — confirm it to count it");
        assert.equal(await textOf(features.nth(10).locator(".badge-uncounted")), "Not counted");
        assert.equal(await textOf(features.nth(11).locator(".badge-uncounted")), "Not counted");
        assert.equal(await features.nth(9).getAttribute("data-counted"), "false");
        assert.equal(await textOf(features.nth(4).locator(".feature-stories")), "2 of 3 stories done");
        assert.equal(await textOf(features.nth(2).locator(".badge").last()), "Added by the coding agent");
        assert.equal(await textOf(features.nth(1).locator(".feature-removed")), "Parts taken out: Nutrition facts");
        await expectAxeClean(page, `a plan with every status (${theme})`);
      });
    });
  }

  test("intent, progress, launch readiness, app map, last change and progress over time", async () => {
    await h.withScenario("plans-statuses", async ({ page }) => {
      await openProject(page, PROJECT_ALL);
      await page.getByRole("heading", { level: 2, name: "Recipe Box" }).waitFor();
      assert.equal(
        await textOf(page.locator(".plan-ids")),
        `Project ${PROJECT_ALL} · code 9f2c4e1 · computed ${await page.evaluate(() =>
          new Date("2026-11-22T07:30:00.000Z").toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }),
        )}`,
      );

      const intent = section(page, "What the app is for");
      assert.equal(
        await textOf(intent),
        "What the app is for Recipe Box lets home cooks share recipes, plan a week of meals and get one merged shopping list. Proposed by the service It stays a proposal until you edit it in the project. Taken out at your request: Nutrition facts",
      );

      const progress = section(page, "Progress");
      await progress.getByRole("img", { name: "56% built" }).waitFor();
      assert.equal(await textOf(progress.locator(".progress-headline")), "5 of 9 features built (56%)");
      assert.equal(await textOf(progress.locator(".pbar-legend")), "Proven working: 1 Built: 5 Left: 4 Total: 9");
      assert.equal(await textOf(progress.locator(".progress-basis")), "Counted by features.");
      assert.equal(await textOf(progress.locator(".proposed-note")), "✦ 1 suggested feature not counted until you confirm it.");
      await progress.getByRole("img", { name: "1 proven working and 4 built but not checked, of 9" }).waitFor();

      const launch = section(page, "Launch readiness");
      assert.equal(await textOf(launch.locator(".launch-not-ready")), "! Not ready to launch yet: 1 item needs a fix.");
      assert.deepEqual(
        (await launch.locator(".launch-item").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
        [
          "✓ OK Tests pass",
          "! Needs a fix Email provider key is set SMTP_PASSWORD is not set in production Fix: Set SMTP_PASSWORD How: Add it in the hosting dashboard under Environment, then redeploy.",
        ],
      );

      const map = section(page, "App map");
      assert.deepEqual(
        (await map.getByRole("heading", { level: 4 }).allInnerTexts()).map((t) => t.trim()),
        ["Screens (2)", "API routes (25 of 40)", "Storage (2)"],
      );
      assert.equal(
        await textOf(map.locator(".cut-note")),
        "Showing the first 25 of 40 routes; the service lists at most 25.",
      );
      const routes = map.getByRole("region", { name: "API routes (25 of 40)" }).getByRole("listitem");
      assert.equal(await routes.count(), 25);
      assert.equal(await textOf(routes.first()), "POST /api/recipes/1 ✎ Writes data app/api/recipes/1/route.ts:3");
      assert.equal(await textOf(routes.nth(1)), "GET /api/recipes/2 app/api/recipes/2/route.ts:4");
      assert.deepEqual(
        (await map.getByRole("region", { name: "Screens (2)" }).getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
        ["Recipe list /recipes app/recipes/page.tsx:12", "Settings dialog no file"],
      );
      assert.deepEqual(
        (await map.getByRole("region", { name: "Storage (2)" }).getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
        ["Recipe table in PostgreSQL prisma/schema.prisma:20", "session cookie in browser no file"],
      );

      const run = section(page, "Last code change");
      assert.equal(await textOf(run.locator("dl > div").first()), "Kind Coding run");
      assert.equal(await textOf(run.locator("dl > div").nth(2)), "Code version 1a2b3c4 → to 9f2c4e1");
      assert.equal(await textOf(run.locator("dl > div").nth(3)), "Files changed 2");
      await run.locator("summary").click();
      assert.deepEqual(await run.locator(".files-changed li").allInnerTexts(), ["app/recipes/page.tsx", "app/api/recipes/route.ts"]);
      assert.deepEqual(
        (await run.locator(".diff-col").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
        ["Added (1) + POST /api/recipes (endpoint)", "Removed (1) − Old recipe editor (screen)", "Changed (1) ~ Recipe list (screen)"],
      );

      const history = section(page, "Progress over time");
      assert.equal(await history.locator("svg rect.chart-bar").count(), 1 + 4 + 5 + 8);
      assert.equal(await history.locator("svg circle.chart-dot").count(), 4);
      assert.deepEqual(
        (await history.locator(".chart-legend li").allInnerTexts()).map((t) => t.trim()),
        [
          "Percent built",
          "Works",
          "Built, not checked yet",
          "Changed since its check",
          "Needs a look",
          "Not working",
          "In progress",
          "Planned",
          "Waiting for review",
        ],
      );
      await history.locator("summary").click();
      const table = history.getByRole("table", { name: "Plan snapshots, oldest first" });
      const cells = await table.locator("tbody tr").evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll("td")].slice(1).map((td) => td.textContent)),
      );
      assert.deepEqual(cells, [
        ["0%", "0", "0", "9", "Planned: 9"],
        ["22%", "2", "1", "9", "Works: 1, Built, not checked yet: 1, In progress: 2, Planned: 5"],
        ["44%", "4", "1", "9", "Works: 1, Built, not checked yet: 2, Needs a look: 1, In progress: 1, Planned: 4"],
        [
          "56%",
          "5",
          "1",
          "9",
          "Works: 1, Built, not checked yet: 1, Changed since its check: 1, Needs a look: 1, Not working: 1, In progress: 1, Planned: 3, Waiting for review: 1",
        ],
      ]);
      await expectAxeClean(page, "the whole plan with its history table open");
    });
  });

  test("export as Markdown for a coding agent: copy and save", async () => {
    await h.withScenario("plans-statuses", async ({ page, mock }) => {
      await openProject(page, PROJECT_ALL);
      await page.getByRole("heading", { level: 2, name: "Recipe Box" }).waitFor();
      // Copied by a command (from Rust in the app), the markdown never fetched by the page.
      await page.getByRole("button", { name: "Copy for a coding agent" }).click();
      await page.getByText("Copied. Paste the plan into your coding agent.", { exact: true }).waitFor();
      assert.equal(await page.evaluate(() => window.__SPECDESK_MOCK__.db.clipboard.text), "# Recipe Box\n\n56% built (5 of 9 features; 1 proven working).\n");
      assert.deepEqual((await mock.calls("copy_plan_markdown")).map((c) => c.args), [{ target: { projectId: PROJECT_ALL } }]);
      await page.getByRole("button", { name: "Download .md" }).click();
      await page.getByText("Saved to /home/user/Downloads/recipe-box-plan.md", { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("plan_markdown")).map((c) => c.args), [{ target: { projectId: PROJECT_ALL } }]);
      assert.deepEqual((await mock.calls("save_document")).map((c) => c.args), [
        { fileName: "recipe-box-plan.md", contents: "# Recipe Box\n\n56% built (5 of 9 features; 1 proven working).\n", choose: false },
      ]);
      await expectAxeClean(page, "the plan after an export");
      // No clipboard: said in plain words, with the way out.
      await page.evaluate(() => {
        window.__SPECDESK_MOCK__.db.clipboard = null;
      });
      await page.getByRole("button", { name: "Copy for a coding agent" }).click();
      await page.getByText("Specdesk could not reach the clipboard (no clipboard). Use “Download .md” instead.", { exact: true }).waitFor();
    });
  });

  test("a long plan: 60 features and 30 snapshots; the list of opened projects remembers it", async () => {
    await h.withScenario("plans-long", async ({ page, mock }) => {
      await openProject(page, PROJECT_LONG);
      await page.getByRole("heading", { level: 2, name: "Big project" }).waitFor();
      // Counted once the last one is there (the sections can render a moment after the heading).
      await section(page, "Features").locator("li.feature").nth(59).waitFor();
      assert.equal(await section(page, "Features").locator("li.feature").count(), 60);
      assert.equal(await textOf(page.locator(".progress-headline")), "58 of 60 features built (97%)");
      const history = section(page, "Progress over time");
      await history.locator("svg circle.chart-dot").nth(29).waitFor();
      assert.equal(await history.locator("svg circle.chart-dot").count(), 30);
      assert.match(await textOf(history.locator("figcaption")), /^30 snapshots from .+ to .+: 0% → 97% built\.$/);
      await expectAxeClean(page, "a long plan");
      // Back to Plans with no plan open: the one just read is listed first with its progress
      // (before the two completed specs), and can be taken off the list.
      await page.getByRole("button", { name: "← All projects" }).click();
      const recent = page.getByRole("region", { name: "Your projects" });
      const rows = recent.locator("li.recent-plan");
      await rows.nth(2).waitFor();
      assert.equal(await rows.count(), 3);
      assert.equal(await textOf(rows.first().locator(".recent-plan-name")), "Big project");
      assert.equal(await textOf(rows.first().locator(".recent-plan-progress")), "97% built · 58 of 60 features");
      assert.match(await textOf(rows.first().locator(".recent-plan-meta")), new RegExp(`^${PROJECT_LONG} · opened .+`));
      await expectAxeClean(page, "the projects opened");
      await rows.first().getByRole("button", { name: "Remove Big project from this list" }).click();
      await recent.getByRole("button", { name: "Big project", exact: true }).waitFor({ state: "detached" });
      assert.equal(await rows.count(), 2);
      assert.deepEqual(
        (await mock.calls("forget_project")).map((c) => c.args),
        [{ projectId: PROJECT_LONG }],
      );
      // Opened again from its id: first in the list again.
      await page.getByRole("button", { name: "Open by project id…" }).click();
      await page.getByRole("textbox", { name: "Project id" }).fill(PROJECT_LONG);
      await page.getByRole("button", { name: "Open plan" }).click();
      await page.getByRole("heading", { level: 2, name: "Big project" }).waitFor();
      await page.getByRole("button", { name: "← All projects" }).click();
      assert.equal(await textOf(page.getByRole("region", { name: "Your projects" }).locator(".recent-plan-name").first()), "Big project");
    });
  });
});
