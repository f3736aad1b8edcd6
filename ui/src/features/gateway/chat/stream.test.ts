import { afterEach, describe, expect, it, vi } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Channel } from "@tauri-apps/api/core";
import type { ChatEvent, MessagesResponse } from "../../../ipc/contract";
import { DONE_GRACE_MS, startChatStream, type ReplyMeta } from "./stream";

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

afterEach(() => {
  clearMocks();
  vi.useRealTimers();
});

function run() {
  let channel: Channel<ChatEvent> | undefined;
  mockIPC((cmd, args) => {
    if (cmd !== "chat_stream") return null;
    channel = (args as { onEvent: Channel<ChatEvent> }).onEvent;
    return MESSAGE; // the command answers at once
  });
  const done: [MessagesResponse, number | undefined, ReplyMeta][] = [];
  startChatStream({ model: "a/model", messages: [{ role: "user", content: "Hi" }], max_tokens: 16 }, undefined, {
    onText: () => undefined,
    onDone: (m, c, meta) => done.push([m, c, meta]),
    onError: () => undefined,
  });
  return { done, send: (ev: ChatEvent) => channel?.onmessage(ev) };
}

describe("a chat stream's end", () => {
  it("waits for the channel's done when the command answers first, and keeps what it carries", async () => {
    vi.useFakeTimers();
    const { done, send } = run();
    await vi.advanceTimersByTimeAsync(DONE_GRACE_MS / 2);
    expect(done).toEqual([]);
    send({ type: "done", message: MESSAGE, conversationId: 7, requestId: "req_9", balanceAfter: 41.5 });
    expect(done).toEqual([[MESSAGE, 7, { requestId: "req_9", balanceAfter: 41.5 }]]);
    await vi.advanceTimersByTimeAsync(DONE_GRACE_MS);
    expect(done).toHaveLength(1);
  });

  it("settles with the command's answer when no done comes", async () => {
    vi.useFakeTimers();
    const { done } = run();
    await vi.advanceTimersByTimeAsync(DONE_GRACE_MS + 1);
    expect(done).toEqual([[MESSAGE, undefined, {}]]);
  });
});
