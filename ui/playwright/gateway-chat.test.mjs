// The Gateway's Chat tab on the mock IPC (src/mock/scenarios/gateway-chat.ts):
// a streamed reply rendered as markdown with Stop and Continue, the one announcement of a
// finished reply, the IME rule, branches, a cut-off reply, images attached (picked, pasted,
// dropped: HTML5 and Tauri's drag-drop event), a tool call answered, compare with a winner,
// conversations (rename, search, delete with undo, export), failures (a compare lane, a cut-off
// reply, a spec question) in error panels whose next step works, and axe in the light and the dark
// theme. Rerank and "Ask a spec" are in gateway-rerank.test.mjs; the Models tab and a trial key in
// gateway-models.test.mjs.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, expectAxeCleanInBothThemes, startHarness, textOf, openGateway } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const MODEL = "anthropic/claude-sonnet-4.5";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const reply = (model, asked) => `${model.split("/").pop()} says: here is a thought about ${asked}. Keep it short and clear.`;

async function openChat(page) {
  await openGateway(page, "Chat");
  await page.locator("select", { has: page.locator(`option[value="${MODEL}"]`) }).first().waitFor();
  await page.waitForFunction((m) => document.querySelector("#chat-input") && [...document.querySelectorAll("select")].some((s) => s.value === m), MODEL);
}

const thread = (page) => page.getByRole("list", { name: "Messages" });
const turns = (page) => thread(page).locator(":scope > li");
const input = (page) => page.getByLabel("Your message");
const announcer = (page) => page.getByTestId("chat-announcer");

async function send(page, text) {
  await input(page).fill(text);
  await input(page).press("Enter");
}

/** Records every non-empty text the live region gets from now on. */
async function recordAnnouncements(page) {
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="chat-announcer"]');
    window.__announced = [];
    new MutationObserver(() => {
      const t = el.textContent ?? "";
      if (t) window.__announced.push(t);
    }).observe(el, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => window.__announced);
}

