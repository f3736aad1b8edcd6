// Settings: connections (list, add with a refused address, keys), errors with their action,
// preferences; on the mock IPC.
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

const ROTATION_NOTICE =
  "Your new key is saved. If you replaced the old key on the service, the old key keeps working for 15 minutes, then stops.";

async function openSettings(page) {
  await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Settings" }).click();
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await page.getByRole("list").getByRole("listitem").first().waitFor();
}

const row = (page, name) => page.getByRole("listitem", { name, exact: true });

describe("connections", () => {
  test("lists the built-in Sandbox, in use, with its masked key and no edit or remove", async () => {
    await h.withScenario("default", async ({ page }) => {
      await openSettings(page);
      assert.equal(
        await textOf(page.locator("#connections-title + p")),
        "Each connection is a service address and its API key. Keys stay in your system keychain.",
      );
      const items = page.getByRole("list").getByRole("listitem");
      assert.equal(await items.count(), 1);
      const sandbox = row(page, "Sandbox");
      assert.equal(await textOf(sandbox.locator(".badge-success")), "In use");
      assert.equal(await textOf(sandbox.locator(".badge-sandbox")), "Sandbox — offline, simulated");
      assert.equal(await textOf(sandbox.locator(".mono")), "http://127.0.0.1:8787");
      await sandbox.getByText("Key ••••_org", { exact: true }).waitFor();
      assert.deepEqual(
        (await sandbox.getByRole("button").allInnerTexts()).map((t) => t.trim()),
        ["Test connection"],
      );
      await page.getByRole("button", { name: "Add connection" }).waitFor();
      await expectAxeClean(page, "Settings");
    });
  });

  test("lists several connections and switches the one in use", async () => {
    await h.withScenario("connections", async ({ page, mock }) => {
      const header = page.getByRole("banner");
      await header.getByLabel("Credits remaining: 2,500").waitFor();
      await header.getByText("Work", { exact: true }).waitFor();
      assert.equal(await header.locator(".badge-sandbox").count(), 0);
      await openSettings(page);
      assert.deepEqual(
        (await page.getByRole("list").getByRole("listitem").all()).length,
        3,
      );
      const work = row(page, "Work");
      assert.equal(await textOf(work.locator(".badge-success")), "In use");
      await work.getByText("Key ••••9f2c", { exact: true }).waitFor();
      const personal = row(page, "Personal");
      await personal.getByText("No key yet", { exact: true }).waitFor();
      assert.deepEqual(
        (await personal.getByRole("button").allInnerTexts()).map((t) => t.trim()),
        ["Use", "Test connection", "API key", "Edit", "Remove"],
      );
      await expectAxeClean(page, "Settings with three connections");

      await personal.getByRole("button", { name: "Use" }).click();
      await personal.locator(".badge-success").waitFor();
      assert.equal(await textOf(personal.locator(".badge-success")), "In use");
      await header.getByText("Personal", { exact: true }).waitFor();
      // No key on Personal: the meter says so instead of a number.
      await header.getByText("Balance unavailable").waitFor();
      assert.deepEqual((await mock.calls("set_active_profile")).map((c) => c.args), [{ id: "p_personal" }]);
    });
  });

  test("add: a refused address is explained at the field and nothing is sent; a good one is added", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await openSettings(page);
      await page.getByRole("button", { name: "Add connection" }).click();
      const form = page.getByRole("form", { name: "Add connection" });
      await form.getByLabel("Name").fill("Work");
      const address = form.getByLabel("Service address");
      assert.equal(await address.inputValue(), "https://");
      assert.equal(await textOf(form.locator("#profile-baseUrl-hint")), "Starts with https://.");
      await address.fill("http://api.example.com");
      await form.getByRole("button", { name: "Add connection" }).click();
      const error = form.locator("#profile-baseUrl-error");
      await error.waitFor();
      assert.equal(
        await textOf(error),
        "The address must start with https:// so your API key is never sent in clear. Plain http:// is allowed only for this computer (localhost).",
      );
      assert.equal(await error.getAttribute("role"), "alert");
      assert.equal(await address.getAttribute("aria-invalid"), "true");
      assert.equal(await address.getAttribute("aria-describedby"), "profile-baseUrl-error");
      assert.deepEqual(await mock.calls("add_profile"), []);
      await expectAxeClean(page, "the add-connection form with an error");

      await address.fill("not an address");
      await form.getByRole("button", { name: "Add connection" }).click();
      await form
        .getByText('"not an address" is not a web address. Enter it in full, for example https://api.example.com.', { exact: true })
        .waitFor();

      await address.fill("https://api.example.com");
      await form.getByLabel("Key type").selectOption("organization");
      await form.getByLabel("API key", { exact: true }).fill("sk_live_1234567890abcd");
      await form.getByRole("button", { name: "Add connection" }).click();
      await row(page, "Work").waitFor();
      assert.equal(await page.getByRole("form", { name: "Add connection" }).count(), 0);
      await row(page, "Work").getByText("Key ••••abcd", { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("add_profile")).map((c) => c.args), [
        {
          input: { name: "Work", baseUrl: "https://api.example.com", keyKind: "organization" },
          apiKey: "sk_live_1234567890abcd",
        },
      ]);
      await expectAxeClean(page, "Settings after adding a connection");
    });
  });

  test("key entry: checked before sending, saved to the keychain, replaced with a notice", async () => {
    await h.withScenario("connections", async ({ page, mock }) => {
      await openSettings(page);
      const personal = row(page, "Personal");
      await personal.getByRole("button", { name: "API key" }).click();
      assert.equal(await personal.getByRole("button", { name: "API key" }).getAttribute("aria-expanded"), "true");
      const form = personal.getByRole("form", { name: "API key for Personal" });
      const input = form.getByLabel("API key", { exact: true });
      await form.getByRole("button", { name: "Save key" }).click();
      await form.getByRole("alert").waitFor();
      assert.equal(await textOf(form.getByRole("alert")), "Paste your API key.");
      await input.fill("sk live key");
      await form.getByRole("button", { name: "Save key" }).click();
      await form
        .getByText("An API key has no spaces or line breaks. Copy it again from your account page.", { exact: true })
        .waitFor();
      assert.equal(await input.getAttribute("aria-invalid"), "true");
      assert.deepEqual(await mock.calls("set_api_key"), []);
      await expectAxeClean(page, "the key form with an error");

      await input.fill("sk_personal_abcdef123456");
      await form.getByRole("button", { name: "Save key" }).click();
      const status = personal.getByRole("status");
      await status.waitFor();
      assert.equal(await textOf(status), "Your key is saved in your keychain.");
      await personal.getByText("Key ••••3456", { exact: true }).waitFor();
      // The field is emptied and now offers to replace the key.
      assert.equal(await form.getByLabel("Replace the API key").inputValue(), "");
      assert.deepEqual((await mock.calls("set_api_key")).map((c) => c.args), [
        { profileId: "p_personal", apiKey: "sk_personal_abcdef123456" },
      ]);

      // Work has a key already: the field says "Replace", and the answer carries the rotation notice.
      const work = row(page, "Work");
      await work.getByRole("button", { name: "API key" }).click();
      await work.getByLabel("Replace the API key").fill("sk_work_rotated_0000ffff");
      await work.getByRole("button", { name: "Save key" }).click();
      await work.getByRole("status").waitFor();
      assert.equal(await textOf(work.getByRole("status")), ROTATION_NOTICE);
      await work.getByText("Key ••••ffff", { exact: true }).waitFor();
      await expectAxeClean(page, "Settings after saving keys");
    });
  });

  test("a locked keychain is explained in plain words", async () => {
    await h.withScenario("keychain-locked", async ({ page }) => {
      await openSettings(page);
      const personal = row(page, "Personal");
      await personal.getByRole("button", { name: "API key" }).click();
      await personal.getByLabel("API key", { exact: true }).fill("sk_personal_abcdef123456");
      await personal.getByRole("button", { name: "Save key" }).click();
      const alert = personal.getByRole("alert");
      await alert.waitFor();
      assert.equal(await textOf(alert.getByRole("heading")), "Your keychain is locked");
      assert.equal(
        await textOf(alert.locator("p")),
        "Your keychain is locked. Unlock it (it may be asking for your password), then try again.",
      );
      await expectAxeClean(page, "the keychain error");
    });
  });

  test("an error with an action: out of credits offers Top up, opened in the system browser", async () => {
    await h.withScenario("broke", async ({ page, mock }) => {
      await openSettings(page);
      const sandbox = row(page, "Sandbox");
      await sandbox.getByRole("button", { name: "Test connection" }).click();
      const alert = sandbox.getByRole("alert");
      await alert.waitFor();
      assert.equal(await textOf(alert.getByRole("heading")), "Not enough credits");
      assert.equal(await textOf(alert.locator("p")), "You have run out of credits. Top up your balance, then try again.");
      await expectAxeClean(page, "the out-of-credits error");
      await alert.getByRole("button", { name: "Top up" }).click();
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.calls.some((c) => c.cmd === "open_external"));
      assert.deepEqual((await mock.calls("open_external")).map((c) => c.args), [
        { url: "https://example.com/account/top-up" },
      ]);
    });
  });

  test("test connection reports the balance", async () => {
    await h.withScenario("default", async ({ page }) => {
      await openSettings(page);
      const sandbox = row(page, "Sandbox");
      await sandbox.getByRole("button", { name: "Test connection" }).click();
      await sandbox.getByRole("status").waitFor();
      assert.equal(await textOf(sandbox.getByRole("status")), "Connected. 10,000 credits available.");
    });
  });
});

