// The Plans home on the mock IPC: the user's projects (completed specs merged with the projects
// opened here, with their last known progress), newest first; "Open by project id…" as a
// disclosure, never above an open plan; a plan's features filtered by status chips with counts;
// a feature's detail panel; how a suggested feature is confirmed. Scanned with axe in both themes.
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
const PROJECT_CRM = "6741a0c3e4b0f1a2b3c4d7b1";
const SPEC_HABITS = "6741a0c3e4b0f1a2b3c4d5e6";
const HABITS = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";
const CLIMBING = "A booking app for a climbing gym: time slots, memberships and a waiver signed on first…";
const NOT_OPENED = "Not opened here yet: open it to read its progress";
const CONFIRM =
  "Suggested by the service, so not counted yet: to confirm it, open its spec, choose “The project” and accept the suggestion there; it counts from the next read of the plan.";

async function openPlans(page) {
  await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Plans", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Plans" }).waitFor();
}

const home = (page) => page.getByRole("region", { name: "Your projects", exact: true });

/** Each row as [name, progress, meta, its other button]. */
async function homeRows(page) {
  return home(page)
    .locator("li.recent-plan")
    .evaluateAll((els) =>
      els.map((el) => [
        el.querySelector(".recent-plan-name")?.textContent,
        el.querySelector(".recent-plan-progress")?.textContent,
        el.querySelector(".recent-plan-meta")?.textContent?.replace(/\s+/g, " ").trim(),
        el.querySelector(".btn")?.getAttribute("aria-label"),
      ]),
    );
}

/** The app's date formats, in the page's locale and time zone. */
function formats(page) {
  return page.evaluate(() => ({
    d: Object.fromEntries(
      ["2026-11-15T09:30:00.000Z", "2026-11-20T14:12:00.000Z", "2026-11-18T10:03:00.000Z"].map((iso) => [
        iso,
        new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" }),
      ]),
    ),
    dt: Object.fromEntries(
      ["2026-11-22T09:00:00.000Z", "2026-11-19T16:00:00.000Z"].map((iso) => [
        iso,
        new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }),
      ]),
    ),
  }));
}

const features = (page) => page.getByRole("region", { name: "Features", exact: true });

