// The first ten seconds (issue 13): a new user on the built-in Sandbox goes from the welcome to a
// rendered human spec in at most 4 actions — "Explore the Sandbox" (the composer's description
// takes the focus), an example idea, Generate (or Ctrl+Enter), and "Open" on the completion
// notice, which opens the spec on its Human spec tab. Every action is counted; axe scans each
// step in the light and the dark theme.
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
const READY = "Your spec is ready: “A habit tracker for small teams: daily check-ins, streaks…”.";
const DESCRIPTION = "What do you want to build?";

/** The user's actions, counted: each is one click or one key press. */
function actions(page) {
  const done = [];
  return {
    done,
    click: async (what, locator) => {
      done.push(`click ${what}`);
      await locator.click();
    },
    press: async (keys) => {
      done.push(`press ${keys}`);
      await page.keyboard.press(keys);
    },
  };
}

/**
 * The whole first run. `send`: "keys" (Ctrl+Enter in the description) or "click" (Generate).
 * `scan(label)`: called at each step (axe). Nothing here is timed: the time to the rendered spec
 * belongs in a benchmark of the real app (DESIGN.md: timing never in a test).
 */
async function firstRun(page, mock, { send, scan = async () => undefined }) {
  const user = actions(page);
  const scanned = (label) => scan(label);

  const welcome = page.getByRole("main", { name: "Welcome to Specdesk" });
  await welcome.getByRole("button", { name: "Explore the Sandbox" }).waitFor();
  await scanned("the welcome");

  // 1. Explore the Sandbox: the Specs composer, its description focused.
  await user.click("Explore the Sandbox", welcome.getByRole("button", { name: "Explore the Sandbox" }));
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
  const form = page.getByRole("form", { name: "New spec" });
  const description = form.getByLabel(DESCRIPTION);
  await page.waitForFunction(
    (label) => document.activeElement?.tagName === "TEXTAREA" && document.activeElement.labels?.[0]?.textContent === label,
    DESCRIPTION,
  );
  assert.equal(await description.evaluate((el) => el === document.activeElement), true);
  assert.equal(await description.inputValue(), "");
  const examples = form.getByRole("group", { name: "Or start from an example:" });
  assert.deepEqual(await examples.getByRole("button").allInnerTexts(), [
    "A habit tracker for small teams",
    "Bookings for a climbing gym",
    "A shared shopping list",
  ]);
  await scanned("the composer after the welcome");

  // 2. An example idea fills the description (and keeps the focus there).
  await user.click("an example idea", examples.getByRole("button", { name: "A habit tracker for small teams" }));
  assert.equal(await description.inputValue(), HABITS);
  assert.equal(await description.evaluate((el) => el === document.activeElement), true);
  assert.equal(await examples.count(), 0);
  await scanned("the composer with an example");

  // 3. Generate.
  if (send === "keys") await user.press("Control+Enter");
  else await user.click("Generate spec", form.getByRole("button", { name: "Generate spec" }));
  await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "submit_spec"));
  assert.deepEqual((await mock.calls("submit_spec")).map((c) => c.args), [{ draft: { depth: "fast", input: HABITS, docUrls: [] } }]);

  // The completion notice offers Open.
  const notice = page.locator(".toast-card").filter({ hasText: READY });
  await notice.waitFor();
  assert.equal(await textOf(notice.locator("span").first()), READY);
  const row = page.getByRole("region", { name: "Generations" }).getByRole("listitem", { name: HABITS }).first(); // the newest (an older job had the same idea)
  assert.equal(await textOf(row.locator(".tone-badge")), "Completed");
  await scanned("the completion notice");

  // 4. Open: the spec on its Human spec tab, its document's h1 on screen.
  await user.click("Open", notice.getByRole("button", { name: "Open", exact: true }));
  const human = page.getByRole("tab", { name: "Human spec" });
  await human.waitFor();
  const documentTitle = page.getByRole("article", { name: "Human spec" }).getByRole("heading", { level: 1, name: "Your spec" });
  await documentTitle.waitFor({ state: "visible" });
  assert.equal(await human.getAttribute("aria-selected"), "true");
  assert.equal(await page.getByRole("tab", { name: "Overview" }).getAttribute("aria-selected"), "false");
  assert.equal(await documentTitle.isVisible(), true);
  assert.equal(await textOf(page.getByRole("heading", { level: 1 }).first()), "Your spec");
  assert.deepEqual(
    (await mock.calls("render_spec")).map((c) => c.args.doc),
    ["human"],
  );
  await scanned("the human spec");

  assert.equal(user.done.length, 4, `actions: ${user.done.join(", ")}`);
  assert.deepEqual(user.done, [
    "click Explore the Sandbox",
    "click an example idea",
    send === "keys" ? "press Control+Enter" : "click Generate spec",
    "click Open",
  ]);
  assert.equal((await mock.calls("finish_welcome")).length, 1);
}

describe("first run on the Sandbox", () => {
  test("welcome → Explore → example → Ctrl+Enter → Open: the human spec in 4 actions", async () => {
    await h.withScenario("welcome", async ({ page, mock }) => {
      await firstRun(page, mock, { send: "keys" });
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`the same with Generate, every step clean under axe (${theme} theme)`, async () => {
      await h.withScenario("welcome", { theme }, async ({ page, mock }) => {
        assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), theme);
        await firstRun(page, mock, { send: "click", scan: (label) => expectAxeClean(page, `${label} (${theme})`) });
      });
    });
  }

  test("Enter alone in the description is a newline, never a send", async () => {
    await h.withScenario("welcome", async ({ page, mock }) => {
      await page.getByRole("button", { name: "Explore the Sandbox" }).click();
      const description = page.getByRole("form", { name: "New spec" }).getByLabel(DESCRIPTION);
      await page.waitForFunction(() => document.activeElement?.tagName === "TEXTAREA");
      await page.keyboard.type("A rota");
      await page.keyboard.press("Enter");
      await page.keyboard.type("for volunteers");
      assert.equal(await description.inputValue(), "A rota\nfor volunteers");
      assert.deepEqual(await mock.calls("submit_spec"), []);
    });
  });
});

describe("first run, the welcome not saved", () => {
  const UNSAVED = "Specdesk could not save its settings: the data folder is read-only.";

  test("a dismissal that cannot be saved is told in a toast on the welcome (its own toaster); the next one goes on", async () => {
    await h.withScenario("welcome-unsaved", async ({ page, mock }) => {
      const welcome = page.getByRole("main", { name: "Welcome to Specdesk" });
      await welcome.getByRole("button", { name: "Explore the Sandbox" }).click();
      const toast = page.locator(".toast-card").filter({ hasText: UNSAVED });
      await toast.getByText("Local data could not be saved").waitFor();
      assert.equal(await textOf(toast.locator("p").first()), UNSAVED);
      // Still the welcome: nothing was saved, so the frame is not shown.
      assert.equal(await welcome.count(), 1);
      assert.equal(await page.getByRole("navigation", { name: "Areas" }).count(), 0);
      await expectAxeClean(page, "the welcome with a failed dismissal");

      await toast.getByRole("button", { name: "Dismiss" }).click();
      await welcome.getByRole("button", { name: "Explore the Sandbox" }).click();
      await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
      assert.equal((await mock.calls("finish_welcome")).length, 2);
    });
  });
});
