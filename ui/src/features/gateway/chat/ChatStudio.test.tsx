import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Channel } from "@tauri-apps/api/core";
import type { ChatReply } from "../../../bindings/ChatReply";
import type { ChatEvent, MessagesRequest, MessagesResponse } from "../../../ipc/contract";
import type { Conversation } from "../../../bindings/Conversation";
import type { LiveReplyView } from "../../../bindings/LiveReplyView";
import type { NavOptions, NavTarget } from "../../../lib/nav";
import { renderRouted, renderScreen } from "../../../lib/testing";
import { ChatStudio } from "./ChatStudio";
import { pathOf, type ChatTree } from "./tree";

interface StreamCall {
  streamId: string;
  conversationId?: number;
  turnId?: string;
  request: MessagesRequest;
  channel: Channel<ChatEvent>;
  resolve: (r: ChatReply) => void;
}

let streams: StreamCall[] = [];
let cancelled: string[] = [];
/** The trees sent to `save_conversation_tree`, in order. */
let saved: { conversationId: number; tree: ChatTree }[] = [];
/** The conversations the library lists. */
let kept: Conversation[] = [];
/** The reply `live_reply` says streams now, and the channel it was given. */
let live: LiveReplyView | null = null;
let liveChannel: Channel<ChatEvent> | null = null;

const MODEL = "anthropic/claude-sonnet-4.5";

function reply(text: string): MessagesResponse {
  return { id: "msg_1", type: "message", role: "assistant", model: MODEL, content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage: { output_tokens: 3, cost: 0.0025 } };
}

beforeEach(() => {
  localStorage.clear();
  // jsdom has no layout: give the virtualized thread a size so it renders turns.
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 480 });
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 800 });
  streams = [];
  cancelled = [];
  saved = [];
  kept = [];
  live = null;
  liveChannel = null;
  mockIPC((cmd, args) => {
    const a = args as Record<string, unknown>;
    switch (cmd) {
      case "list_conversations":
        return kept;
      case "public_catalog":
        return { list: { object: "list", total: 1, counts: { text: 1, image: 0, video: 0, embeddings: 0 }, labs: [], data: [{ id: MODEL, lab: "anthropic", type: "text", input: ["text"], output: ["text"], created: 1 }] }, cachedAt: "2026-11-22T09:00:00Z", offline: false };
      case "gateway_models":
      case "image_models":
      case "video_models":
        return { list: { object: "list", data: [] }, cachedAt: "2026-11-22T09:00:00Z", offline: false };
      case "credits_balance":
        return { profileId: "sandbox", creditsRemaining: 100, at: "2026-11-22T09:00:00Z" };
      case "render_markdown":
        return { html: `<p>${String(a.markdown).replace(/[<>&]/g, "")}</p>`, toc: [] };
      case "chat_stream":
        return new Promise((resolve) => {
          streams.push({ streamId: String(a.streamId), conversationId: a.conversationId as number | undefined, turnId: a.turnId as string | undefined, request: a.request as MessagesRequest, channel: a.onEvent as Channel<ChatEvent>, resolve });
        });
      case "conversation_messages":
        if (a.conversationId !== 7) return [];
        return [{ id: 9, conversationId: 7, role: "assistant", content: [], model: MODEL, requestId: "req_42", creditsCharged: 0.025, createdAt: "" }];
      case "conversation_tree":
        return saved.filter((t) => t.conversationId === a.conversationId).at(-1)?.tree ?? null;
      case "live_reply":
        if (!live || live.conversationId !== a.conversationId) return null;
        liveChannel = a.onEvent as Channel<ChatEvent>;
        return live;
      case "save_conversation_tree":
        saved.push({ conversationId: a.conversationId as number, tree: a.tree as ChatTree });
        return null;
      case "cancel_stream":
        cancelled.push(String(a.streamId));
        return null;
      default:
        return cmd.startsWith("plugin:") ? 1 : null;
    }
  });
});

afterEach(() => {
  cleanup();
  clearMocks();
});

const input = () => screen.getByLabelText("Your message");
const announcer = () => screen.getByTestId("chat-announcer");

async function ready() {
  renderScreen(<ChatStudio />);
  await waitFor(() => expect((screen.getByLabelText("Model") as HTMLSelectElement).value).toBe(MODEL));
}

function emit(i: number, ev: ChatEvent) {
  act(() => streams[i]?.channel.onmessage(ev));
}

