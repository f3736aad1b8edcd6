// The Specs area on the mock IPC: composer (checks, refusals, the draft kept), generations
// followed live, the library (empty, loading, long, offline, refused; search, sorting, titles and
// the archive are in library.test.mjs), and a deep spec's view
// (documents, scope, graphs). Every state is scanned with axe.
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
const DEEP_INPUT = "A recipe-sharing app with meal plans and shopping lists";

async function specsReady(page) {
  await page.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
}

const composer = (page) => page.getByRole("form", { name: "New spec" });
const library = (page) => page.getByRole("region", { name: "Library" });
const generations = (page) => page.getByRole("region", { name: "Generations" });

/** The visible text of each cell of the library's rows. */
async function libraryRows(page) {
  const rows = await library(page).locator("tbody tr").all();
  return Promise.all(rows.map(async (r) => (await r.locator("td").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim())));
}

describe("composer", () => {
  test("checks the draft before sending: description or file, and each documentation line", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await specsReady(page);
      const form = composer(page);
      assert.equal(
        await textOf(page.locator(".composer > p.muted")),
        "A full spec for a new project: setup, features, deployment, CI/CD, monitoring and documentation.",
      );
      assert.equal(await textOf(form.locator(".cost-hint")), "Fast spec: about 5–10 credits. You have 10,000 credits.");
      await form.getByRole("button", { name: "Generate spec" }).click();
      const inputError = form.getByText("Describe what you want to build, or attach a file that describes it.", { exact: true });
      await inputError.waitFor();
      assert.equal(await form.getByLabel("What do you want to build?").getAttribute("aria-invalid"), "true");
      await expectAxeClean(page, "the composer with an error");

      await form.getByLabel("What do you want to build?").fill("A recipe app");
      await form.getByLabel("Documentation links (optional)").fill("https://nextjs.org/docs\n\nnextjs docs");
      await form.getByRole("button", { name: "Generate spec" }).click();
      await form
        .getByText("Line 3 (“nextjs docs”) is not a full web address. Write one address per line, like https://docs.example.com.", { exact: true })
        .waitFor();
      assert.deepEqual(
        (await form.getByRole("list", { name: "Documentation links" }).getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
        ["https://nextjs.org/docs", "Not a web address: nextjs docs"],
      );
      assert.deepEqual(await mock.calls("submit_spec"), []);

      // Adding to an existing project switches the copy and asks about the project.
      await form.getByRole("checkbox", { name: "Add to an existing project" }).check();
      assert.equal(
        await textOf(page.locator(".composer > p.muted")),
        "A feature addition to an existing project: the new features only, where they plug in and what to migrate — no setup or deployment.",
      );
      await form.getByLabel("What should the new feature do?").waitFor();
      await form.getByRole("radio", { name: /Deep/ }).check();
      assert.equal(await textOf(form.locator(".cost-hint")), "Deep spec: about 10–50 credits. You have 10,000 credits.");
      await expectAxeClean(page, "the composer adding to a project");
    });
  });

  test("sends a spec, follows it to the end and opens it; the draft is cleared once sent", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await specsReady(page);
      const form = composer(page);
      await form.getByLabel("What do you want to build?").fill("A volunteer rota for a food bank");
      await form.getByLabel("Documentation links (optional)").fill("https://nextjs.org/docs");
      await form.getByRole("button", { name: "Generate spec" }).click();
      await page.getByText("Your spec is being generated. It keeps going even if you close Specdesk.", { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("submit_spec")).map((c) => c.args), [
        { draft: { depth: "fast", input: "A volunteer rota for a food bank", docUrls: ["https://nextjs.org/docs"] } },
      ]);
      assert.equal(await form.getByLabel("What do you want to build?").inputValue(), "");
      const row = generations(page).getByRole("listitem", { name: "A volunteer rota for a food bank" });
      await row.getByRole("button", { name: "Open spec" }).waitFor();
      assert.equal(await textOf(row.locator(".tone-badge")), "Completed");
      assert.equal(await textOf(row.locator(".job-facts")), "Took 0:03 Credits used 2.5 credits Estimated work 86 h");
      await expectAxeClean(page, "Specs after a generation");
      await row.getByRole("button", { name: "Open spec" }).click();
      await page.getByRole("heading", { level: 1, name: "Your spec" }).waitFor();
    });
  });

  test("a file comes from the app's own dialog: a cancel changes nothing, a pick is checked and sent", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await specsReady(page);
      const form = composer(page);
      await form.getByRole("button", { name: "File (optional) Choose a file…" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "choose_file"));
      assert.deepEqual((await mock.calls("choose_file")).map((c) => c.args), [{ purpose: "specInput" }]);
      assert.deepEqual(await mock.calls("inspect_file"), []);

      await page.evaluate(() => {
        window.__SPECDESK_MOCK__.db.dialog.open = "/home/me/Notes/idea.md";
      });
      await form.getByRole("button", { name: "File (optional) Choose a file…" }).click();
      await form.locator(".file-chosen").waitFor();
      assert.equal(await textOf(form.locator(".file-chosen strong")), "idea.md");
      assert.deepEqual((await mock.calls("inspect_file")).map((c) => c.args), [{ path: "/home/me/Notes/idea.md" }]);
      await form.getByRole("button", { name: "Generate spec" }).click();
      await page.getByText("Your spec is being generated. It keeps going even if you close Specdesk.", { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("submit_spec")).map((c) => c.args.draft.filePath), ["/home/me/Notes/idea.md"]);
    });
  });

  test("a deep spec refused for want of a paid plan shows the Upgrade action and keeps the draft", async () => {
    await h.withScenario("specs-deep-refused", async ({ page, mock }) => {
      await specsReady(page);
      const form = composer(page);
      await form.getByLabel("What do you want to build?").fill("A recipe app with meal plans");
      await form.getByRole("radio", { name: /Deep/ }).check();
      assert.equal(
        await textOf(form.locator(".depth-option").nth(1)),
        "Deep — every story split into subtasks by layer (DB, API, FE, QA…), in about 2–3 minutes. About 10–50 credits. Needs a paid plan.",
      );
      await form.getByRole("button", { name: "Generate spec" }).click();
      const alert = page.locator(".composer").getByRole("alert");
      await alert.waitFor();
      assert.equal(await textOf(alert.getByRole("heading")), "A paid plan is needed");
      assert.equal(await textOf(alert.locator("p")), "Deep specs need a paid plan. Upgrade your plan to use it.");
      assert.equal(await form.getByLabel("What do you want to build?").inputValue(), "A recipe app with meal plans");
      assert.equal(await form.getByRole("radio", { name: /Deep/ }).isChecked(), true);
      await expectAxeClean(page, "the composer with a refusal");
      await alert.getByRole("button", { name: "Upgrade" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "open_external"));
      assert.deepEqual((await mock.calls("open_external")).map((c) => c.args), [{ url: "https://example.com/account/upgrade" }]);

      // The draft survives a reload.
      await page.reload();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "specs-deep-refused");
      await specsReady(page);
      assert.equal(await composer(page).getByLabel("What do you want to build?").inputValue(), "A recipe app with meal plans");
      assert.equal(await composer(page).getByRole("radio", { name: /Deep/ }).isChecked(), true);
    });
  });
});

