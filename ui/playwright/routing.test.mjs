// Routing and the keyboard: each place in the URL hash (Back / Forward, a relaunch reopens it),
// the focus on the new screen's heading, the command palette (Ctrl+K) and the help sheet (?).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, startHarness, textOf } from "./harness.mjs";

const SPEC_HABITS = "6741a0c3e4b0f1a2b3c4d5e6";
const SPEC_CLIMBING = "6741a0c3e4b0f1a2b3c4d5e7";
const HABITS_INPUT = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const hashOf = (page) => page.evaluate(() => window.location.hash);
/** The focused element as `TAG: text` (whitespace collapsed). */
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName}: ${(el.textContent ?? "").replace(/\s+/g, " ").trim()}` : "";
  });

async function heading(page, name) {
  await page.locator("main.main").getByRole("heading", { level: 1, name, exact: true }).waitFor();
}

/** Waits until the focus is on the heading named `name`. */
async function focusOnHeading(page, name) {
  await page.waitForFunction((n) => {
    const el = document.activeElement;
    return el?.tagName === "H1" && el.textContent?.trim() === n && el.closest("main") !== null;
  }, name);
  assert.equal(await focused(page), `H1: ${name}`);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("tabindex")), "-1");
}

async function openLibrarySpec(page) {
  await heading(page, "Specs");
  await page.getByRole("button", { name: HABITS_INPUT, exact: true }).click();
  await heading(page, "Team habit tracker");
}

function palette(page) {
  return page.getByRole("dialog", { name: "Command palette" });
}

async function openPalette(page) {
  await page.keyboard.press("Control+K");
  const dialog = palette(page);
  await dialog.waitFor();
  return dialog;
}

/** The names of the palette's options, in order. */
async function options(dialog) {
  return (await dialog.getByRole("option").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

describe("routing", () => {
  test("a spec has its address; Back returns to the list and Forward reopens it", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      assert.equal(await hashOf(page), "#/specs");
      await openLibrarySpec(page);
      assert.equal(await hashOf(page), `#/specs/${SPEC_HABITS}`);
      await focusOnHeading(page, "Team habit tracker");

      await page.goBack();
      await heading(page, "Specs");
      assert.equal(await hashOf(page), "#/specs");
      await focusOnHeading(page, "Specs");

      await page.goForward();
      await heading(page, "Team habit tracker");
      assert.equal(await hashOf(page), `#/specs/${SPEC_HABITS}`);
      await focusOnHeading(page, "Team habit tracker");
    });
  });

  test("Alt+Left and Alt+Right, and the mouse's back and forward buttons, walk the history", async () => {
    await h.withScenario("default", async ({ page }) => {
      const nav = page.getByRole("navigation", { name: "Areas" });
      await heading(page, "Specs");
      await nav.getByRole("button", { name: "Plans", exact: true }).click();
      await heading(page, "Plans");
      await nav.getByRole("button", { name: "Gateway", exact: true }).click();
      await heading(page, "Gateway");
      assert.equal(await hashOf(page), "#/gateway");

      await page.keyboard.press("Alt+ArrowLeft");
      await heading(page, "Plans");
      assert.equal(await hashOf(page), "#/plans");
      await page.keyboard.press("Alt+ArrowLeft");
      await heading(page, "Specs");
      assert.equal(await hashOf(page), "#/specs");
      await page.keyboard.press("Alt+ArrowRight");
      await heading(page, "Plans");
      await nav.locator("[aria-current=page]").filter({ hasText: "Plans" }).waitFor();

      // Buttons 3 and 4 (X1 / X2) as the engine reports them.
      const press = (button) =>
        page.evaluate((b) => {
          const opts = { button: b, bubbles: true, cancelable: true };
          document.body.dispatchEvent(new MouseEvent("mousedown", opts));
          document.body.dispatchEvent(new MouseEvent("mouseup", opts));
        }, button);
      await press(4);
      await heading(page, "Gateway");
      assert.equal(await hashOf(page), "#/gateway");
      await press(3);
      await heading(page, "Plans");
      assert.equal(await hashOf(page), "#/plans");
    });
  });

  test("a relaunch (the window opened without a hash) reopens the last place", async () => {
    await h.withScenario("default", async ({ page }) => {
      await openLibrarySpec(page);
      assert.equal(
        await page.evaluate(() => JSON.parse(window.localStorage.getItem("specdesk.route.last") ?? "null")),
        `#/specs/${SPEC_HABITS}`,
      );
      const entries = await page.evaluate(() => window.history.length);
      await page.goto(`${h.url}/?scenario=default`);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__?.scenario === "default");
      await heading(page, "Team habit tracker");
      assert.equal(await hashOf(page), `#/specs/${SPEC_HABITS}`);
      // The reopened place replaced the bare entry (one entry for the relaunch, not two).
      assert.equal(await page.evaluate(() => window.history.length), entries + 1);
      await focusOnHeading(page, "Team habit tracker");
    });
  });

  test("an unknown or malformed address shows Specs", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      for (const bad of ["#/nowhere", "#/plans?specId=123", "#/specs/a/b"]) {
        await page.evaluate((hash) => {
          window.location.hash = hash;
        }, bad);
        await page.waitForFunction(() => window.location.hash === "#/specs");
        await heading(page, "Specs");
      }
      await page.evaluate(() => {
        window.location.hash = "#/plans?projectId=6741a0c3e4b0f1a2b3c4d5f0";
      });
      await heading(page, "Plans");
      assert.equal(await hashOf(page), "#/plans?projectId=6741a0c3e4b0f1a2b3c4d5f0");
    });
  });

  test("focus moves to the heading after navigating from the sidebar", async () => {
    await h.withScenario("default", async ({ page }) => {
      const nav = page.getByRole("navigation", { name: "Areas" });
      await heading(page, "Specs");
      await nav.getByRole("button", { name: "Browser agents", exact: true }).click();
      await focusOnHeading(page, "Browser agents");
      await nav.getByRole("button", { name: "Settings", exact: true }).click();
      await focusOnHeading(page, "Settings");
      assert.equal(await hashOf(page), "#/settings");
    });
  });
});