describe("chat", () => {
  test("streams a reply as markdown, announces it once, and stops and continues a reply", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      const announced = await recordAnnouncements(page);
      await send(page, "Name a habit app");
      const last = turns(page).nth(1);
      await last.locator(".turn-credits").waitFor();
      assert.equal(await textOf(last.locator(".chat-md")), reply(MODEL, "Name a habit app"));
      assert.equal(await last.locator(".chat-md strong").innerText(), "claude-sonnet-4.5");
      assert.equal(await textOf(last.locator(".turn-credits")), "0.02 credits");
      await last.getByText(/^request req_sandbox_\d+$/).waitFor();
      // The stream's headers gave the balance after the reply (10,000 before it).
      assert.equal(await textOf(last.locator(".turn-balance")), "balance after: 9,999.98 credits");
      // Read out as it shows: the words, not the markdown's marks.
      assert.equal(await announcer(page).innerText(), `claude-sonnet-4.5 says: here is a thought about Name a habit app. Keep it short and clear.`);
      assert.deepEqual(await announced(), [`claude-sonnet-4.5 says: here is a thought about Name a habit app. Keep it short and clear.`]);

      // Held halfway: the partial reply shows, nothing is announced, Stop keeps it.
      await send(page, "Tell me more [hold]");
      const held = turns(page).nth(3);
      await held.getByText("Writing…").waitFor();
      await held.locator(".chat-md").getByText("thought", { exact: false }).waitFor();
      assert.equal(await announcer(page).innerText(), "");
      await page.getByRole("button", { name: "Stop" }).click();
      await held.getByText("Stopped", { exact: true }).waitFor();
      const streamId = (await mock.calls("chat_stream")).at(-1).args.streamId;
      assert.deepEqual((await mock.calls("cancel_stream")).map((c) => c.args.streamId), [streamId]);
      await mock.release("chat-hold");
      const partial = await textOf(held.locator(".chat-md"));
      assert.equal(partial, "claude-sonnet-4.5 says: here is a thought about *Tell");

      // Continue: the partial reply goes as the assistant's prefill (Rust drops its trailing
      // space) and the rest is appended.
      await held.getByRole("button", { name: "Continue" }).click();
      await held.locator(".turn-credits").waitFor();
      const cont = (await mock.calls("chat_stream")).at(-1).args.request;
      assert.deepEqual(cont.messages.at(-1), { role: "assistant", content: [{ type: "text", text: "**claude-sonnet-4.5** says: here is a thought about *Tell " }] });
      assert.equal(await textOf(held.locator(".chat-md")), "claude-sonnet-4.5 says: here is a thought about *Tell And here is the rest of the reply.");
      assert.deepEqual((await announced()).slice(1), ["Stopped.", "claude-sonnet-4.5 says: here is a thought about *Tell And here is the rest of the reply."]);
      await expectAxeClean(page, "a chat with a stopped and continued reply");
    });
  });

  test("Enter never sends while an input method composes; Shift+Enter is a new line", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      await input(page).fill("にほんご");
      await input(page).dispatchEvent("keydown", { key: "Enter", isComposing: true, bubbles: true });
      await input(page).dispatchEvent("keydown", { key: "Enter", keyCode: 229, bubbles: true });
      await input(page).press("Shift+Enter");
      assert.equal(await input(page).inputValue(), "にほんご\n");
      assert.deepEqual(await mock.calls("chat_stream"), []);
      await input(page).press("Enter");
      await turns(page).nth(1).locator(".turn-credits").waitFor();
      assert.equal((await mock.calls("chat_stream")).length, 1);
      assert.equal(await textOf(turns(page).nth(0).locator(".user-text")), "にほんご");
    });
  });

  test("keeps regenerated replies and edited questions as versions", async () => {
    await h.withScenario("gateway-chat", async ({ page }) => {
      await openChat(page);
      await send(page, "First question");
      await turns(page).nth(1).locator(".turn-credits").waitFor();
      await turns(page).nth(1).getByRole("button", { name: "Regenerate" }).click();
      const versions = turns(page).nth(1).getByRole("group", { name: "Versions of this reply" });
      await versions.getByText("2 / 2").waitFor();
      await turns(page).nth(1).locator(".turn-credits").waitFor();

      await turns(page).nth(0).getByRole("button", { name: "Edit" }).click();
      await page.getByLabel("Edit your message").fill("Second question");
      await page.getByRole("button", { name: "Send as a new version" }).click();
      await turns(page).nth(0).getByRole("group", { name: "Versions of this message" }).getByText("2 / 2").waitFor();
      await turns(page).nth(1).locator(".turn-credits").waitFor();
      assert.equal(await textOf(turns(page).nth(1).locator(".chat-md")), reply(MODEL, "Second question"));
      assert.equal(await turns(page).count(), 2);

      await turns(page).nth(0).getByRole("button", { name: "Previous version" }).click();
      await turns(page).nth(0).getByText("1 / 2").waitFor();
      assert.equal(await textOf(turns(page).nth(0).locator(".user-text")), "First question");
      assert.equal(await textOf(turns(page).nth(1).locator(".branch-count")), "2 / 2");
      // The versions are kept in the library with the conversation.
      await page.waitForFunction(() => {
        const { db } = window.__SPECDESK_MOCK__;
        const tree = db.conversationTrees[db.conversations[0].id];
        return tree?.children[""]?.length === 2 && tree.selected[""] === 0;
      });
      await expectAxeClean(page, "a chat with versions");
    });
  });

  test("a reply cut by a broken stream is kept, marked and continued", async () => {
    await h.withScenario("gateway-chat", async ({ page }) => {
      await openChat(page);
      await send(page, "Explain [cut]");
      const cut = turns(page).nth(1);
      await cut.getByText("Cut off", { exact: true }).waitFor();
      assert.equal(await textOf(cut.locator(".chat-md")), "claude-sonnet-4.5 says: here is a thought about");
      assert.equal(await announcer(page).innerText(), "The reply was cut off.");
      await cut.getByRole("button", { name: "Continue" }).click();
      await cut.locator(".turn-credits").waitFor();
      assert.equal(await textOf(cut.locator(".chat-md")), "claude-sonnet-4.5 says: here is a thought about And here is the rest of the reply.");
      assert.equal(await cut.getByText("Cut off", { exact: true }).count(), 0);
    });
  });

  test("a rate limit shows its wait, then Try again sends the turn again", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      await send(page, "Quick [rate]");
      const failed = turns(page).nth(1);
      await failed.getByRole("heading", { name: "Too many requests" }).waitFor();
      assert.equal(await textOf(failed.locator(".panel-error > p").first()), "Too many requests this minute for this key. Wait a few seconds, then try again.");
      await failed.getByText(/You can try again in [1-3] s\./).waitFor();
      assert.equal(await failed.getByRole("button", { name: "Try again" }).isDisabled(), true);
      await expectAxeCleanInBothThemes(page, "a rate-limited chat turn");
      await failed.getByRole("button", { name: "Try again" }).and(page.locator(":enabled")).waitFor({ timeout: 6000 });
      await failed.getByRole("button", { name: "Try again" }).click();
      await failed.getByRole("heading", { name: "Too many requests" }).waitFor();
      assert.equal((await mock.calls("chat_stream")).length, 2);
    });
  });

  test("a tool call shows as a card and is answered with a tool result", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      await page.getByText("Tools", { exact: true }).click();
      await page.getByRole("button", { name: "Insert an example" }).click();
      await page.getByText("1 tool ready: get_weather.").waitFor();
      await send(page, "Use get_weather for Lisbon");
      const card = page.getByRole("region", { name: "Tool call get_weather" });
      await card.waitFor();
      assert.equal(JSON.parse(await card.locator(".tool-input").innerText()).city, "Lisbon");
      await card.getByLabel("Result for get_weather").fill('{"temp": 21}');
      await card.getByRole("button", { name: "Send result" }).click();
      await card.getByText("Answered.").waitFor();
      await turns(page).nth(3).locator(".turn-credits").waitFor();
      assert.equal(await textOf(turns(page).nth(3).locator(".chat-md")), 'The tool answered: {"temp": 21}.');
      const sent = (await mock.calls("chat_stream")).at(-1).args.request;
      assert.deepEqual(sent.messages.at(-1).content, [{ type: "tool_result", tool_use_id: sent.messages.at(-2).content[1].id, content: '{"temp": 21}' }]);
      assert.equal(sent.tools[0].name, "get_weather");
      await expectAxeCleanInBothThemes(page, "a tool call answered");

      await page.getByLabel("Tool definitions (JSON)").fill('[{"name": "bad name"}]');
      await page.getByText('Tool 1: "name" must be 1 to 64 letters, digits, _ or -.').waitFor();
      await page.getByText("Fix the tool definitions before sending.").waitFor();
    });
  });

  test("attaches images by the picker, by paste and by drop, shown as thumbnails and sent as image blocks", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      await page.locator('.chat-composer input[type="file"]').setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: Buffer.from(PNG, "base64") });
      const thumbs = page.getByRole("list", { name: "Attached images" });
      await thumbs.getByRole("img", { name: "dot.png" }).waitFor();
      await page.evaluate((b64) => {
        const file = (name) => new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type: "image/png" });
        const paste = new DataTransfer();
        paste.items.add(file("pasted.png"));
        document.querySelector("#chat-input").dispatchEvent(new ClipboardEvent("paste", { clipboardData: paste, bubbles: true, cancelable: true }));
        const drop = new DataTransfer();
        drop.items.add(file("dropped.png"));
        drop.items.add(new File(["hello"], "notes.txt", { type: "text/plain" }));
        document.querySelector(".chat-composer").dispatchEvent(new DragEvent("drop", { dataTransfer: drop, bubbles: true, cancelable: true }));
      }, PNG);
      await thumbs.getByRole("img", { name: "dropped.png" }).waitFor();
      assert.deepEqual(await thumbs.getByRole("img").evaluateAll((els) => els.map((e) => e.getAttribute("alt"))), ["dot.png", "pasted.png", "dropped.png"]);
      await page.getByText("notes.txt is not a PNG, JPEG, GIF or WebP image.").waitFor();
      await thumbs.getByRole("button", { name: "Remove pasted.png" }).click();
      await send(page, "What is in these?");
      await turns(page).nth(1).locator(".turn-credits").waitFor();
      const content = (await mock.calls("chat_stream"))[0].args.request.messages[0].content;
      assert.deepEqual(content, [
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "text", text: "What is in these?" },
      ]);
      assert.equal(await turns(page).nth(0).getByRole("img", { name: "Attached image" }).count(), 2);
      await expectAxeClean(page, "a message with images");
    });
  });

  test("reads images dropped on the window (Tauri's drag-drop event) through read_image_file, highlighting while dragging", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      const composer = page.locator("form.chat-composer");
      const at = { x: 300, y: 300 };
      const dropped = ["/home/user/Pictures/kettle.png", "/home/user/Documents/notes.txt"];
      // What the app's web view gets for a drop from the file manager (webview.js onDragDropEvent).
      await mock.emit("tauri://drag-enter", { paths: dropped, position: at });
      await page.locator('form.chat-composer[data-dragging="true"]').waitFor();
      await mock.emit("tauri://drag-leave", null);
      await page.locator('form.chat-composer[data-dragging="false"]').waitFor();
      await mock.emit("tauri://drag-over", { position: at });
      await page.locator('form.chat-composer[data-dragging="true"]').waitFor();
      await mock.emit("tauri://drag-drop", { paths: dropped, position: at });
      const thumbs = page.getByRole("list", { name: "Attached images" });
      await thumbs.getByRole("img", { name: "kettle.png" }).waitFor();
      assert.equal(await composer.getAttribute("data-dragging"), "false");
      assert.deepEqual(
        (await mock.calls("read_image_file")).map((c) => c.args),
        dropped.map((path) => ({ path })),
      );
      assert.equal(await thumbs.getByRole("img").count(), 1);
      assert.equal(await textOf(page.locator("#chat-input-problems")), "notes.txt is not a PNG, JPEG, GIF or WebP image.");
      await send(page, "What is this?");
      await turns(page).nth(1).locator(".turn-credits").waitFor();
      assert.deepEqual((await mock.calls("chat_stream"))[0].args.request.messages[0].content, [
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "text", text: "What is this?" },
      ]);
      await expectAxeClean(page, "a message with a dropped image");
    });
  });

  test("leaves the window's drops alone once another studio is shown", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.listening().includes("tauri://drag-drop"));
      await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Rerank", exact: true }).click();
      await page.waitForFunction(() => !window.__SPECDESK_MOCK__.listening().includes("tauri://drag-drop"));
      await page.evaluate(() => window.__TAURI_INTERNALS__.invoke("plugin:event|emit", { event: "tauri://drag-drop", payload: { paths: ["/home/user/Pictures/kettle.png"], position: { x: 1, y: 1 } } }));
      await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Chat", exact: true }).click();
      await input(page).waitFor();
      assert.equal(await page.getByRole("list", { name: "Attached images" }).count(), 0);
      assert.deepEqual(await mock.calls("read_image_file"), []);
    });
  });

  test("compares models side by side and records the winner on the conversation", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      await page.getByRole("checkbox", { name: "Compare models side by side" }).check();
      await page.getByLabel("Compare with").selectOption("openai/gpt-5-mini");
      await send(page, "Pick a name");
      const compare = page.getByRole("region", { name: "Compare" });
      const lanes = compare.getByRole("listitem");
      await compare.getByRole("button", { name: "Pick openai/gpt-5-mini as the winner" }).and(page.locator(":enabled")).waitFor();
      const calls = await mock.calls("chat_stream");
      assert.deepEqual(calls.map((c) => c.args.request.model), [MODEL, "openai/gpt-5-mini"]);
      assert.equal(calls[0].args.conversationId, undefined);
      const conv = await page.evaluate(() => window.__SPECDESK_MOCK__.db.conversations[0].id);
      assert.equal(calls[1].args.conversationId, conv);
      assert.equal(await lanes.count(), 2);
      for (const [i, model] of [MODEL, "openai/gpt-5-mini"].entries()) {
        const lane = lanes.nth(i);
        assert.equal(await textOf(lane.locator(".chat-md")), reply(model, "Pick a name"));
        const stats = await lane.locator(".lane-stats > div").allInnerTexts();
        assert.match(stats[0].replace(/\s+/g, " "), /^First word \d+\.\d s$/);
        assert.deepEqual(stats.slice(1, 3).map((s) => s.replace(/\s+/g, " ")), ["Length 15 words", "Credits 0.02 credits"]);
        assert.match(stats[4].replace(/\s+/g, " "), /^Request id req_sandbox_\d+$/);
      }
      // Each lane's balance after its reply, whichever ended first (both cost 0.02).
      const balances = await lanes.evaluateAll((els) => els.map((el) => el.querySelectorAll(".lane-stats > div")[3]?.textContent));
      assert.deepEqual(balances.sort(), ["Balance after9,999.96 credits", "Balance after9,999.98 credits"]);
      const ids = await lanes.evaluateAll((els) => els.map((el) => el.querySelectorAll(".lane-stats > div")[4]?.textContent));
      assert.notEqual(ids[0], ids[1], "each lane has its own request id");
      await expectAxeClean(page, "a compare of two models");
      await compare.getByRole("button", { name: "Pick openai/gpt-5-mini as the winner" }).click();
      await compare.waitFor({ state: "detached" });
      assert.equal(await textOf(turns(page).nth(1).locator(".turn-who")), "openai/gpt-5-mini");
      assert.equal(await textOf(turns(page).nth(1).locator(".branch-count")), "2 / 2");
      assert.equal(await announcer(page).innerText(), "openai/gpt-5-mini picked as the winner.");
      // The winner is kept in the library with the conversation (the mock's), not in the web view.
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.db.chatWinners.length === 1);
      const winners = await page.evaluate(() => window.__SPECDESK_MOCK__.db.chatWinners);
      assert.deepEqual(
        winners.map((w) => [w.conversationId, w.prompt, w.models, w.winner]),
        [[conv, "Pick a name", [MODEL, "openai/gpt-5-mini"], "openai/gpt-5-mini"]],
      );
      assert.equal(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("specdesk.chat.winners")).length), 0);
    });
  });

  test("compares three models at once, each lane streaming its own reply with its own facts", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      await page.getByRole("checkbox", { name: "Compare models side by side" }).check();
      await page.getByLabel("Compare with").selectOption("openai/gpt-5-mini");
      // The third picker does not offer the two models already in the compare.
      const third = page.getByLabel("And with (optional)");
      assert.deepEqual(
        (await third.locator("option").evaluateAll((os) => os.map((o) => o.value))).filter((v) => v),
        ["mistral/mistral-medium-3"],
      );
      await third.selectOption("mistral/mistral-medium-3");
      await send(page, "Pick a name");
      const compare = page.getByRole("region", { name: "Compare" });
      const lanes = compare.getByRole("listitem");
      const models = [MODEL, "openai/gpt-5-mini", "mistral/mistral-medium-3"];
      for (const m of models) await compare.getByRole("button", { name: `Pick ${m} as the winner` }).and(page.locator(":enabled")).waitFor();
      assert.deepEqual((await mock.calls("chat_stream")).map((c) => c.args.request.model), models);
      assert.equal(await lanes.count(), 3);
      for (const [i, model] of models.entries()) {
        const lane = lanes.nth(i);
        assert.equal(await textOf(lane.locator(".chat-md")), reply(model, "Pick a name"));
        const stats = await lane.locator(".lane-stats > div").allInnerTexts();
        assert.deepEqual(stats.slice(1, 3).map((s) => s.replace(/\s+/g, " ")), ["Length 15 words", "Credits 0.02 credits"]);
      }
      const ids = await lanes.evaluateAll((els) => els.map((el) => el.querySelectorAll(".lane-stats > div")[4]?.textContent));
      assert.equal(new Set(ids).size, 3, "each lane has its own request id");
      await expectAxeClean(page, "a compare of three models");
      await compare.getByRole("button", { name: "Pick mistral/mistral-medium-3 as the winner" }).click();
      await compare.waitFor({ state: "detached" });
      assert.equal(await textOf(turns(page).nth(1).locator(".turn-who")), "mistral/mistral-medium-3");
      assert.equal(await textOf(turns(page).nth(1).locator(".branch-count")), "3 / 3");
      await page.waitForFunction(() => window.__SPECDESK_MOCK__.db.chatWinners.length === 1);
      const [winner] = await page.evaluate(() => window.__SPECDESK_MOCK__.db.chatWinners);
      assert.deepEqual([winner.models, winner.winner], [models, "mistral/mistral-medium-3"]);
    });
  });

  test("conversations are opened, renamed, searched, deleted with undo and exported", async () => {
    await h.withScenario("gateway-chat", async ({ page, mock }) => {
      await openChat(page);
      const list = page.getByRole("navigation", { name: "Conversations" });
      await list.getByRole("button", { name: /^Naming ideas/ }).click();
      await turns(page).nth(1).getByText("Streakly, Daily Loop and Team Tally.").waitFor();
      await list.getByRole("button", { name: "Rename Naming ideas" }).click();
      await list.getByLabel("New title").fill("Habit app names");
      await list.getByRole("button", { name: "Save" }).click();
      await page.getByRole("heading", { level: 2, name: "Habit app names" }).waitFor();
      assert.equal(await page.evaluate(() => window.__SPECDESK_MOCK__.db.conversations.find((c) => c.id === 1).title), "Habit app names");
      await list.getByLabel("Search conversations").fill("zanzibar quokka");
      await list.getByText("No conversation matches.").waitFor();
      await list.getByLabel("Search conversations").fill("habit");
      await list.getByRole("button", { name: /^Habit app names/ }).waitFor();
      // Words only said in the conversation find it too, from the library after a pause.
      await list.getByLabel("Search conversations").fill("team TALLY");
      await list.getByRole("button", { name: /^Habit app names/ }).waitFor();
      assert.deepEqual((await mock.calls("search_conversations")).map((c) => c.args).at(-1), { query: "team TALLY", limit: 200 });
      await list.getByLabel("Search conversations").fill("habit");

      await page.evaluate(() => {
        window.__SPECDESK_MOCK__.db.dialog.save = "/home/user/Documents/habit-app-names.md";
      });
      await page.getByRole("button", { name: "Export Markdown" }).click();
      await page.getByText("Saved to /home/user/Documents/habit-app-names.md").waitFor();
      const [md] = await mock.calls("save_document");
      assert.equal(md.args.fileName, "habit-app-names.md");
      assert.equal(md.args.contents, "# Habit app names\n\n### You\n\nThree names for a habit tracker?\n\n### anthropic/claude-sonnet-4.5 (0.02 credits)\n\nStreakly, Daily Loop and Team Tally.\n");
      await page.getByRole("button", { name: "Export JSON" }).click();
      const json = JSON.parse((await mock.calls("save_document"))[1].args.contents);
      assert.deepEqual([json.title, json.conversationId, json.messages.length], ["Habit app names", 1, 2]);

      // Deleted in the library at once (a quit now keeps it deleted); Undo brings it back.
      await list.getByRole("button", { name: "Delete Habit app names" }).click();
      await list.getByText("No conversation matches.").waitFor();
      assert.deepEqual((await mock.calls("delete_conversation")).map((c) => c.args), [{ id: 1 }]);
      await page.getByRole("button", { name: "Undo" }).click();
      await list.getByRole("button", { name: /^Habit app names/ }).waitFor();
      assert.deepEqual((await mock.calls("restore_conversation")).map((c) => c.args), [{ id: 1 }]);
      await expectAxeClean(page, "the conversation list");
    });
  });
});

