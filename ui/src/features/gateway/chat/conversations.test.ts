import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Conversation, IpcError } from "../../../ipc/contract";
import { createDb, type MockDb } from "../../../mock/base";
import { conversationHandlers } from "../../../mock/conversations";
import type { MockContext } from "../../../mock/registry";
import { CLOSED, loadTree, loadWinners, recordWinner, renameConversation, saveTree, searchConversations, titleOf, toMarkdown } from "./conversations";
import { hasLocalChats, importLocalChats } from "./localImport";
import { addTurn, emptyTree, pathOf, textOf, type Turn } from "./tree";

const conv = (id: number, title: string, model?: string): Conversation => ({ id, profileId: "sandbox", title, model, createdAt: "", updatedAt: "" });
const turn = (id: string, parentId: string | null, role: Turn["role"], text: string, extra: Partial<Turn> = {}): Turn => ({
  id,
  parentId,
  role,
  content: text ? [{ type: "text", text }] : [],
  status: "done",
  createdAt: "",
  ...extra,
});

let db: MockDb;
let calls: string[];
/** Whether the `nth` call (from 1) of `cmd` fails with a storage error, as on a full disk. */
let fails: (cmd: string, nth: number) => boolean;

// The library is the mock's (src/mock/conversations.ts), so these also hold it to Rust's rules.
beforeEach(() => {
  localStorage.clear();
  db = createDb();
  db.conversations.push(conv(2, "Launch plan"), { ...conv(3, "Work chat"), profileId: "p_work" });
  calls = [];
  fails = () => false;
  mockIPC((cmd, args) => {
    calls.push(cmd);
    if (fails(cmd, calls.filter((c) => c === cmd).length)) throw { kind: "storage", message: "The disk is full." } satisfies IpcError;
    const handler = (conversationHandlers as Record<string, (a: unknown, ctx: MockContext) => unknown>)[cmd];
    if (!handler) throw new Error(`unexpected command ${cmd}`);
    return handler(args, { db } as MockContext);
  });
});
afterEach(() => clearMocks());

const streamingTree = () => addTurn(addTurn(emptyTree(), turn("u1", null, "user", "Hi")), turn("a1", "u1", "assistant", "Half a", { status: "streaming" }));
const record = { prompt: "Pick a name", models: ["anthropic/claude-sonnet-4.5", "openai/gpt-5-mini"], winner: "openai/gpt-5-mini", at: "2026-11-01T10:00:00.000Z" };

describe("what an earlier version kept in localStorage", () => {
  it("is written to the library once, removed here, then read from the library", async () => {
    localStorage.setItem("specdesk.chat.titles", JSON.stringify({ "1": "Habit app names", "3": "Another connection's" }));
    localStorage.setItem("specdesk.chat.tree.1", JSON.stringify(streamingTree()));
    localStorage.setItem("specdesk.chat.winners.1", JSON.stringify([record]));
    localStorage.setItem("specdesk.chat.tree.3", JSON.stringify(emptyTree()));
    localStorage.setItem("specdesk.chat.form", "{}");
    const listed = db.conversations.filter((c) => c.profileId === "sandbox");

    expect(await importLocalChats(listed)).toBe(true);
    expect(calls).toEqual(["rename_conversation", "save_conversation_tree", "record_chat_winner"]);
    // Conversation 3 is another connection's: its things wait here until it is in use.
    expect(JSON.parse(localStorage.getItem("specdesk.chat.titles") ?? "")).toEqual({ "3": "Another connection's" });
    expect(["specdesk.chat.tree.1", "specdesk.chat.winners.1"].map((k) => localStorage.getItem(k))).toEqual([null, null]);
    expect(localStorage.getItem("specdesk.chat.tree.3")).not.toBeNull();
    expect(localStorage.getItem("specdesk.chat.form")).toBe("{}");

    calls = [];
    expect(await importLocalChats(listed)).toBe(false);
    expect(calls).toEqual([]);
    expect(titleOf(db.conversations.find((c) => c.id === 1) as Conversation)).toBe("Habit app names");
    const back = (await loadTree(1))?.tree;
    expect(back && pathOf(back).map((x) => [x.id, x.status, x.error])).toEqual([
      ["u1", "done", undefined],
      ["a1", "cut", CLOSED],
    ]);
    expect((await loadWinners(1)).map((w) => [w.prompt, w.models, w.winner, w.at])).toEqual([[record.prompt, record.models, record.winner, record.at]]);
  });

  it("keeps what failed for a reason that may pass, and never records a winner twice", async () => {
    localStorage.setItem("specdesk.chat.winners.1", JSON.stringify([record, { ...record, winner: "anthropic/claude-sonnet-4.5" }]));
    localStorage.setItem("specdesk.chat.tree.2", JSON.stringify(streamingTree()));
    // The tree's first write fails, and the second winner's: the first winner is written and
    // no longer kept here.
    fails = (cmd, nth) => (cmd === "save_conversation_tree" && nth === 1) || (cmd === "record_chat_winner" && nth === 2);
    const listed = db.conversations.filter((c) => c.profileId === "sandbox");
    expect(await importLocalChats(listed)).toBe(false);
    expect(JSON.parse(localStorage.getItem("specdesk.chat.winners.1") ?? "").map((w: { winner: string }) => w.winner)).toEqual(["anthropic/claude-sonnet-4.5"]);
    expect(localStorage.getItem("specdesk.chat.tree.2")).not.toBeNull();
    await importLocalChats(listed);
    expect(db.chatWinners.map((w) => w.winner)).toEqual(["openai/gpt-5-mini", "anthropic/claude-sonnet-4.5"]);
    expect(db.conversationTrees[2]).toBeTruthy();
    expect(hasLocalChats()).toBe(false);
  });
});