describe("the command palette", () => {
  test("Ctrl+K, arrow keys and Enter go to Plans", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      const dialog = await openPalette(page);
      assert.equal(await dialog.getAttribute("aria-modal"), "true");
      const input = dialog.getByRole("combobox", { name: "Type a command or a name" });
      assert.equal(await focused(page), "INPUT: ");
      // The service's specs and the local library's copies of them, each listed once.
      await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 9);
      assert.deepEqual(await options(dialog), [
        "Specs",
        "Plans",
        "Browser agents",
        "Gateway",
        "Settings",
        "New spec",
        "A habit tracker for small teams: daily check-ins, streaks and a weekly summary… Nov 20, 2026",
        "A booking app for a climbing gym: time slots, memberships and a waiver signed… Nov 18, 2026",
        "A marketplace for used lab equipment. [sandbox:fail] Nov 17, 2026",
      ]);
      assert.deepEqual(
        await dialog.getByRole("group").evaluateAll((gs) => gs.map((g) => g.getAttribute("aria-label"))),
        ["Go to", "Actions", "Specs"],
      );
      const selected = () => textOf(dialog.locator('[role="option"][aria-selected="true"]'));
      assert.equal(await selected(), "Specs");
      await page.keyboard.press("ArrowDown");
      assert.equal(await selected(), "Plans");
      assert.equal(await input.getAttribute("aria-activedescendant"), await dialog.getByRole("option", { name: "Plans" }).getAttribute("id"));
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press("ArrowUp");
      assert.equal(await selected(), "A marketplace for used lab equipment. [sandbox:fail] Nov 17, 2026");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      assert.equal(await selected(), "Plans");
      // Tab stays in the dialog.
      await page.keyboard.press("Tab");
      assert.equal(await focused(page), "INPUT: ");
      await page.keyboard.press("Enter");
      await heading(page, "Plans");
      assert.equal(await dialog.count(), 0);
      assert.equal(await hashOf(page), "#/plans");
      await focusOnHeading(page, "Plans");
    });
  });

  test("opens a spec by its title", async () => {
    await h.withScenario("default", async ({ page }) => {
      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway", exact: true }).click();
      await heading(page, "Gateway");
      const dialog = await openPalette(page);
      await page.keyboard.type("climbing GYM");
      await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 2);
      // The spec, then its plan (a completed spec has one).
      assert.deepEqual(await options(dialog), [
        "A booking app for a climbing gym: time slots, memberships and a waiver signed… Nov 18, 2026",
        "Plan of A booking app for a climbing gym: time slots, memberships and a waiver signed… Nov 18, 2026",
      ]);
      await page.keyboard.press("Enter");
      const title = "A booking app for a climbing gym: time slots, memberships and a waiver signed on…";
      await heading(page, title);
      assert.equal(await hashOf(page), `#/specs/${SPEC_CLIMBING}`);
      await focusOnHeading(page, title);
      await page.goBack();
      await heading(page, "Gateway");
    });
  });

  test("says when nothing matches, and Escape closes it with the focus back", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      const gateway = page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway", exact: true });
      await gateway.focus();
      const dialog = await openPalette(page);
      await page.keyboard.type("zebra");
      await dialog.getByText("Nothing matches “zebra”.", { exact: true }).waitFor();
      assert.equal(await dialog.getByRole("listbox").count(), 0);
      assert.equal(await dialog.getByRole("combobox").getAttribute("aria-expanded"), "false");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      assert.equal(await focused(page), "BUTTON: Gateway");
      assert.equal(await hashOf(page), "#/specs");
      // Ctrl+K twice closes it too.
      await openPalette(page);
      await page.keyboard.press("Control+K");
      await dialog.waitFor({ state: "detached" });
    });
  });

  test("New spec opens Specs and asks the composer for the focus", async () => {
    await h.withScenario("default", async ({ page }) => {
      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway", exact: true }).click();
      await heading(page, "Gateway");
      await page.evaluate(() => {
        window.__newSpec = 0;
        window.addEventListener("specdesk:new-spec", () => {
          window.__newSpec += 1;
        });
      });
      await openPalette(page);
      await page.keyboard.type("new spec");
      await page.keyboard.press("Enter");
      await heading(page, "Specs");
      assert.equal(await hashOf(page), "#/specs");
      // The composer took it (through the event, or as it mounted when the area's code was still
      // loading): its description field has the focus, not the heading.
      await page.waitForFunction(() => document.activeElement?.id === document.querySelector("label")?.htmlFor || document.activeElement?.tagName === "TEXTAREA");
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA");
      assert.equal(await page.evaluate(() => document.activeElement?.labels?.[0]?.textContent.trim()), "What do you want to build?");
      // Already on the list: the event is sent at once.
      const sent = await page.evaluate(() => window.__newSpec);
      await openPalette(page);
      await page.keyboard.type("new spec");
      await page.keyboard.press("Enter");
      await page.waitForFunction((n) => window.__newSpec === n + 1, sent);
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), "TEXTAREA");
    });
  });

  test("switches connection", async () => {
    await h.withScenario("connections", async ({ page, mock }) => {
      await heading(page, "Specs");
      const dialog = await openPalette(page);
      await page.keyboard.type("switch");
      assert.deepEqual(await options(dialog), ["Switch to Sandbox", "Switch to Personal"]);
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "set_active_profile"));
      assert.deepEqual((await mock.calls("set_active_profile")).map((c) => c.args), [{ id: "sandbox" }]);
      await page.getByRole("banner").locator(".badge-sandbox").waitFor();
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`passes axe with the palette open (${theme})`, async () => {
      await h.withScenario("default", { theme }, async ({ page }) => {
        await heading(page, "Specs");
        const dialog = await openPalette(page);
        await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 9);
        await page.keyboard.press("ArrowDown");
        await expectAxeClean(page, `the command palette (${theme})`);
        await page.keyboard.type("zebra");
        await dialog.getByText("Nothing matches “zebra”.", { exact: true }).waitFor();
        await expectAxeClean(page, `the command palette with no match (${theme})`);
      });
    });
  }
});