describe("failures in error panels", () => {
  const SERVER = "The service had a problem answering. Try again in a moment.";

  test("a compare lane that fails shows its title and words under its model; Try again streams that lane again", async () => {
    await h.withScenario("gateway-chat-faults", async ({ page, mock }) => {
      await openChat(page);
      await page.getByRole("checkbox", { name: "Compare models side by side" }).check();
      await page.getByLabel("Compare with").selectOption("openai/gpt-5-mini");
      await send(page, "Pick a name");
      const compare = page.getByRole("region", { name: "Compare" });
      const lane = compare.getByRole("listitem", { name: "Reply from openai/gpt-5-mini" });
      const failed = lane.getByRole("alert");
      await failed.getByRole("heading", { level: 4, name: "The service had a problem" }).waitFor();
      await failed.getByText(SERVER).waitFor();
      await compare.getByRole("button", { name: `Pick ${MODEL} as the winner` }).and(page.locator(":enabled")).waitFor();
      assert.equal(await lane.getByRole("button", { name: "Pick openai/gpt-5-mini as the winner" }).isDisabled(), true);
      await expectAxeCleanInBothThemes(page, "a compare with a failed lane");

      await failed.getByRole("button", { name: "Try again" }).click();
      await lane.getByRole("button", { name: "Pick openai/gpt-5-mini as the winner" }).and(page.locator(":enabled")).waitFor();
      assert.equal(await textOf(lane.locator(".chat-md")), reply("openai/gpt-5-mini", "Pick a name"));
      assert.equal(await lane.getByRole("alert").count(), 0);
      const calls = await mock.calls("chat_stream");
      assert.deepEqual(calls.map((c) => c.args.request.model), [MODEL, "openai/gpt-5-mini", "openai/gpt-5-mini"]);
      assert.equal(calls[2].args.conversationId, calls[1].args.conversationId);
      assert.notEqual(calls[2].args.streamId, calls[1].args.streamId);
    });
  });

  test("a cut-off reply shows its title and words; Try again streams the reply again", async () => {
    await h.withScenario("gateway-chat-faults", async ({ page, mock }) => {
      await openChat(page);
      await send(page, "Explain [cut]");
      const cut = turns(page).nth(1);
      const panel = cut.getByRole("alert");
      await panel.getByRole("heading", { level: 3, name: "The connection broke off" }).waitFor();
      await panel.getByText("The connection broke off before the reply was finished. The part received is kept.").waitFor();
      await cut.getByRole("button", { name: "Continue" }).waitFor();
      await panel.getByRole("button", { name: "Try again" }).click();
      await cut.locator(".turn-credits").waitFor();
      assert.equal(await textOf(cut.locator(".chat-md")), reply(MODEL, "Explain"));
      assert.equal(await cut.getByRole("alert").count(), 0);
      assert.equal(await cut.getByText("Cut off", { exact: true }).count(), 0);
      assert.equal((await mock.calls("chat_stream")).length, 2);
    });
  });

  test("Ask a spec: a failed answer shows in the panel with Try again, and is announced in the same words", async () => {
    await h.withScenario("gateway-chat-faults", async ({ page, mock }) => {
      await openGateway(page, "Rerank");
      await page.getByRole("tablist", { name: "Rerank" }).getByRole("tab", { name: "Ask a spec" }).click();
      const form = page.getByRole("form", { name: "Ask a spec" });
      await form.getByLabel("Question").fill("How do teams see streaks?");
      await page.waitForFunction((m) => document.querySelector('form[aria-label="Ask a spec"] .model-picker select')?.value === m, MODEL);
      await form.getByRole("button", { name: "Ask" }).click();
      const panel = page.locator(".ask-spec > .panel-error");
      await panel.getByRole("heading", { level: 2, name: "The service had a problem" }).waitFor();
      await panel.getByText(SERVER).waitFor();
      assert.equal(await page.getByTestId("ask-announcer").innerText(), `The service had a problem. ${SERVER}`);
      await expectAxeCleanInBothThemes(page, "a failed spec question");
      await panel.getByRole("button", { name: "Try again" }).click();
      const answer = page.getByRole("region", { name: "Answer" });
      await answer.getByRole("list", { name: "Sections cited" }).waitFor();
      assert.equal(await textOf(answer.locator(".chat-md")), "Teams see their streaks on the habit page [1]; each check-in adds a day [2].");
      assert.equal(await page.locator(".panel-error").count(), 0);
      assert.equal((await mock.calls("chat_stream")).length, 2);
    });
  });
});