describe("conversations kept in the library", () => {
  it("renames, and searches by title and model", async () => {
    await renameConversation(1, "  Habit app names ");
    const list = db.conversations.filter((c) => c.profileId === "sandbox");
    expect(list.map(titleOf)).toEqual(["Habit app names", "Launch plan"]);
    expect(searchConversations(list, "habit").map((c) => c.id)).toEqual([1]);
    expect(searchConversations(list, "claude").map((c) => c.id)).toEqual([1]);
    expect(searchConversations(list, "launch plan").map((c) => c.id)).toEqual([2]);
    await expect(renameConversation(3, "Not mine")).rejects.toMatchObject({ ipc: { kind: "notFound" } });
  });

  it("finds a reply the app closed on as cut off, and no tree where none was kept", async () => {
    await saveTree(2, streamingTree());
    const back = (await loadTree(2))?.tree;
    expect(back && pathOf(back).map((x) => x.status)).toEqual(["done", "cut"]);
    expect(await loadTree(1)).toBeNull();
  });

  it("gives a reply the app was killed on the words Rust kept of it, not only those of the branches", async () => {
    // The branches were written as the reply opened (no words yet); Rust kept its words since.
    const opened = addTurn(addTurn(emptyTree(), turn("u1", null, "user", "Hi")), turn("a1", "u1", "assistant", "", { status: "streaming" }));
    await saveTree(2, opened);
    const message = (id: number, role: string, text: string, cut: boolean) => ({ id, conversationId: 2, role, content: [{ type: "text", text }], createdAt: "", cut });
    db.messages.push(message(10, "user", "Hi", false), message(11, "assistant", "Sandbox reply from", true));
    let back = (await loadTree(2))?.tree;
    expect(back && pathOf(back).map((x) => [x.status, textOf(x.content), x.error])).toEqual([
      ["done", "Hi", undefined],
      ["cut", "Sandbox reply from", CLOSED],
    ]);
    // Killed before the first word: the newest message is the question, and the reply failed.
    db.messages.pop();
    back = (await loadTree(2))?.tree;
    expect(back && pathOf(back).map((x) => [x.status, textOf(x.content)])).toEqual([
      ["done", "Hi"],
      ["error", ""],
    ]);
  });

  it("records winners on the conversation, and a deleted one comes back with them on Undo", async () => {
    await recordWinner(1, record);
    expect((await loadWinners(1)).map((w) => w.winner)).toEqual(["openai/gpt-5-mini"]);
    await expect(recordWinner(1, { ...record, winner: "x/other" })).rejects.toMatchObject({ ipc: { kind: "invalidInput", field: "winner" } });
    const ctx = { db } as MockContext;
    const listed = () => (conversationHandlers.list_conversations({ limit: 10, offset: 0 }, ctx) as Conversation[]).map((c) => c.id);
    const before = listed();
    conversationHandlers.delete_conversation({ id: 1 }, ctx);
    expect(listed()).toEqual(before.filter((id) => id !== 1));
    expect(() => conversationHandlers.delete_conversation({ id: 1 }, ctx)).toThrow();
    conversationHandlers.restore_conversation({ id: 1 }, ctx);
    expect(listed()).toEqual(before);
    expect((await loadWinners(1)).map((w) => w.winner)).toEqual(["openai/gpt-5-mini"]);
  });

  it("exports the visible thread as Markdown", () => {
    let t = addTurn(emptyTree(), turn("u1", null, "user", "Hi"));
    t = addTurn(t, turn("a1", "u1", "assistant", "Hello", { model: "openai/gpt-5-mini", credits: 0.02, status: "cut" }));
    expect(toMarkdown("Greeting", pathOf(t))).toBe("# Greeting\n\n### You\n\nHi\n\n### openai/gpt-5-mini (cut off, 0.02 credits)\n\nHello\n");
  });

  it("gives a reply that ended while its screen was away its whole text and charge, and says the tree changed", async () => {
    const opened = addTurn(addTurn(emptyTree(), turn("u1", null, "user", "Hi")), turn("a1", "u1", "assistant", "Sandbox", { status: "streaming", createdAt: "2026-11-28T10:00:00.000Z" }));
    await saveTree(2, opened);
    db.messages.push(
      { id: 10, conversationId: 2, role: "user", content: [{ type: "text", text: "Hi" }], createdAt: "2026-11-28T10:00:00.000Z", cut: false },
      { id: 11, conversationId: 2, role: "assistant", content: [{ type: "text", text: "Sandbox reply, whole." }], model: "m/one", requestId: "req_7", creditsCharged: 0.02, createdAt: "2026-11-28T10:00:04.000Z", cut: false },
    );
    const back = await loadTree(2);
    expect(back?.changed).toBe(true);
    const reply = back && pathOf(back.tree).at(-1);
    expect(reply && [reply.status, textOf(reply.content), reply.credits, reply.requestId, reply.model, reply.error]).toEqual(["done", "Sandbox reply, whole.", 0.02, "req_7", "m/one", undefined]);
  });

  it("keeps the reply streaming now as it streams, after the words it continues", async () => {
    const opened = addTurn(addTurn(emptyTree(), turn("u1", null, "user", "Hi")), turn("a1", "u1", "assistant", "Once upon a ti", { status: "streaming" }));
    await saveTree(2, opened);
    const live = { streamId: "s1", turnId: "a1", conversationId: 2, text: " a time there was", html: "", base: "Once upon", startedAt: "" };
    const back = await loadTree(2, live);
    expect(back?.changed).toBe(false);
    const reply = back && pathOf(back.tree).at(-1);
    expect(reply && [reply.status, textOf(reply.content)]).toEqual(["streaming", "Once upon a time there was"]);
  });
});