describe("preferences", () => {
  test("shows the saved settings and applies a new theme once saved", async () => {
    await h.withScenario("default", async ({ page, mock }) => {
      await openSettings(page);
      const form = page.getByRole("form", { name: "Preferences" });
      await form.waitFor();
      const theme = form.getByLabel("Appearance");
      assert.equal(await theme.inputValue(), "light");
      assert.equal(await form.getByLabel("Check spec progress every (seconds)").inputValue(), "12");
      assert.equal(await textOf(form.locator("#pref-poll-help")), "The service recommends 10 to 15 seconds.");
      assert.equal(await form.getByLabel("Default spec depth").inputValue(), "fast");
      assert.equal(await textOf(form.locator(".field .row .mono")), "Your Downloads folder");
      assert.equal(await form.getByLabel("Notify me when long work finishes while Specdesk is in the background").isChecked(), true);
      const kinds = form.getByRole("group", { name: "Notify me when" });
      assert.deepEqual(await kinds.getByRole("checkbox").evaluateAll((boxes) => boxes.map((b) => [b.parentElement.textContent.trim(), b.checked])), [
        ["A spec is ready or could not be generated", true],
        ["A browser batch has finished", true],
        ["A video is ready or could not be made", true],
      ]);
      await kinds.getByLabel("A browser batch has finished").uncheck();

      await form.getByLabel("Check spec progress every (seconds)").fill("30");
      await form.getByText("Choose a whole number of seconds from 10 to 15.", { exact: true }).waitFor();
      assert.equal(await form.getByRole("button", { name: "Save preferences" }).isDisabled(), true);
      await expectAxeClean(page, "preferences with an error");
      await form.getByLabel("Check spec progress every (seconds)").fill("15");

      await theme.selectOption("dark");
      await form.getByRole("button", { name: "Save preferences" }).click();
      await form.getByRole("status").waitFor();
      assert.equal(await textOf(form.getByRole("status")), "Saved.");
      await page.locator("html[data-theme=dark]").waitFor({ state: "attached" });
      const saved = (await mock.calls("save_settings")).map((c) => c.args.settings);
      assert.deepEqual(saved, [
        {
          activeProfileId: "sandbox",
          theme: "dark",
          specPollIntervalSecs: 15,
          defaultSpecDepth: "fast",
          notifications: true,
          notify: { specs: true, batches: false, videos: true },
        },
      ]);
      await expectAxeClean(page, "Settings in the dark theme");
    });
  });
});
