// The Gateway's Rerank tab on the mock IPC (src/mock/scenarios/gateway-chat.ts): documents
// pasted or imported from a file, ranked with scores and original positions (the top N kept here),
// the order copied, a rate limit with its countdown, and "Ask a spec" with its citations; axe in
// the light and the dark theme.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, expectAxeCleanInBothThemes, textOf, startHarness, openGateway } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const MODEL = "anthropic/claude-sonnet-4.5";

describe("rerank", () => {
  test("ranks pasted documents with scores and original positions, and copies the order", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openGateway(page, "Rerank");
      const form = page.getByRole("form", { name: "Rank documents" });
      await form.getByRole("button", { name: "Rank documents" }).click();
      await form.getByText("Write the query to rank the documents against.").waitFor();
      await form.getByLabel("Query").fill("streaks email");
      await form.getByLabel("Documents").fill("Daily check-in for habits\n\nStreaks per team and weekly email\n\n\nSign up with email");
      await form.getByText("3 documents found.", { exact: false }).waitFor();
      await form.getByLabel("Rerank model").selectOption("voyage/rerank-2.5");
      await form.getByLabel("Top N (optional)").fill("2");
      await form.getByRole("button", { name: "Rank documents" }).click();
      const ranked = page.getByRole("list", { name: "Ranked documents" });
      await ranked.waitFor();
      const rows = (await ranked.getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
      assert.deepEqual(rows, ["1 Document 2 score 1.000 Streaks per team and weekly email", "2 Document 3 score 0.500 Sign up with email"]);
      assert.deepEqual((await mock.calls("rerank"))[0].args.request, {
        model: "voyage/rerank-2.5",
        query: "streaks email",
        documents: ["Daily check-in for habits", "Streaks per team and weekly email", "Sign up with email"],
      });
      await page.getByRole("heading", { name: "Ranked by voyage/rerank-2.5" }).waitFor();
      // What the call cost, returned with its result (the mock's rerank sends no request id).
      assert.equal(await textOf(page.getByLabel("What this call cost")), "0.01 credits charged · balance after: 9,999.99 credits");
      await page.getByRole("button", { name: "Copy the order" }).click();
      await page.getByText("Order copied.").waitFor();
      assert.equal(await page.evaluate(() => window.__SPECDESK_MOCK__.db.clipboard.text), "1. [#2] Streaks per team and weekly email\n2. [#3] Sign up with email");
      await expectAxeClean(page, "rerank results");
    });
  });

  test("imports documents from a CSV file the user picks, one per row", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await page.evaluate(() => {
        const db = window.__SPECDESK_MOCK__.db;
        db.dialog.open = "/home/user/features.csv";
        db.textFiles["/home/user/features.csv"] = 'feature,notes\nStreaks,"Days in a row, weekly"\nReminders,Daily at 9\n';
      });
      await openGateway(page, "Rerank");
      const form = page.getByRole("form", { name: "Rank documents" });
      await form.getByLabel("Documents").fill("Sign up with email");
      await form.getByRole("button", { name: "Import a file…" }).click();
      await page.getByText("Added 2 documents from features.csv.").waitFor();
      assert.equal(await form.getByLabel("Documents").inputValue(), "Sign up with email\n\nStreaks · Days in a row, weekly\n\nReminders · Daily at 9");
      await form.getByText("3 documents found.", { exact: false }).waitFor();
      assert.deepEqual((await mock.calls("choose_file")).map((c) => c.args), [{ purpose: "documents" }]);
      assert.deepEqual((await mock.calls("read_text_file")).map((c) => c.args), [{ path: "/home/user/features.csv" }]);
    });
  });

  test("a rate-limited rerank shows the wait with a countdown", async () => {
    await h.withScenario("gateway-limited", async ({ page }) => {
      await openGateway(page, "Rerank");
      const form = page.getByRole("form", { name: "Rank documents" });
      await form.getByLabel("Query").fill("q");
      await form.getByLabel("Documents").fill("a");
      await form.getByRole("button", { name: "Rank documents" }).click();
      const panel = page.locator(".panel-error");
      await panel.getByRole("heading", { name: "Too many requests" }).waitFor();
      await panel.getByText(/You can try again in [1-3] s\./).waitFor();
      assert.equal(await panel.getByRole("button", { name: "Try again" }).isDisabled(), true);
      await expectAxeCleanInBothThemes(page, "a rate-limited rerank");
    });
  });

  test("asks a spec: its sections reranked, the best sent to a chat model, the answer's citations listed", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openGateway(page, "Rerank");
      await page.getByRole("tablist", { name: "Rerank" }).getByRole("tab", { name: "Ask a spec" }).click();
      const form = page.getByRole("form", { name: "Ask a spec" });
      await form.getByLabel("Question").fill("How do teams see streaks?");
      await form.getByLabel("Sections to send").selectOption("3");
      await page.waitForFunction((m) => document.querySelector('form[aria-label="Ask a spec"] .model-picker select')?.value === m, MODEL);
      await form.getByRole("button", { name: "Ask" }).click();
      const answer = page.getByRole("region", { name: "Answer" });
      await answer.getByRole("list", { name: "Sections cited" }).waitFor();
      assert.equal(await textOf(answer.locator(".chat-md")), "Teams see their streaks on the habit page [1]; each check-in adds a day [2].");
      // What each of the two calls cost: the ranking, then the answer with its request id.
      assert.equal(await textOf(answer.getByLabel("What ranking the sections cost")), "0.01 credits charged · balance after: 9,999.99 credits");
      assert.match(await textOf(answer.getByLabel("What the answer cost")), /^Request id req_sandbox_\d+ · 0\.02 credits charged · balance after: [\d,.]+ credits$/);
      const sent = (await page.getByRole("list", { name: "Sections sent" }).getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
      const cited = await answer.getByRole("list", { name: "Sections cited" }).getByRole("listitem").allInnerTexts();
      assert.equal(sent.length, 3);
      assert.deepEqual(cited, sent.slice(0, 2).map((s) => s.replace(/ \(score.*$/, "")));
      const rerank = (await mock.calls("rerank"))[0].args.request;
      assert.equal(rerank.query, "How do teams see streaks?");
      // Every section is ranked (the contract does not name the service's "top N"); three are sent.
      assert.equal(rerank.top_n, undefined);
      const chat = (await mock.calls("chat_stream"))[0].args.request;
      assert.match(chat.system, /Cite every section you use/);
      assert.match(chat.messages[0].content, /\n\nQuestion: How do teams see streaks\?$/);
      await expectAxeClean(page, "an answered spec question");
    });
  });
});