describe("generations", () => {
  test("a running generation shows live progress, elapsed time and credits, then its result", async () => {
    await h.withScenario("specs-running", async ({ page, mock }) => {
      await specsReady(page);
      const row = generations(page).getByRole("listitem", { name: "A recipe box with weekly meal plans and one shopping list" });
      await row.getByText("Drafting milestones (2 of 5)", { exact: true }).waitFor();
      assert.equal(await textOf(row.locator(".tone-badge")), "Generating");
      assert.match(await textOf(row.locator(".job-facts")), /^Elapsed 1:\d\d Credits used so far 3.2 credits$/);
      assert.equal(await textOf(generations(page).locator(".section-head .muted")), "1 running");
      await row.getByRole("button", { name: "Stop following" }).waitFor();
      await expectAxeClean(page, "a generation in progress");
      await mock.release("spec-done");
      await row.getByRole("button", { name: "Open spec" }).waitFor();
      assert.equal(await textOf(row.locator(".job-facts")), "Took 2:05 Credits used 7.5 credits Estimated work 86 h");
      assert.equal(await textOf(generations(page).locator(".section-head .muted")), "None running");
    });
  });

  test("a failed generation shows its error and refills the composer", async () => {
    await h.withScenario("specs-long", async ({ page }) => {
      await specsReady(page);
      assert.equal(await generations(page).getByRole("listitem").count(), 8);
      const row = generations(page).getByRole("listitem", { name: "A landing page for a bakery (job 2)" });
      assert.equal(await textOf(row.locator(".tone-badge")), "Failed");
      assert.equal(
        await textOf(row.getByRole("alert")),
        "The spec could not be generated from this description. Add more detail and try again.",
      );
      await row.getByRole("button", { name: "Edit and try again" }).click();
      const description = composer(page).getByLabel("What do you want to build?");
      assert.equal(await description.inputValue(), "A landing page for a bakery (job 2)");
      assert.equal(await composer(page).getByRole("radio", { name: /Deep/ }).isChecked(), true);
      assert.equal(await description.evaluate((el) => el === document.activeElement), true);
    });
  });

  test("generations are those of the connection in use, and follow a switch of connection", async () => {
    await h.withScenario("connections", async ({ page, mock }) => {
      // Work is in use: the Sandbox's generation is not listed.
      await specsReady(page);
      await library(page).waitFor();
      assert.equal(await generations(page).count(), 0);
      const areas = page.getByRole("navigation", { name: "Areas" });
      await areas.getByRole("button", { name: "Settings" }).click();
      await page.getByRole("listitem", { name: "Sandbox", exact: true }).getByRole("button", { name: "Use" }).click();
      await page.getByRole("listitem", { name: "Sandbox", exact: true }).locator(".badge-success").waitFor();
      await areas.getByRole("button", { name: "Specs" }).click();
      await generations(page).getByRole("listitem").first().waitFor();
      assert.equal(await generations(page).getByRole("listitem").count(), 1);
      assert.equal((await mock.calls("list_jobs")).length >= 2, true, "read again after the switch");
    });
  });

  test("refilling the composer sets a draft being written aside until it is restored or discarded", async () => {
    await h.withScenario("specs-long", async ({ page }) => {
      await specsReady(page);
      const description = composer(page).getByLabel("What do you want to build?");
      await description.fill("My own idea: a tool library for a street");
      const row = generations(page).getByRole("listitem", { name: "A landing page for a bakery (job 2)" });
      await row.getByRole("button", { name: "Edit and try again" }).click();
      assert.equal(await description.inputValue(), "A landing page for a bakery (job 2)");
      const aside = page.getByRole("region", { name: "Draft set aside" });
      assert.equal(await textOf(aside.locator("p")), "A draft you were writing is set aside: “My own idea: a tool library for a street”");
      await expectAxeClean(page, "the set-aside draft");
      // Not a notice that goes away: still there after a reload of the page.
      await page.reload();
      await specsReady(page);
      await aside.waitFor();
      // Restoring swaps: the spec being edited is set aside in its turn.
      await aside.getByRole("button", { name: "Restore my draft" }).click();
      assert.equal(await description.inputValue(), "My own idea: a tool library for a street");
      assert.equal(await textOf(aside.locator("p")), "A draft you were writing is set aside: “A landing page for a bakery (job 2)”");
      await aside.getByRole("button", { name: "Discard it" }).click();
      assert.equal(await aside.count(), 0);
      const undo = page.locator(".toast-card").filter({ hasText: "The set-aside draft was discarded." });
      await undo.getByRole("button", { name: "Undo" }).click();
      await aside.waitFor();
      await aside.getByRole("button", { name: "Discard it" }).click();
      // Clear has an Undo too.
      await composer(page).getByRole("button", { name: "Clear" }).click();
      assert.equal(await description.inputValue(), "");
      await page.locator(".toast-card").filter({ hasText: "The draft was cleared." }).getByRole("button", { name: "Undo" }).click();
      assert.equal(await description.inputValue(), "My own idea: a tool library for a street");
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`a second "Edit and try again" sets another draft aside without losing the first (${theme})`, async () => {
      await h.withScenario("specs-long", { theme }, async ({ page }) => {
        await specsReady(page);
        const description = composer(page).getByLabel("What do you want to build?");
        const row = generations(page).getByRole("listitem", { name: "A landing page for a bakery (job 2)" });
        await description.fill("First idea: a tool library for a street");
        await row.getByRole("button", { name: "Edit and try again" }).click();
        await description.fill("Second idea: a rota for a choir");
        await row.getByRole("button", { name: "Edit and try again" }).click();
        assert.equal(await description.inputValue(), "A landing page for a bakery (job 2)");
        const aside = page.getByRole("region", { name: "Draft set aside" });
        assert.equal(
          await textOf(aside),
          "A draft you were writing is set aside: “Second idea: a rota for a choir” One more draft is set aside: each shows here once this one is restored or discarded. Restore my draft Discard it",
        );
        await expectAxeClean(page, `two drafts set aside (${theme})`);
        // Kept on this computer: both are still there after a reload.
        await page.reload();
        await specsReady(page);
        await aside.getByRole("button", { name: "Discard it" }).click();
        assert.equal(await textOf(aside.locator("p").first()), "A draft you were writing is set aside: “First idea: a tool library for a street”");
        assert.equal(await aside.locator("p").count(), 1);
        await aside.getByRole("button", { name: "Restore my draft" }).click();
        assert.equal(await description.inputValue(), "First idea: a tool library for a street");
        assert.equal(await textOf(aside.locator("p").first()), "A draft you were writing is set aside: “A landing page for a bakery (job 2)”");
      });
    });
  }
});

describe("library", () => {
  test("empty: says how to start", async () => {
    await h.withScenario("specs-empty", async ({ page }) => {
      await specsReady(page);
      await library(page)
        .getByText("No specs yet. Describe what you want to build above to generate your first one.", { exact: true })
        .waitFor();
      assert.equal(await generations(page).count(), 0);
      await expectAxeClean(page, "an empty library");
    });
  });

  test("loading, then the specs with status, depth, date, hours and credits", async () => {
    await h.withScenario("specs-loading", async ({ page, mock }) => {
      await specsReady(page);
      await library(page).getByText("Loading your specs…", { exact: true }).waitFor();
      await expectAxeClean(page, "the library loading");
      await mock.release("list_specs");
      await library(page).locator("tbody tr").first().waitFor();
      const rows = await libraryRows(page);
      assert.deepEqual(
        rows.map((r) => [r[0], r[1], r[2], r[4], r[5]]),
        [
          [HABITS, "✓ Completed", "Fast", "86 h", "2.5 credits"],
          [
            "A booking app for a climbing gym: time slots, memberships and a waiver signed on first visit.",
            "✓ Completed",
            "Deep",
            "140 h",
            "10 credits",
          ],
          [
            "A marketplace for used lab equipment. [sandbox:fail] The spec could not be generated from this description. Add more detail and try again.",
            "✕ Failed",
            "Fast",
            "—",
            "0 credits",
          ],
        ],
      );
      assert.equal(await textOf(library(page).locator(".pager span")), "1–3 of 3");
      await expectAxeClean(page, "the library");
    });
  });

  test("long lists: pages, page size 10, 25 or 50, filters and a checked search pattern", async () => {
    await h.withScenario("specs-long", async ({ page, mock }) => {
      await specsReady(page);
      const lib = library(page);
      await lib.locator("tbody tr").first().waitFor();
      assert.equal(await textOf(lib.locator(".pager span")), "1–25 of 130");
      assert.equal(await lib.getByRole("button", { name: "Previous" }).isDisabled(), true);
      await lib.getByRole("button", { name: "Next" }).click();
      await lib.getByText("26–50 of 130", { exact: true }).waitFor();
      await expectAxeClean(page, "a long library");

      const size = lib.getByLabel("Per page");
      assert.deepEqual(await size.locator("option").allInnerTexts(), ["10", "25", "50"]);
      await size.selectOption("50");
      await lib.getByText("1–50 of 130", { exact: true }).waitFor();
      assert.equal(await lib.locator("tbody tr").count(), 50);

      await lib.getByLabel("Status").selectOption("processing");
      await lib.getByText("1–21 of 21", { exact: true }).waitFor();
      assert.ok((await libraryRows(page)).every((r) => r[1] === "◔ Generating"));
      await lib.getByLabel("Status").selectOption("");
      await lib.getByLabel("Depth").selectOption("deep_spec");
      await lib.getByText("1–44 of 44", { exact: true }).waitFor();

      await lib.getByLabel("Pattern", { exact: true }).check();
      const search = lib.getByLabel("Search descriptions");
      const before = (await mock.calls("list_specs")).length;
      await search.fill("(bakery");
      await search.press("Enter");
      await lib
        .getByText(
          "“(bakery” is not a search pattern the service can use: a bracket or a special character such as ( [ { * + ? \\ is out of place. Close every bracket, or put a \\ before a special character to search for it as it is.",
          { exact: true },
        )
        .waitFor();
      assert.equal(await search.getAttribute("aria-invalid"), "true");
      assert.equal((await mock.calls("list_specs")).length, before);
      await expectAxeClean(page, "the library with a bad pattern");
      await search.fill("bakery|salon");
      await search.press("Enter");
      await lib.getByText("1–21 of 21", { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("list_specs")).at(-1).args, {
        query: { limit: 50, skip: 0, endpoint: "deep_spec", search: "bakery|salon" },
      });
      assert.ok((await libraryRows(page)).every((r) => /bakery|salon/.test(r[0]) && r[2] === "Deep"));
    });
  });

  test("the service refuses the key: the error with Try again", async () => {
    await h.withScenario("specs-key-refused", async ({ page }) => {
      await specsReady(page);
      const alert = library(page).getByRole("alert");
      await alert.waitFor();
      assert.equal(await textOf(alert.getByRole("heading")), "Your API key was not accepted");
      assert.equal(
        await textOf(alert.locator("p")),
        "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.",
      );
      await alert.getByRole("button", { name: "Try again" }).waitFor();
      await expectAxeClean(page, "a refused library");
    });
  });

  test("offline: the specs saved on this computer, still opening", async () => {
    await h.withScenario("specs-offline", async ({ page }) => {
      await specsReady(page);
      const banner = library(page).getByRole("status").filter({ hasText: "Showing specs saved on this computer" });
      await banner.waitFor();
      assert.equal(
        await textOf(banner.locator("p")),
        "The service cannot be reached right now. These specs were kept here and still open; new ones appear when you are back online.",
      );
      await expectAxeClean(page, "the offline library");
      await library(page).getByRole("button", { name: HABITS }).click();
      await page.getByRole("heading", { level: 1, name: "Team habit tracker" }).waitFor();
      await page.getByRole("heading", { level: 2, name: "Showing the copy saved on this computer" }).waitFor();
      await expectAxeClean(page, "a spec read offline");
    });
  });

  test("offline: a document never downloaded says so, the saved one opens, and Try again opens it once back", async () => {
    await h.withScenario("offline-docs", async ({ page, mock }) => {
      await specsReady(page);
      await library(page).getByRole("button", { name: HABITS }).click();
      await page.getByRole("heading", { level: 1, name: "Team habit tracker" }).waitFor();
      await page.getByRole("tab", { name: "Coding-agent spec" }).click();
      const panel = page.getByRole("region", { name: "Not saved offline" });
      await panel.waitFor();
      assert.equal(
        await textOf(panel.locator("p")),
        "This document was not downloaded on this computer. Connect to Work and open it again to keep a copy.",
      );
      assert.equal(await page.getByRole("alert").count(), 0, "no failing tab");
      await expectAxeClean(page, "a document not saved offline");

      await page.getByRole("tab", { name: "Human spec" }).click();
      await page.getByRole("article", { name: "Human spec" }).getByRole("heading", { level: 1, name: "Team habit tracker" }).waitFor();
      assert.deepEqual((await mock.calls("render_spec")).map((c) => c.args.doc), ["human"], "the missing document is never asked for");

      await page.getByRole("tab", { name: "Coding-agent spec" }).click();
      await panel.getByRole("button", { name: "Try again" }).click();
      const still = panel.getByRole("status");
      await still.waitFor();
      assert.equal(await textOf(still), "Work still cannot be reached.");
      await mock.release("back-online");
      await panel.getByRole("button", { name: "Try again" }).click();
      await page.getByRole("article", { name: "Coding-agent spec" }).getByRole("heading", { level: 1, name: "Team habit tracker: instructions for a coding agent" }).waitFor();
      assert.equal(await panel.count(), 0);
      assert.deepEqual((await mock.calls("render_spec")).map((c) => c.args.doc), ["human", "codingAgent"]);
    });
  });
});

describe("a deep spec", () => {
  async function openDeep(page) {
    await specsReady(page);
    await library(page).getByRole("button", { name: DEEP_INPUT }).click();
    await page.getByRole("heading", { level: 1, name: "Recipe Box" }).waitFor();
  }

  test("overview: facts, open-in links, documentation packs, and its plan", async () => {
    await h.withScenario("specs-deep", async ({ page, mock }) => {
      await openDeep(page);
      assert.deepEqual(
        (await page.getByRole("tab").allInnerTexts()).map((t) => t.trim()),
        ["Overview", "Human spec", "Coding-agent spec", "Scope", "Personas and features", "Tech stack", "Graphs"],
      );
      const stats = await page.locator(".stat").allInnerTexts();
      assert.deepEqual(
        stats.map((s) => s.replace(/\s+/g, " ").trim()).filter((s) => !s.startsWith("Created")),
        ["Status ✓ Completed", "Depth Deep", "Estimated work 40.5 h", "Credits used 23.4 credits", "Execution time 2 min 28 s"],
      );
      const openIn = page.getByRole("region", { name: "Open in" });
      assert.deepEqual(
        (await openIn.getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
        ["The project ↗", "Coding tool A ↗", "Coding tool B ↗", "Coding tool C ↗", "Copy the link for Coding tool D"],
      );
      await openIn.getByRole("link", { name: /Coding tool B/ }).click();
      const packs = page.getByRole("region", { name: "Documentation packs" });
      assert.deepEqual(
        (await packs.getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()),
        ["nextjs.org ZIP ↗ Markdown ↗", "www.prisma.io ZIP ↗"],
      );
      await packs.getByRole("link", { name: "Markdown of the nextjs.org documentation" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.filter((c) => c.cmd === "open_external").length === 2);
      assert.deepEqual((await mock.calls("open_external")).map((c) => c.args.url), [
        "https://tool-b.example.com/#prompt=Download%20the%20spec",
        "https://example.com/z/nextjs-docs.md",
      ]);
      assert.equal(page.url().includes("example.com"), false);
      await expectAxeClean(page, "a deep spec's overview");

      await page.getByRole("button", { name: "Open plan" }).click();
      await page.getByRole("heading", { level: 1, name: "Plans" }).waitFor();
      await page.getByRole("heading", { level: 2, name: "Team habit tracker" }).waitFor();
      assert.deepEqual((await mock.calls("get_plan")).map((c) => c.args), [{ target: { specId: "6741a0c3e4b0f1a2b3c4d5ea" } }]);
    });
  });

  test("documents: contents, highlighted code, external links, copy and download", async () => {
    await h.withScenario("specs-deep", async ({ page, mock }) => {
      await openDeep(page);
      await page.getByRole("tab", { name: "Human spec" }).click();
      const doc = page.getByRole("article", { name: "Human spec" });
      await doc.waitFor();
      const toc = page.getByRole("navigation", { name: "Contents of the human spec" });
      assert.deepEqual(
        (await toc.getByRole("link").allInnerTexts()).map((t) => t.trim()),
        ["Recipe Box", "Milestone 1: Project setup", "Story 1.1: Repository and CI", "Milestone 2: Deployment"],
      );
      await doc.locator("code.hljs .hljs-keyword").first().waitFor();
      assert.deepEqual(await doc.locator("code.hljs .hljs-keyword").allInnerTexts(), ["export", "async", "function", "return"]);
      assert.deepEqual(await doc.locator("code.hljs .hljs-comment").allInnerTexts(), ["// The newest recipes first, 20 to a page."]);
      assert.deepEqual(await doc.locator("code.hljs .hljs-number").allInnerTexts(), ["20", "0"]);
      await doc.getByRole("link", { name: "Next.js docs" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "open_external"));
      assert.deepEqual((await mock.calls("open_external")).map((c) => c.args), [{ url: "https://nextjs.org/docs" }]);
      await expectAxeClean(page, "the human spec");
      await page.getByRole("button", { name: "Download .md" }).click();
      await page.getByText("Saved to /home/user/Downloads/recipe-box-spec.md", { exact: true }).waitFor();

      await page.getByRole("tab", { name: "Coding-agent spec" }).click();
      await page.getByRole("article", { name: "Coding-agent spec" }).waitFor();
      await page.getByRole("button", { name: "Copy for a coding agent" }).click();
      await page.getByText("Copied. Paste it into your coding agent.", { exact: true }).waitFor();
      assert.equal(
        await page.evaluate(() => window.__SPECDESK_MOCK__.db.clipboard.text),
        "# Recipe Box\n\n## Milestone 1: Project setup\n\n- [DB] Create schema (S)\n",
      );
      assert.deepEqual((await mock.calls("copy_spec_markdown")).map((c) => c.args.doc), ["codingAgent"]);
      assert.deepEqual((await mock.calls("spec_markdown")).map((c) => c.args.doc), ["human"], "the page never fetched it to copy");
      await expectAxeClean(page, "the coding-agent spec");
    });
  });

  test("scope: milestones, stories and subtasks with hours, filtered by role and layer", async () => {
    await h.withScenario("specs-deep", async ({ page }) => {
      await openDeep(page);
      await page.getByRole("tab", { name: "Scope" }).click();
      const summary = page.locator(".scope-summary");
      assert.equal(await textOf(summary), "40.5 h in total · 2 milestones · 3 stories · 6 subtasks");
      const m1 = page.getByRole("button", { name: /Milestone 1: Project setup/ });
      assert.equal(await textOf(m1), "▾ Milestone 1: Project setup 2 stories 24 h");
      assert.equal(await textOf(page.getByRole("button", { name: /Milestone 2:/ })), "▾ Milestone 2: Deployment, CI/CD and monitoring 1 story 16.5 h");
      await page.getByRole("button", { name: /Repository and CI/ }).click();
      const rows = await page.locator("table.subtasks tbody tr").allInnerTexts();
      assert.deepEqual(rows.map((r) => r.replace(/\s+/g, " ").trim()), [
        "DB 1.1.1 Create schema for users and recipes S 3 h BE",
        "Infra 1.1.2 CI pipeline with test and deploy jobs M 5 h DOBE",
      ]);
      await expectAxeClean(page, "the scope explorer");
      await page.getByLabel("Role").selectOption("DO");
      assert.equal(await textOf(summary), "15 h shown of 40.5 h in total · 2 milestones · 2 stories · 2 subtasks");
      await page.getByLabel("Layer").selectOption("Docs");
      assert.equal(await textOf(summary), "10 h shown of 40.5 h in total · 1 milestone · 1 story · 1 subtask");
      await page.getByLabel("Role").selectOption("");
      await page.getByLabel("Layer").selectOption("FE");
      assert.equal(await textOf(summary), "10 h shown of 40.5 h in total · 1 milestone · 1 story · 1 subtask");
      assert.deepEqual(
        (await page.getByLabel("Layer").locator("option").allInnerTexts()).map((t) => t.trim()),
        ["Every layer", "DB", "Infra", "FE", "API", "QA", "Docs"],
      );
    });
  });

  test("personas, features and the tech stack", async () => {
    await h.withScenario("specs-deep", async ({ page }) => {
      await openDeep(page);
      await page.getByRole("tab", { name: "Personas and features" }).click();
      await page.getByRole("heading", { level: 3, name: "Home cook" }).waitFor();
      assert.deepEqual(
        (await page.locator(".core-item .tone-badge").allInnerTexts()).map((t) => t.trim()),
        ["High priority", "Medium priority", "Low priority"],
      );
      await expectAxeClean(page, "personas and features");
      await page.getByRole("tab", { name: "Tech stack" }).click();
      assert.deepEqual(
        (await page.locator(".stack-group > h2").allInnerTexts()).map((t) => t.trim()),
        ["Frontend", "Database", "CI/CD"],
      );
      assert.equal(
        await textOf(page.locator(".stack-item").first()),
        "Next.js ↗ Used for: Frontend and API routes Why: One framework for UI and server code React framework with server rendering Helpful links App router guide ↗ Alternatives Remix ↗ — Web-standards React framework",
      );
      await expectAxeClean(page, "the tech stack");
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`graphs (${theme}): laid out, zoomable, with node details and a text version`, async () => {
      await h.withScenario("specs-deep", { theme }, async ({ page }) => {
        await openDeep(page);
        await page.getByRole("tab", { name: "Graphs" }).click();
        const flow = page.getByRole("application", { name: "User flow diagram" });
        await flow.locator(".react-flow__node").first().waitFor();
        assert.equal(await flow.locator(".react-flow__node").count(), 4);
        assert.equal(await flow.locator(".react-flow__edge").count(), 3);
        const arch = page.getByRole("application", { name: "Architecture diagram" });
        assert.equal(await arch.locator(".react-flow__node").count(), 3);
        // Top to bottom for the user flow, left to right for the architecture.
        const signup = await flow.locator('[data-id="signup"]').boundingBox();
        const browse = await flow.locator('[data-id="browse"]').boundingBox();
        assert.ok(browse.y > signup.y + signup.height / 2, "the user flow goes down");
        const web = await arch.locator('[data-id="web"]').boundingBox();
        const api = await arch.locator('[data-id="api"]').boundingBox();
        assert.ok(api.x > web.x + web.width / 2, "the architecture goes right");
        await flow.getByRole("button", { name: /zoom in/i }).waitFor();
        await flow.getByRole("button", { name: /fit view/i }).click();

        await flow.locator('[data-id="plan"]').click();
        const details = page.getByRole("region", { name: "Details of Plan week" });
        await details.waitFor();
        assert.equal(
          await textOf(details.locator("dl")),
          "Type action Level 2 Hours 12.5 h Description Drag recipes onto days",
        );
        assert.equal(await textOf(details.locator("ul").first()), "Browse recipes — add to plan");
        await expectAxeClean(page, `the graphs with a node chosen (${theme})`);

        const text = page.locator("details.graph-text").first();
        await text.locator("summary").click();
        assert.deepEqual(
          (await text.locator("ul").nth(1).getByRole("listitem").allInnerTexts()).map((t) => t.trim()),
          ["Sign up → Browse recipes — after first login", "Browse recipes → Plan week — add to plan", "Plan week → Shopping list — generate the list"],
        );
        await page.getByRole("img", { name: "Architecture infographic of Recipe Box" }).waitFor();
        await expectAxeClean(page, `the graphs as text (${theme})`);
      });
    });
  }
});
