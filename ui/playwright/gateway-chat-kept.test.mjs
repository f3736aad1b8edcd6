// What the Chat studio keeps in the library with a conversation, on the mock IPC
// (src/mock/conversations.ts): a title, versions (the tree of turns) and compare winners that an
// earlier version kept in the web view's localStorage are brought into the library once, then
// shown from it. (Rename, versions and winners kept as they are made: gateway-chat.test.mjs.)
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const MODEL = "anthropic/claude-sonnet-4.5";

async function openChat(page) {
  await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway" }).click();
  await page.getByRole("heading", { level: 1, name: "Gateway" }).waitFor();
  await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Chat", exact: true }).click();
  await page.waitForFunction((m) => document.querySelector("#chat-input") && [...document.querySelectorAll("select")].some((s) => s.value === m), MODEL);
}

const turns = (page) => page.getByRole("list", { name: "Messages" }).locator(":scope > li");

describe("conversations kept in the library", () => {
  test("a title, versions and a winner an earlier version kept in the web view are brought into the library once", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      const turn = (id, parentId, role, text, model) => ({ id, parentId, role, content: [{ type: "text", text }], status: "done", model, createdAt: "2026-11-21T12:00:00.000Z" });
      const tree = {
        turns: {
          u1: turn("u1", null, "user", "Three names for a habit tracker?"),
          a1: turn("a1", "u1", "assistant", "Streakly, Daily Loop and Team Tally.", MODEL),
          a2: turn("a2", "u1", "assistant", "Tally, Streak Club and Loop.", "openai/gpt-5-mini"),
        },
        children: { "": ["u1"], u1: ["a1", "a2"] },
        selected: { "": 0, u1: 1 },
      };
      const winner = { prompt: "Three names", models: [MODEL, "openai/gpt-5-mini"], winner: "openai/gpt-5-mini", at: "2026-11-21T12:01:00.000Z" };
      await page.evaluate(
        ([t, w]) => {
          localStorage.setItem("specdesk.chat.titles", JSON.stringify({ 1: "Habit app names" }));
          localStorage.setItem("specdesk.chat.tree.1", JSON.stringify(t));
          localStorage.setItem("specdesk.chat.winners.1", JSON.stringify([w]));
        },
        [tree, winner],
      );
      await openChat(page);
      const list = page.getByRole("navigation", { name: "Conversations" });
      await list.getByRole("button", { name: /^Habit app names/ }).click();
      await turns(page).nth(1).getByText("Tally, Streak Club and Loop.").waitFor();
      assert.equal(await textOf(turns(page).nth(1).locator(".branch-count")), "2 / 2");
      assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).filter((k) => /^specdesk\.chat\.(titles|tree|winners)/.test(k))), []);
      const kept = await page.evaluate(() => {
        const { db } = window.__SPECDESK_MOCK__;
        return { title: db.conversations.find((c) => c.id === 1).title, winners: db.chatWinners.map((w) => [w.conversationId, w.winner, w.at]) };
      });
      assert.deepEqual(kept, { title: "Habit app names", winners: [[1, "openai/gpt-5-mini", winner.at]] });
      assert.equal((await mock.calls("conversation_tree")).length, 1);
      assert.deepEqual(await mock.calls("conversation_messages"), [], "the kept versions, not the linear thread");
    });
  });
});