for (const theme of ["light", "dark"]) {
  test(`the chat, rerank and models tabs are axe-clean in the ${theme} theme`, async () => {
    await h.withScenario("gateway-chat", { theme }, async ({ page }) => {
      await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
      await openChat(page);
      await page.getByRole("checkbox", { name: "Compare models side by side" }).check();
      await page.getByLabel("Compare with").selectOption("openai/gpt-5-mini");
      await send(page, "Pick a name");
      await page.getByRole("button", { name: "Pick openai/gpt-5-mini as the winner" }).and(page.locator(":enabled")).waitFor();
      await expectAxeClean(page, `chat with a compare (${theme})`);
      await page.getByRole("button", { name: "Pick openai/gpt-5-mini as the winner" }).click();
      await page.getByRole("checkbox", { name: "Compare models side by side" }).uncheck();
      await send(page, "Halfway [cut]");
      await page.getByText("Cut off", { exact: true }).waitFor();
      await expectAxeClean(page, `chat with versions and a cut-off reply (${theme})`);
      await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Rerank" }).click();
      await page.getByRole("form", { name: "Rank documents" }).getByLabel("Query").fill("streaks");
      await page.getByRole("form", { name: "Rank documents" }).getByLabel("Documents").fill("Streaks\n\nEmail");
      await page.getByRole("form", { name: "Rank documents" }).getByRole("button", { name: "Rank documents" }).click();
      await page.getByRole("list", { name: "Ranked documents" }).waitFor();
      await expectAxeClean(page, `rerank (${theme})`);
      await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Models" }).click();
      await page.getByRole("table", { name: "Models", exact: true }).waitFor();
      await expectAxeClean(page, `models (${theme})`);
    });
  });
}
