// Credits everywhere (issue 15): a gateway call refused at the connection's daily spend cap, with
// its words and "Raise today's cap", then sent; the Spending section's figures by day, area and
// model, its CSV export; axe in both themes; a media library that cannot be read and a refused
// export shown with their words and "Try again". On the mock IPC (src/mock/scenarios/credits.ts).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, expectAxeCleanInBothThemes, startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

/** `YYYY-MM-DD` of the local day `daysAgo` before today. */
function day(daysAgo) {
  const t = new Date();
  const d = new Date(t.getFullYear(), t.getMonth(), t.getDate() - daysAgo);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
function noonAgo(daysAgo, minute = 0) {
  const t = new Date();
  return new Date(t.getFullYear(), t.getMonth(), t.getDate() - daysAgo, 12, minute).toISOString();
}

const rows = (table) => table.locator("tbody tr").evaluateAll((trs) => trs.map((r) => [...r.children].map((c) => c.innerText.trim())));

async function openSettings(page) {
  await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Settings" }).click();
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
}

const REFUSED =
  "This call was not sent: 3.75 credits spent today on Sandbox has reached the cap (its daily cap is 3.75 credits), and the call's cost is only known once it runs. Raise today's cap to send it, or wait until tomorrow.";

describe("spend cap", () => {
  test("a call at today's cap is refused with what was spent and the cap, then sent once today's cap is raised", async () => {
    await h.withScenario("credits", async ({ page, mock }) => {
      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway" }).click();
      await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Rerank", exact: true }).click();
      const form = page.getByRole("form", { name: "Rank documents" });
      await form.getByLabel("Query").fill("streaks");
      await form.getByLabel("Documents").fill("Streaks per team\n\nSign up with email");
      await form.getByRole("button", { name: "Rank documents" }).click();
      const panel = page.locator(".panel-error");
      await panel.getByRole("heading", { name: "Today's spend cap is reached" }).waitFor();
      assert.equal(await textOf(panel.locator("p").first()), REFUSED);
      assert.equal((await mock.calls("rerank")).length, 1);
      await expectAxeCleanInBothThemes(page, "spend cap refusal");

      const raise = panel.getByRole("group", { name: "Raise today's cap" });
      assert.equal(await raise.getByLabel("Raise by (credits)").inputValue(), "1");
      await raise.getByLabel("Raise by (credits)").fill("2");
      await raise.getByRole("button", { name: "Raise today's cap" }).click();
      await panel.getByText("Today's cap is now 5.75 credits.").waitFor();
      assert.deepEqual((await mock.calls("raise_spend_cap_today")).map((c) => c.args), [{ profileId: "sandbox", credits: 2 }]);
      await panel.getByRole("button", { name: "Try again" }).click();
      await page.getByRole("list", { name: "Ranked documents" }).waitFor();
      assert.equal((await mock.calls("rerank")).length, 2);
    });
  });
});

describe("spend cap and compare", () => {
  test("a compare whose first lane is refused by the cap ends with every lane refused, each to try again, not waiting for good", async () => {
    await h.withScenario("credits", async ({ page, mock }) => {
      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway" }).click();
      await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Chat", exact: true }).click();
      await page.getByRole("checkbox", { name: "Compare models side by side" }).check();
      await page.getByLabel("Compare with").selectOption("openai/gpt-5-mini");
      await page.getByLabel("Your message").fill("Pick a name");
      await page.getByRole("button", { name: "Compare 2 models" }).click();
      const compare = page.getByRole("region", { name: "Compare" });
      await compare.locator(".panel-error").nth(1).waitFor();
      const lanes = compare.getByRole("listitem");
      for (const i of [0, 1]) {
        await lanes.nth(i).getByRole("heading", { name: "Today's spend cap is reached" }).waitFor();
        assert.equal(await textOf(lanes.nth(i).locator(".panel-error p").first()), REFUSED);
      }
      // Only the first lane was sent; the studio is free again.
      assert.equal((await mock.calls("chat_stream")).length, 1);
      await page.getByRole("button", { name: "Compare 2 models" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Stop", exact: true }).count(), 0, "nothing is streaming");
      await expectAxeCleanInBothThemes(page, "a compare refused by the spend cap");
    });
  });
});

describe("spending", () => {
  for (const colorScheme of ["light", "dark"]) {
    test(`the last 30 days by day, area and model, exactly, and their CSV (${colorScheme})`, async () => {
      await h.withScenario("credits", { colorScheme, theme: colorScheme }, async ({ page, mock }) => {
        await openSettings(page);
        const section = page.getByRole("region", { name: "Spending" });
        await section.getByText("credits in 30 days.").waitFor();
        assert.equal(await textOf(section.locator("p strong").first()), "5.514");
        assert.equal(await textOf(section.getByText("Daily spend cap of Sandbox:")), "Daily spend cap of Sandbox: 3.75 credits.");
        assert.equal(await section.locator("svg rect").count(), 30);
        await section.getByText("Spend by day as a table").click();
        // A charge under 0.005 credits is written as it is, not "0" (issue 24).
        assert.deepEqual(await rows(section.getByRole("table", { name: "Spend by day" })), [
          [day(5), "1", "0.004"],
          [day(3), "1", "0.01"],
          [day(2), "1", "0.25"],
          [day(1), "2", "1.5"],
          [day(0), "3", "3.75"],
        ]);
        assert.deepEqual(await rows(section.getByRole("table", { name: "Spend by area" })), [
          ["Specs", "1", "2.5"],
          ["Gateway", "6", "1.814"],
          ["Browser agents", "1", "1.2"],
        ]);
        // Every gateway call by its model (the other connection's line and the one outside the
        // 30 days left out).
        assert.deepEqual(await rows(section.getByRole("table", { name: "Spend by model" })), [
          ["openai/gpt-image-1", "2", "1.05"],
          ["anthropic/claude-sonnet-4", "1", "0.45"],
          ["openai/gpt-4o-mini-tts", "1", "0.3"],
          ["cohere/rerank-v3.5", "1", "0.01"],
          ["openai/text-embedding-3-small", "1", "0.004"],
        ]);
        await expectAxeClean(page, `Spending (${colorScheme})`);

        await section.getByRole("button", { name: "Export CSV" }).click();
        await section.getByText(`Saved to /home/user/Downloads/specdesk-credits-${day(0)}.csv.`).waitFor();
        const [saved] = await mock.calls("save_document");
        assert.equal(saved.args.fileName, `specdesk-credits-${day(0)}.csv`);
        assert.equal(saved.args.choose, false);
        assert.deepEqual(saved.args.contents.split("\r\n"), [
          "day,at,connection,area,endpoint,model,request id,credits charged,credits remaining,state",
          `${day(5)},${noonAgo(5)},sandbox,Gateway,v1/embeddings,openai/text-embedding-3-small,req_emb,0.004,,charged`,
          `${day(3)},${noonAgo(3)},sandbox,Gateway,v1/rerank,cohere/rerank-v3.5,req_rr,0.01,,charged`,
          `${day(2)},${noonAgo(2, 5)},sandbox,Gateway,v1/images,openai/gpt-image-1,req_img2,0.25,,charged`,
          `${day(1)},${noonAgo(1, 10)},sandbox,Gateway,v1/audio/speech,openai/gpt-4o-mini-tts,req_tts,0.3,,charged`,
          `${day(1)},${noonAgo(1, 20)},sandbox,Browser agents,browser-agents,,,1.2,,charged`,
          `${day(0)},${noonAgo(0, 1)},sandbox,Specs,fast_spec,,,2.5,,charged`,
          `${day(0)},${noonAgo(0, 2)},sandbox,Gateway,v1/messages,anthropic/claude-sonnet-4,req_chat,0.45,,charged`,
          `${day(0)},${noonAgo(0, 3)},sandbox,Gateway,v1/images,openai/gpt-image-1,req_img,0.8,,charged`,
          "",
        ]);
      });
    });
  }

  test("the daily cap of the Sandbox is changed in Settings and saved with the settings", async () => {
    await h.withScenario("credits", async ({ page, mock }) => {
      await openSettings(page);
      const section = page.getByRole("region", { name: "Spending" });
      await section.getByRole("button", { name: "Change daily cap" }).click();
      const cap = section.getByLabel("Daily spend cap in credits (optional)");
      assert.equal(await cap.inputValue(), "3.75");
      await cap.fill("-1");
      await section.getByRole("button", { name: "Save Sandbox's cap" }).click();
      await section.getByText("Enter a number of credits above 0 and up to 1,000,000, or leave it empty for no cap.").waitFor();
      await cap.fill("12");
      await section.getByRole("button", { name: "Save Sandbox's cap" }).click();
      await section.getByText("Daily spend cap of Sandbox: 12 credits.").waitFor();
      const saves = await mock.calls("save_settings");
      assert.deepEqual(saves.at(-1).args.settings.spendCaps, { sandbox: 12 });
      await page.getByRole("listitem", { name: "Sandbox", exact: true }).getByText("Daily spend cap: 12 credits").waitFor();
      await expectAxeClean(page, "Spending cap form");
    });
  });
});

describe("spending errors", () => {
  const LEDGER_UNREADABLE = "The credit ledger on this computer could not be read. Try again in a moment.";
  const DISK_FULL = "The file could not be written to /home/user/Downloads: there is no space left on the disk.";

  test("an unreadable credit ledger and a refused export are shown with their title, words and Try again", async () => {
    await h.withScenario("credits-faults", async ({ page, mock }) => {
      await openSettings(page);
      const section = page.getByRole("region", { name: "Spending" });

      // The ledger: the failure in an error panel, not empty tables' sentences.
      const ledger = section.getByRole("alert").filter({ hasText: LEDGER_UNREADABLE });
      await ledger.getByRole("heading", { name: "Something went wrong" }).waitFor();
      assert.equal(await section.getByText("No gateway calls charged in these 30 days.").count(), 0);
      await expectAxeClean(page, "Spending with the credit ledger unreadable");
      await mock.release("ledger-back");
      await ledger.getByRole("button", { name: "Try again" }).click();
      await section.getByRole("table", { name: "Spend by model" }).waitFor();
      assert.equal(await ledger.count(), 0);

      // Export CSV: the refusal with its kind's title and Try again, which exports.
      await section.getByRole("button", { name: "Export CSV" }).click();
      const refused = section.getByRole("alert").filter({ hasText: DISK_FULL });
      await refused.getByRole("heading", { name: "Local data could not be saved" }).waitFor();
      await refused.getByRole("button", { name: "Try again" }).click();
      await section.getByText(`Saved to /home/user/Downloads/specdesk-credits-${day(0)}.csv.`).waitFor();
      assert.equal(await refused.count(), 0);
      assert.equal((await mock.calls("save_document")).length, 2);
    });
  });
});