describe("Plans home", () => {
  for (const theme of ["light", "dark"]) {
    test(`lists the projects newest first; the id form is a disclosure, gone above an open plan (${theme})`, async () => {
      await h.withScenario("plans-home", { theme }, async ({ page, mock }) => {
        await openPlans(page);
        await home(page).locator("li.recent-plan").nth(3).waitFor();
        const { d, dt } = await formats(page);
        assert.deepEqual(await homeRows(page), [
          ["Recipe Box", "56% built · 5 of 9 features", `Spec of ${d["2026-11-15T09:30:00.000Z"]} · opened ${dt["2026-11-22T09:00:00.000Z"]}`, "Open the spec of Recipe Box"],
          [HABITS, NOT_OPENED, `Spec of ${d["2026-11-20T14:12:00.000Z"]}`, `Open the spec of ${HABITS}`],
          ["Legacy CRM", "80% built · 4 of 5 features", `${PROJECT_CRM} · opened ${dt["2026-11-19T16:00:00.000Z"]}`, "Remove Legacy CRM from this list"],
          [CLIMBING, NOT_OPENED, `Spec of ${d["2026-11-18T10:03:00.000Z"]}`, `Open the spec of ${CLIMBING}`],
        ]);
        // Completed specs only (the Specs screen the app opened on reads its own page first).
        assert.deepEqual(
          (await mock.calls("list_specs")).map((c) => c.args).filter((a) => a.query.status === "completed"),
          [{ query: { status: "completed", limit: 100, skip: 0 } }],
        );
        // The id form: a secondary action, hidden until asked for.
        const disclosure = page.getByRole("button", { name: "Open by project id…" });
        assert.equal(await disclosure.getAttribute("aria-expanded"), "false");
        assert.equal(await page.getByRole("textbox", { name: "Project id" }).count(), 0);
        await expectAxeClean(page, `the Plans home (${theme})`);
        await disclosure.click();
        assert.equal(await disclosure.getAttribute("aria-expanded"), "true");
        const input = page.getByRole("textbox", { name: "Project id" });
        await input.waitFor();
        assert.equal(await input.evaluate((el) => el === document.activeElement), true);
        await expectAxeClean(page, `the Plans home with the id form open (${theme})`);

        // A row opens its plan, with no id form above it.
        await home(page).getByRole("button", { name: "Recipe Box", exact: true }).click();
        await page.getByRole("heading", { level: 2, name: "Recipe Box" }).waitFor();
        assert.deepEqual((await mock.calls("get_plan")).map((c) => c.args), [{ target: { projectId: PROJECT_ALL } }]);
        assert.equal(await page.getByRole("button", { name: "Open by project id…" }).count(), 0);
        assert.equal(await page.getByRole("textbox", { name: "Project id" }).count(), 0);
        assert.equal(await page.getByRole("form", { name: "Open a plan by project id" }).count(), 0);
        await expectAxeClean(page, `a plan opened from the home (${theme})`);
      });
    });

    test(`filters features by status and opens a feature's details (${theme})`, async () => {
      await h.withScenario("plans-home", { theme }, async ({ page }) => {
        await openPlans(page);
        await home(page).getByRole("button", { name: "Recipe Box", exact: true }).click();
        await page.getByRole("heading", { level: 2, name: "Recipe Box" }).waitFor();
        const group = features(page).getByRole("group", { name: "Show features by status" });
        const chips = await group.getByRole("button").evaluateAll((els) =>
          els.map((el) => [el.querySelector(".filter-chip-label")?.textContent, el.querySelector(".filter-chip-count")?.textContent, el.getAttribute("aria-pressed")]),
        );
        assert.deepEqual(chips, [
          ["All", "12", "true"],
          ["Works", "1", "false"],
          ["Built, not checked yet", "1", "false"],
          ["Changed since its check", "1", "false"],
          ["Needs a look", "1", "false"],
          ["Not working", "1", "false"],
          ["In progress", "1", "false"],
          ["Planned", "3", "false"],
          ["Out of scope", "1", "false"],
          ["Removed", "1", "false"],
          ["Waiting for your review", "1", "false"],
          ["Suggested", "1", "false"],
        ]);
        const names = () => features(page).locator("li.feature strong").allInnerTexts();
        assert.equal(await textOf(features(page).locator(".feature-shown")), "12 features");

        await group.getByRole("button", { name: "Planned 3" }).click();
        assert.equal(await group.getByRole("button", { name: "Planned 3" }).getAttribute("aria-pressed"), "true");
        assert.equal(await group.getByRole("button", { name: "All 12" }).getAttribute("aria-pressed"), "false");
        assert.deepEqual(await names(), ["Recipe photos", "Comments", "Pantry tracking"]);
        assert.equal(await textOf(features(page).locator(".feature-shown")), "Showing 3 of 12 features");
        // Shown without its feature, an extending item says what it adds to.
        assert.equal(await textOf(features(page).locator("li.feature").first().locator(".feature-name")), "Recipe photos — adds to Recipes");
        await expectAxeClean(page, `features filtered by Planned (${theme})`);
        await group.getByRole("button", { name: "Suggested 1" }).click();
        assert.deepEqual(await names(), ["Pantry tracking"]);
        await group.getByRole("button", { name: "All 12" }).click();
        assert.equal((await names()).length, 12);

        // A feature's details: status and meaning, stories, counted, scope, what extends it, parts removed.
        const recipes = features(page).getByRole("button", { name: "Recipes", exact: true });
        await recipes.click();
        assert.equal(await recipes.getAttribute("aria-expanded"), "true");
        const panel = features(page).getByRole("region", { name: "Recipes", exact: true });
        await panel.waitFor();
        assert.equal(await panel.getByRole("heading", { level: 4 }).evaluate((el) => el === document.activeElement), true);
        assert.equal(await textOf(panel.locator(".feature-detail-status")), "● Built, not checked yet The code exists; nothing has proven it works yet.");
        const facts = () =>
          panel.locator(".feature-facts > div").evaluateAll((els) =>
            els.map((el) => [el.querySelector("dt")?.textContent, el.querySelector("dd")?.innerText.replace(/\s+/g, " ").trim()]),
          );
        assert.deepEqual(await facts(), [
          ["Stories", "4 of 4 stories done"],
          ["Counted in progress", "Yes"],
          ["Scope", "Confirmed"],
          ["Extends", "Nothing: a feature of its own"],
          ["Extended by", "Recipe photos"],
          ["Parts taken out", "Nutrition facts"],
          ["Feature id", "f-recipes"],
        ]);
        assert.equal(await panel.locator(".feature-confirm").count(), 0);
        await expectAxeClean(page, `a feature's detail panel (${theme})`);
        // From the panel to the item that extends it, and back to what it extends.
        await panel.getByRole("button", { name: "Recipe photos" }).click();
        const photos = features(page).getByRole("region", { name: "Recipe photos", exact: true });
        await photos.waitFor();
        assert.deepEqual(
          await photos.locator(".feature-facts > div").evaluateAll((els) => els.map((el) => [el.querySelector("dt")?.textContent, el.querySelector("dd")?.innerText.trim()])),
          [
            ["Stories", "0 of 2 stories done"],
            ["Counted in progress", "Yes"],
            ["Scope", "Confirmed"],
            ["Added by", "The coding agent"],
            ["Extends", "Recipes"],
            ["Parts taken out", "None"],
            ["Feature id", "f-photos"],
          ],
        );

        // A suggested feature says how to confirm it, with its spec one click away.
        await features(page).getByRole("button", { name: "Pantry tracking", exact: true }).click();
        const pantry = features(page).getByRole("region", { name: "Pantry tracking", exact: true });
        await pantry.waitFor();
        assert.equal(await textOf(pantry.locator(".feature-confirm p")), CONFIRM);
        await pantry.locator(".feature-confirm").getByRole("button", { name: "Open its spec" }).waitFor();
        assert.deepEqual(
          await pantry.locator(".feature-facts > div").evaluateAll((els) => els.slice(0, 4).map((el) => [el.querySelector("dt")?.textContent, el.querySelector("dd")?.innerText.trim()])),
          [
            ["Stories", "0 of 2 stories done"],
            ["Counted in progress", "No, not until it is confirmed"],
            ["Scope", "Suggested"],
            ["Added by", "The coding agent"],
          ],
        );
        await expectAxeClean(page, `a suggested feature's details (${theme})`);
        // Close: the panel goes, focus back on the feature.
        await pantry.getByRole("button", { name: "Close the details of Pantry tracking" }).click();
        assert.equal(await features(page).locator(".feature-detail").count(), 0);
        const pantryButton = features(page).getByRole("button", { name: "Pantry tracking", exact: true });
        assert.equal(await pantryButton.evaluate((el) => el === document.activeElement), true);
        assert.equal(await pantryButton.getAttribute("aria-expanded"), "false");
      });
    });
  }

  test("a spec never opened opens by its id and joins its row with its progress; Remove and the empty home", async () => {
    await h.withScenario("plans-home", async ({ page, mock }) => {
      await openPlans(page);
      await home(page).getByRole("button", { name: HABITS, exact: true }).click();
      await page.getByRole("heading", { level: 2, name: "Team habit tracker" }).waitFor();
      assert.deepEqual((await mock.calls("get_plan")).map((c) => c.args), [{ target: { specId: SPEC_HABITS } }]);
      await page.getByRole("button", { name: "← All projects" }).click();
      await home(page).getByRole("button", { name: "Team habit tracker", exact: true }).waitFor();
      const rows = await homeRows(page);
      assert.deepEqual(
        rows.map((r) => r.slice(0, 2)),
        [
          ["Team habit tracker", "20% built · 2 of 5 features"],
          ["Recipe Box", "56% built · 5 of 9 features"],
          ["Legacy CRM", "80% built · 4 of 5 features"],
          [CLIMBING, NOT_OPENED],
        ],
      );
      assert.match(rows[0][2], /^Spec of .+ · opened .+$/);
      // Opened again: now by its project, known from the first read.
      await home(page).getByRole("button", { name: "Team habit tracker", exact: true }).click();
      await page.getByRole("heading", { level: 2, name: "Team habit tracker" }).waitFor();
      assert.deepEqual((await mock.calls("get_plan")).map((c) => Object.keys(c.args.target)), [["specId"], ["projectId"]]);
      await page.getByRole("button", { name: "← All projects" }).click();

      // A project opened by id only can be taken off the list.
      await home(page).getByRole("button", { name: "Remove Legacy CRM from this list" }).click();
      await home(page).getByRole("button", { name: "Legacy CRM", exact: true }).waitFor({ state: "detached" });
      assert.deepEqual((await mock.calls("forget_project")).map((c) => c.args), [{ projectId: PROJECT_CRM }]);
      assert.equal(await home(page).locator("li.recent-plan").count(), 3);
    });
  });

  test("no completed spec and nothing opened: says where projects come from", async () => {
    await h.withScenario("plans-home", async ({ page }) => {
      await page.evaluate(() => {
        const db = window.__SPECDESK_MOCK__.db;
        db.specs = db.specs.filter((s) => s.status !== "completed");
        db.recentProjects = [];
      });
      await openPlans(page);
      const empty = home(page).locator(".empty");
      await empty.waitFor();
      assert.equal(
        await textOf(empty),
        "No projects yet. A completed spec becomes a project with a plan: describe your app in Specs, and once its spec is completed it is listed here. Go to Specs",
      );
      await expectAxeClean(page, "an empty Plans home");
      await empty.getByRole("button", { name: "Go to Specs" }).click();
      await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
    });
  });
  test("more completed specs than one page: the newest 100, then the older ones on request (a refusal beside the button, the focus on the first added)", async () => {
    await h.withScenario("plans-home-many", async ({ page, mock }) => {
      await openPlans(page);
      const names = () => home(page).locator(".recent-plan-name").allTextContents();
      await home(page).locator("li.recent-plan").nth(99).waitFor();
      const first = await names();
      assert.equal(first.length, 100);
      assert.equal(first[0], "Project 1: a tool for a small team.");
      assert.equal(first[99], "Project 100: a tool for a small team.");
      await home(page).getByText("Projects from the 100 newest completed specs so far, and every project opened here.", { exact: true }).waitFor();
      await expectAxeClean(page, "the Plans home with older projects to show");

      // The next page is refused once: its error shows beside the button, the rows stay.
      await home(page).getByRole("button", { name: "Show older projects" }).click();
      const older = home(page).locator(".older-projects");
      await older.getByRole("alert").getByText("Specdesk could not reach the service. Check your connection, then try again.", { exact: true }).waitFor();
      assert.equal((await names()).length, 100);
      await expectAxeClean(page, "the Plans home with an older page refused");
      await older.getByRole("alert").getByRole("button", { name: "Try again" }).click();
      await home(page).locator("li.recent-plan").nth(129).waitFor();
      const all = await names();
      assert.deepEqual(all, Array.from({ length: 130 }, (_, i) => `Project ${i + 1}: a tool for a small team.`));
      assert.equal(await home(page).getByRole("button", { name: "Show older projects" }).count(), 0);
      assert.equal(await older.count(), 0);
      // The focus is on the first project the page added.
      await page.waitForFunction(() => document.activeElement?.textContent === "Project 101: a tool for a small team.");
      const pages = (await mock.calls("list_specs")).map((c) => c.args.query).filter((q) => q.status === "completed");
      assert.deepEqual(pages, [
        { status: "completed", limit: 100, skip: 0 },
        { status: "completed", limit: 100, skip: 100 },
        { status: "completed", limit: 100, skip: 100 },
      ]);
    });
  });
});
