// The Gateway's Models tab and a trial key on the mock IPC (src/mock/scenarios/gateway-chat.ts):
// the catalog's filters and every kind of model's price, the connection's catalog refused (its
// error with Open Settings and Try again), and what a trial key allows, said in the Gateway and in
// Settings; axe in the light and the dark theme.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, startHarness, textOf, openGateway } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

describe("models", () => {
  test("browses the catalog with filters, newest first, and the priced image and video lists", async () => {
    await h.withScenario("gateway-chat", async ({ page }) => {
      await openGateway(page, "Models");
      const table = page.getByRole("table", { name: "Models", exact: true });
      await table.waitFor();
      const ids = async () => table.locator("tbody .model-id").allInnerTexts();
      const all = await ids();
      assert.ok(all.includes("openai/gpt-4o-mini-audio"), "the authed catalog's audio model is listed");
      await page.getByLabel("Lab").selectOption("google");
      assert.deepEqual(await ids(), ["google/veo-3-fast"]);
      await page.getByLabel("Lab").selectOption("");
      await page.getByLabel("Writes").selectOption("audio");
      assert.deepEqual(await ids(), ["openai/gpt-4o-mini-audio"]);
      await page.getByLabel("Writes").selectOption("");
      await page.getByLabel("Search models").fill("nothing-like-this");
      await page.getByText("No model matches these filters.").waitFor();
      await page.getByRole("button", { name: "Clear the filters" }).click();
      assert.deepEqual(await ids(), all);
      // The connection's catalog prices every kind of model, text and audio too.
      const price = async (id) => textOf(table.locator("tbody tr", { has: page.getByText(id, { exact: true }) }).locator("td").last());
      assert.equal(await price("anthropic/claude-sonnet-4.5"), "30 credits per 1M tokens read, 150 credits per 1M written");
      assert.equal(await price("openai/gpt-4o-transcribe"), "0.06 credits per minute of audio");
      assert.equal(await price("openai/gpt-image-1"), "0.4 credits per image");
      const images = page.getByRole("table", { name: "Image models" });
      assert.equal(await textOf(images.locator("tbody tr").first().locator("td").last()), "0.4 credits per image");
      const videos = page.getByRole("table", { name: "Video models" });
      assert.equal(await textOf(videos.locator("tbody tr").first().locator("td").last()), "1.5 credits per second");
      await expectAxeClean(page, "the model catalog");
    });
  });
});

describe("a trial key", () => {
  const NOTE =
    "Free trial This connection's key is on the AI gateway's free trial: 5 credits of gateway use in all, and at most 30 calls a minute (Specdesk paces its calls to keep within it). Subscribe on the service to go on once the trial is used up.";
  for (const theme of ["light", "dark"]) {
    test(`the Gateway and Settings say what the trial allows (${theme})`, async () => {
      await h.withScenario("gateway-trial", { theme }, async ({ page }) => {
        await openGateway(page, "Chat");
        const note = page.getByRole("note");
        await note.waitFor();
        assert.equal(await textOf(note), NOTE);
        await expectAxeClean(page, `the Gateway on a trial key (${theme})`);
        await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Settings", exact: true }).click();
        const trial = page.getByRole("listitem", { name: "Trial" });
        await trial.getByText("Gateway free trial", { exact: true }).waitFor();
        await trial.getByText("Its key is on the AI gateway’s free trial: 5 credits of gateway use in all, 30 calls a minute.", { exact: true }).waitFor();
        assert.equal(await page.getByRole("listitem", { name: "Sandbox" }).getByText("Gateway free trial").count(), 0);
        await expectAxeClean(page, `Settings with a trial connection (${theme})`);
      });
    });
  }

  test("no note for a connection not known to be on a trial", async () => {
    await h.withScenario("gateway-chat", async ({ page }) => {
      await openGateway(page, "Chat");
      await page.getByRole("tablist", { name: "Studios" }).waitFor();
      assert.equal(await page.getByRole("note").count(), 0);
    });
  });
});

describe("a refused catalog", () => {
  test("models: the connection's catalog refused shows its title with Open Settings and Try again, which lists the prices", async () => {
    await h.withScenario("gateway-models-faults", async ({ page, mock }) => {
      await openGateway(page, "Models");
      const table = page.getByRole("table", { name: "Models", exact: true });
      await table.waitFor();
      const panel = page.getByRole("region", { name: "Models" }).getByRole("alert");
      await panel.getByRole("heading", { level: 3, name: "Your API key was not accepted" }).waitFor();
      await panel.getByText("The service did not accept your API key. Check it in Settings, then try again.").waitFor();
      await panel.getByRole("button", { name: "Open Settings" }).waitFor();
      assert.equal(await table.getByText("openai/gpt-4o-mini-audio").count(), 0);
      await expectAxeClean(page, "the model catalog without the connection's catalog");
      await mock.release("catalog-back");
      await panel.getByRole("button", { name: "Try again" }).click();
      await table.getByText("openai/gpt-4o-mini-audio").waitFor();
      assert.equal(await panel.count(), 0);
    });
  });

  test("models: Open Settings on a refused catalog goes to Settings", async () => {
    await h.withScenario("gateway-models-faults", async ({ page }) => {
      await openGateway(page, "Models");
      await page.getByRole("region", { name: "Models" }).getByRole("alert").getByRole("button", { name: "Open Settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    });
  });
});
