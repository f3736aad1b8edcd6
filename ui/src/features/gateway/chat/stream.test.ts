import { afterEach, describe, expect, it } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Channel } from "@tauri-apps/api/core";
import type { ChatReply } from "../../../bindings/ChatReply";
import type { ChatEvent, MessagesResponse } from "../../../ipc/contract";
import { renderedOf } from "./renderedCache";
import { startChatStream, type ReplyMeta } from "./stream";

const MESSAGE: MessagesResponse = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "a/model",
  content: [{ type: "text", text: "Hi" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { output_tokens: 1, cost: 0.001 },
};

const REPLY: ChatReply = { message: MESSAGE, conversationId: 7, requestId: "req_9", balanceAfter: 41.5 };

afterEach(() => clearMocks());

/** A stream whose command answers when `answer` is called. */
function run() {
  let channel: Channel<ChatEvent> | undefined;
  let answer: (r: ChatReply) => void = () => undefined;
  mockIPC((cmd, args) => {
    if (cmd !== "chat_stream") return null;
    channel = (args as { onEvent: Channel<ChatEvent> }).onEvent;
    return new Promise<ChatReply>((resolve) => (answer = resolve));
  });
  const done: [MessagesResponse, number | undefined, ReplyMeta][] = [];
  startChatStream({ model: "a/model", messages: [{ role: "user", content: "Hi" }], max_tokens: 16 }, undefined, {
    onText: () => undefined,
    onDone: (m, c, meta) => done.push([m, c, meta]),
    onError: () => undefined,
  });
  return { done, send: (ev: ChatEvent) => channel?.onmessage(ev), answer: (r: ChatReply) => answer(r) };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe("a chat stream's end", () => {
  it("settles at once on the command's answer, with the request id and balance it carries", async () => {
    const { done, send, answer } = run();
    await settled();
    answer(REPLY);
    await settled();
    expect(done).toEqual([[MESSAGE, 7, { requestId: "req_9", balanceAfter: 41.5 }]]);
    // The channel's `done`, arriving after, changes nothing.
    send({ type: "done", ...REPLY });
    expect(done).toHaveLength(1);
  });

  it("settles on the channel's done when it comes first, and once only", async () => {
    const { done, send, answer } = run();
    await settled();
    send({ type: "done", message: MESSAGE, conversationId: 7 });
    expect(done).toEqual([[MESSAGE, 7, {}]]);
    answer(REPLY);
    await settled();
    expect(done).toHaveLength(1);
  });
});

describe("a chat stream's HTML", () => {
  it("is the HTML kept up to each delta's htmlFrom (UTF-16 units) then its html, for the text so far", async () => {
    const { send } = run();
    await settled();
    send({ type: "text", index: 0, text: "**Café** ☕", html: "<p><strong>Café</strong> ☕</p>\n" });
    expect(renderedOf("**Café** ☕")).toBe("<p><strong>Café</strong> ☕</p>\n");
    // "☕" is one UTF-16 unit, "𝄞" two: the kept part is counted as JavaScript counts.
    send({ type: "text", index: 0, text: " 𝄞 and", html: " 𝄞 and</p>\n", htmlFrom: 26 });
    expect(renderedOf("**Café** ☕ 𝄞 and")).toBe("<p><strong>Café</strong> ☕ 𝄞 and</p>\n");
    send({ type: "text", index: 0, text: " more", html: " more</p>\n", htmlFrom: 33 });
    expect(renderedOf("**Café** ☕ 𝄞 and more")).toBe("<p><strong>Café</strong> ☕ 𝄞 and more</p>\n");
    // A delta without htmlFrom brings the whole HTML.
    send({ type: "text", index: 0, text: "!", html: "<p>whole</p>\n" });
    expect(renderedOf("**Café** ☕ 𝄞 and more!")).toBe("<p>whole</p>\n");
  });
});