describe("the help sheet", () => {
  test("? lists the shortcuts; not while typing", async () => {
    await h.withScenario("default", async ({ page }) => {
      await heading(page, "Specs");
      const field = page.getByLabel("What do you want to build?");
      await field.click();
      await page.keyboard.type("Why?");
      assert.equal(await field.inputValue(), "Why?");
      assert.equal(await page.getByRole("dialog").count(), 0);

      await page.locator("main.main h1").focus();
      await page.keyboard.press("?");
      const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await sheet.waitFor();
      assert.equal(await sheet.getAttribute("aria-modal"), "true");
      const rows = await sheet.locator(".shortcut").evaluateAll((els) =>
        els.map((el) => [el.querySelector("dt")?.textContent ?? "", el.querySelector("dd")?.textContent ?? ""]),
      );
      assert.deepEqual(rows, [
        ["Ctrl+K", "Open the command palette: go to an area, start a new spec, open a spec, switch connection"],
        ["?", "Show these shortcuts (when not typing in a field)"],
        ["Alt+←", "Go back"],
        ["Alt+→", "Go forward"],
        ["Ctrl+Enter", "Send the spec described in the composer"],
        ["Enter", "Send a chat message in the Gateway"],
        ["Shift+Enter", "Start a new line in a chat message"],
        ["↑ or ↓", "Move through the command palette's list"],
        ["Esc", "Close the palette or this sheet"],
      ]);
      assert.equal(await focused(page), "BUTTON: Close");
      await page.keyboard.press("Tab");
      assert.equal(await focused(page), "BUTTON: Close");
      await expectAxeClean(page, "the help sheet");
      await page.keyboard.press("Escape");
      await sheet.waitFor({ state: "detached" });
      assert.equal(await focused(page), "H1: Specs");

      await page.keyboard.press("?");
      await sheet.waitFor();
      await sheet.getByRole("button", { name: "Close" }).click();
      await sheet.waitFor({ state: "detached" });
    });
  });
});