describe("ChatStudio", () => {
  it("never sends on Enter while an input method composes, nor on Shift+Enter", async () => {
    await ready();
    fireEvent.change(input(), { target: { value: "こんにちは" } });
    fireEvent.keyDown(input(), { key: "Enter", isComposing: true });
    fireEvent.keyDown(input(), { key: "Enter", keyCode: 229 });
    fireEvent.keyDown(input(), { key: "Enter", shiftKey: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(streams).toHaveLength(0);
    fireEvent.keyDown(input(), { key: "Enter" });
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]?.request.messages).toEqual([{ role: "user", content: [{ type: "text", text: "こんにちは" }] }]);
    expect(streams[0]?.request).toMatchObject({ model: MODEL, max_tokens: 1024, temperature: 1, stream: true });
  });

  it("sends the system prompt, temperature and max tokens set beside the thread", async () => {
    await ready();
    fireEvent.change(screen.getByLabelText("System prompt"), { target: { value: "  Answer in French.  " } });
    fireEvent.change(screen.getByLabelText("Temperature"), { target: { value: "0.3" } });
    fireEvent.change(screen.getByLabelText("Max tokens"), { target: { value: "256" } });
    fireEvent.change(input(), { target: { value: "Bonjour" } });
    fireEvent.keyDown(input(), { key: "Enter" });
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]?.request).toEqual({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: "user", content: [{ type: "text", text: "Bonjour" }] }],
      system: "Answer in French.",
      temperature: 0.3,
      stream: true,
    });
  });

  it("announces the finished reply once, never a delta, and shows its credits", async () => {
    await ready();
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(announcer().textContent ?? ""));
    observer.observe(announcer(), { childList: true, characterData: true, subtree: true });
    fireEvent.change(input(), { target: { value: "Hello" } });
    fireEvent.keyDown(input(), { key: "Enter" });
    await waitFor(() => expect(streams).toHaveLength(1));
    emit(0, { type: "start", conversationId: 7 });
    emit(0, { type: "text", index: 0, text: "Hi " });
    emit(0, { type: "text", index: 0, text: "there" });
    await screen.findByText("Writing…");
    expect(announcer().textContent).toBe("");
    // The done event says what the ledger kept: the request id and the credits charged (not the
    // usage's 0.025 worked out here).
    emit(0, { type: "done", conversationId: 7, message: reply("Hi there"), requestId: "req_42", creditsCharged: 0.03 });
    await waitFor(() => expect(announcer().textContent).toBe("Hi there"));
    expect(screen.getByText("0.03 credits")).toBeTruthy();
    await screen.findByText("request req_42");
    // The branches are kept in the library as the reply opened and once it settled (then with its
    // request id), never per delta.
    await waitFor(() => expect(pathOf(saved.at(-1)?.tree ?? { turns: {}, children: {}, selected: {} }).at(-1)?.requestId).toBe("req_42"));
    const statuses = saved.map((s) => `${s.conversationId} ${pathOf(s.tree).at(-1)?.status}`);
    expect([statuses[0], statuses.at(-1)]).toEqual(["7 streaming", "7 done"]);
    // (A second streaming write only if this machine took over a second between the deltas.)
    expect(statuses.length).toBeLessThanOrEqual(3);
    await new Promise((r) => setTimeout(r, 30));
    observer.disconnect();
    expect(seen.filter(Boolean)).toEqual(["Hi there"]);
  });

  it("stops a reply, keeps it, continues it, and regenerates it as a second version", async () => {
    await ready();
    fireEvent.change(input(), { target: { value: "Tell me" } });
    fireEvent.keyDown(input(), { key: "Enter" });
    await waitFor(() => expect(streams).toHaveLength(1));
    emit(0, { type: "start", conversationId: 7 });
    emit(0, { type: "text", index: 0, text: "Part one " });
    fireEvent.click(screen.getByRole("button", { name: "Stop" }));
    expect(cancelled).toEqual([streams[0]?.streamId]);
    await screen.findByText("Stopped");
    expect(announcer().textContent).toBe("Stopped.");

    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(streams).toHaveLength(2));
    expect(streams[1]?.conversationId).toBe(7);
    expect(streams[1]?.request.messages.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: "Part one " }] });
    // Rust sends those words without their trailing space; the continuation brings its own.
    emit(1, { type: "text", index: 0, text: " and part two." });
    emit(1, { type: "done", conversationId: 7, message: reply(" and part two.") });
    await waitFor(() => expect(announcer().textContent).toBe("Part one and part two."));

    fireEvent.click(screen.getByRole("button", { name: "Regenerate" }));
    await waitFor(() => expect(streams).toHaveLength(3));
    expect(streams[2]?.request.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Tell me" }] }]);
    emit(2, { type: "done", conversationId: 7, message: reply("Another take.") });
    await waitFor(() => expect(screen.getByText("2 / 2")).toBeTruthy());
    const versions = screen.getByRole("group", { name: "Versions of this reply" });
    fireEvent.click(within(versions).getByRole("button", { name: "Previous version" }));
    expect(screen.getByText("1 / 2")).toBeTruthy();
    const thread = screen.getByRole("list", { name: "Messages" });
    await waitFor(() => expect(within(thread).getByText("Part one and part two.")).toBeTruthy());
    expect(within(thread).queryByText("Another take.")).toBeNull();
  });

  it("names a conversation made by its first message in the address, and opens the one the address names", async () => {
    const went: [NavTarget, NavOptions | undefined][] = [];
    const draw = (route: NavTarget) => <ChatStudio conversation={route.area === "gateway" ? route.conversation : undefined} />;
    renderRouted({ area: "gateway" }, draw, (to, options) => went.push([to, options]));
    await waitFor(() => expect((screen.getByLabelText("Model") as HTMLSelectElement).value).toBe(MODEL));
    fireEvent.change(input(), { target: { value: "Hello" } });
    fireEvent.keyDown(input(), { key: "Enter" });
    await waitFor(() => expect(streams).toHaveLength(1));
    emit(0, { type: "start", conversationId: 7 });
    await waitFor(() => expect(went).toEqual([[{ area: "gateway", studio: "chat", conversation: 7 }, { replace: true }]]));
    cleanup();

    kept = [{ id: 7, profileId: "sandbox", title: "Tide tables", createdAt: "2026-11-22T09:00:00Z", updatedAt: "2026-11-22T09:00:00Z" }];
    renderRouted({ area: "gateway", studio: "chat", conversation: 7 }, draw);
    await waitFor(() => expect(screen.getByRole("heading", { level: 2, name: "Tide tables" })).toBeTruthy());
  });

  it("says a conversation the library no longer has, and goes back to a new chat", async () => {
    const went: NavTarget[] = [];
    renderRouted({ area: "gateway", studio: "chat", conversation: 8 }, (route) => <ChatStudio conversation={route.area === "gateway" ? route.conversation : undefined} />, (to) => went.push(to));
    await screen.findByText("That conversation is no longer on this computer.");
    expect(went).toEqual([{ area: "gateway" }]);
    expect(screen.getByRole("heading", { level: 2, name: "New chat" })).toBeTruthy();
  });

  it("leaves a reply running when the studio goes, and follows it again, live, when its conversation opens", async () => {
    await ready();
    fireEvent.change(input(), { target: { value: "Tell me a story" } });
    fireEvent.keyDown(input(), { key: "Enter" });
    await waitFor(() => expect(streams).toHaveLength(1));
    emit(0, { type: "start", conversationId: 7 });
    emit(0, { type: "text", index: 0, text: "Once upon" });
    const turnId = streams[0]?.turnId;
    cleanup();
    // Leaving is not Stop: nothing was cancelled, and the branches were kept as they stood.
    expect(cancelled).toEqual([]);
    const keptTree = saved.filter((t) => t.conversationId === 7).at(-1)?.tree;
    const streaming = keptTree && pathOf(keptTree).at(-1);
    expect(streaming && [streaming.status, streaming.id === turnId]).toEqual(["streaming", true]);

    kept = [{ id: 7, profileId: "sandbox", title: "Tell me a story", createdAt: "2026-11-22T09:00:00Z", updatedAt: "2026-11-22T09:00:00Z" }];
    live = { streamId: streams[0]?.streamId ?? "", turnId: streaming?.id, conversationId: 7, text: "Once upon a time", html: "<p>Once upon a time</p>", base: "", startedAt: "2026-11-22T09:00:00Z" };
    renderRouted({ area: "gateway", studio: "chat", conversation: 7 }, (route) => <ChatStudio conversation={route.area === "gateway" ? route.conversation : undefined} />);
    const thread = await screen.findByRole("list", { name: "Messages" });
    await waitFor(() => expect(within(thread).getByText("Once upon a time")).toBeTruthy());
    // Still streaming: Stop is offered, and later words arrive on the channel it was given.
    expect(screen.getByRole("button", { name: "Stop" })).toBeTruthy();
    act(() => liveChannel?.onmessage({ type: "text", index: 0, text: " there was a kite." }));
    await waitFor(() => expect(within(thread).getByText("Once upon a time there was a kite.")).toBeTruthy());
    act(() => liveChannel?.onmessage({ type: "done", conversationId: 7, message: reply("Once upon a time there was a kite."), creditsCharged: 0.03 }));
    await waitFor(() => expect(announcer().textContent).toBe("Once upon a time there was a kite."));
    expect(streams).toHaveLength(1);
  });

  it("leaves a reply running when another conversation is opened (only Stop cancels it)", async () => {
    kept = [{ id: 8, profileId: "sandbox", title: "Tide tables", createdAt: "2026-11-22T09:00:00Z", updatedAt: "2026-11-22T09:00:00Z" }];
    renderRouted({ area: "gateway" }, (route) => <ChatStudio conversation={route.area === "gateway" ? route.conversation : undefined} />);
    await waitFor(() => expect((screen.getByLabelText("Model") as HTMLSelectElement).value).toBe(MODEL));
    fireEvent.change(input(), { target: { value: "Tell me a story" } });
    fireEvent.keyDown(input(), { key: "Enter" });
    await waitFor(() => expect(streams).toHaveLength(1));
    emit(0, { type: "start", conversationId: 7 });
    emit(0, { type: "text", index: 0, text: "Once upon" });
    fireEvent.click((await screen.findAllByRole("button", { name: /^Tide tables/ }))[0] as HTMLElement);
    await waitFor(() => expect(screen.getByRole("heading", { level: 2, name: "Tide tables" })).toBeTruthy());
    expect(cancelled).toEqual([]);
  });
});
