// Scenarios of the Gateway's Chat, Rerank and Models tabs. `gateway-chat` answers `chat_stream`
// with deterministic markdown replies streamed a word at a time (every lane of a compare
// interleaving), and markers in the last user message pick a behaviour:
//   [hold]  half the reply, then waits for `release("chat-hold")` (Stop cancels it meanwhile);
//   [cut]   half the reply, then the stream breaks (`stream` error): the reply is "Cut off";
//   [rate]  refused: rate limited, 3 s to wait.
// A message naming a tool of `tools` gets a `tool_use` reply; a `tool_result` gets a text reply;
// a request ending with the assistant's partial reply (Continue) gets the rest of it. "Ask a
// spec" (its system prompt asks for citations) gets an answer citing sections [1] and [2].
// `gateway-limited` refuses rerank and chat as rate limited. `gateway-chat-faults`: the same chat
// where each failure happens once, then the call works (a compare lane of openai/gpt-5-mini, a
// [cut] reply, an "Ask a spec" answer). `gateway-models-faults`: the connection's catalog refused
// (its key not accepted) until the test releases "catalog-back".
import type { ChatReply } from "../../bindings/ChatReply";
import type { ChatEvent, IpcError, MessagesRequest, MessagesResponse } from "../../ipc/contract";
import type { ContentBlock } from "../../bindings/ContentBlock";
import { baseHandlers } from "../base";
import { charge, lastText, renderMarkdown, requireKey } from "../helpers";
import { defineScenario, ipcError, type MockContext } from "../registry";
import { clone, nextId, now } from "../state";

export const CHAT_RATE_LIMITED: IpcError = {
  kind: "rateLimited",
  message: "Too many requests this minute for this key. Wait a few seconds, then try again.",
  status: 429,
  retryAfterMs: 3000,
};
export const CHAT_CUT: IpcError = { kind: "stream", message: "The connection broke off before the reply was finished. The part received is kept." };

/** The reply a model gives to `asked` (markdown, so the rendering shows). */
export function replyText(model: string, asked: string): string {
  const name = model.split("/").pop() ?? model;
  const topic = asked.replace(/\[(hold|cut|rate)\]/g, "").trim();
  return `**${name}** says: here is a thought about *${topic}*. Keep it short and clear.`;
}

export const CONTINUATION = " And here is the rest of the reply.";
export const ASK_ANSWER = "Teams see their streaks on the habit page [1]; each check-in adds a day [2].";

const stopped = new Set<string>();
const pause = () => new Promise<void>((r) => setTimeout(r, 8));

function toolNamed(request: MessagesRequest, asked: string) {
  return (request.tools ?? []).find((t) => asked.includes(t.name));
}

interface ChatArgs {
  streamId: string;
  conversationId?: number;
  request: MessagesRequest;
  onEvent: unknown;
}

/** `failFirst`: a service error once the conversation exists, before the first word. */
export async function chatStream(args: ChatArgs, ctx: MockContext, faults: { cut: boolean; failFirst?: IpcError } = { cut: true }): Promise<ChatReply> {
  const channel = ctx.channel<ChatEvent>(args.onEvent as never);
  const fail = (error: IpcError): never => {
    channel.send({ type: "error", error });
    throw error;
  };
  requireKey(ctx.db);
  const { db } = ctx;
  const { request } = args;
  const msgs = request.messages;
  const last = msgs[msgs.length - 1];
  const lastUser = [...msgs].reverse().find((m) => m.role === "user");
  const asked = lastUser ? lastText(lastUser.content) : "";
  if (asked.includes("[rate]")) fail(CHAT_RATE_LIMITED);

  let conversation = args.conversationId === undefined ? undefined : db.conversations.find((c) => c.id === args.conversationId);
  if (!conversation) {
    const at = now(db);
    conversation = { id: nextId(db), profileId: db.settings.activeProfileId, title: asked.slice(0, 60) || "New conversation", model: request.model, createdAt: at, updatedAt: at };
    db.conversations.unshift(conversation);
  }
  const convId = conversation.id;
  channel.send({ type: "start", conversationId: convId });
  if (faults.failFirst) fail(faults.failFirst);
  db.messages.push({ id: nextId(db), conversationId: convId, role: "user", content: clone(last?.content ?? ""), createdAt: now(db), cut: false });

  const blocks = Array.isArray(last?.content) ? (last.content as ContentBlock[]) : [];
  const toolResult = blocks.find((b) => b.type === "tool_result");
  const tool = last?.role === "user" && !toolResult ? toolNamed(request, asked) : undefined;
  const system = typeof request.system === "string" ? request.system : "";
  const text =
    last?.role === "assistant"
      ? CONTINUATION
      : system.includes("Cite every section")
        ? ASK_ANSWER
        : toolResult
          ? `The tool answered: ${typeof toolResult.content === "string" ? toolResult.content : JSON.stringify(toolResult.content)}.`
          : tool
            ? `I will ask ${tool.name}.`
            : replyText(request.model, asked);
  const words = text.split(/(?<= )/);
  const half = Math.ceil(words.length / 2);
  for (const [i, w] of words.entries()) {
    if (i === half && asked.includes("[hold]") && last?.role === "user") {
      await ctx.gate("chat-hold");
      if (stopped.has(args.streamId)) fail({ kind: "cancelled", message: "Stopped." });
    }
    if (i === half && faults.cut && asked.includes("[cut]") && last?.role === "user") fail(CHAT_CUT);
    channel.send({ type: "text", index: 0, text: w });
    await pause();
  }
  const content: ContentBlock[] = [{ type: "text", text }];
  if (tool) content.push({ type: "tool_use", id: `toolu_${nextId(db)}`, name: tool.name, input: { city: "Lisbon" } });
  const message: MessagesResponse = {
    id: `msg_${nextId(db)}`,
    type: "message",
    role: "assistant",
    model: request.model,
    content,
    stop_reason: tool ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: words.length, cost: 0.002 },
  };
  const requestId = `req_sandbox_${db.seq}`;
  db.messages.push({ id: nextId(db), conversationId: convId, role: "assistant", content: clone(content), model: request.model, requestId, creditsCharged: 0.02, createdAt: now(db), cut: false });
  conversation.updatedAt = now(db);
  charge(db, ctx, "v1/messages", 0.02, request.model);
  // The stream's headers: its request id and the balance after the reply.
  const balanceAfter = db.credits[db.settings.activeProfileId];
  const reply: ChatReply = { message, conversationId: convId, requestId, creditsCharged: 0.02, ...(balanceAfter !== undefined ? { balanceAfter } : {}) };
  channel.send({ type: "done", ...reply });
  return reply;
}

/** The base renderer with bold and italics, so a reply's markdown visibly renders. */
export function renderEmphasis({ markdown }: { markdown: string }) {
  const r = renderMarkdown(markdown);
  return { ...r, html: r.html.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>").replace(/\*([^*]+)\*/g, "<em>$1</em>") };
}

defineScenario(
  "gateway-chat",
  {
    chat_stream: (args, ctx) => chatStream(args, ctx),
    render_markdown: renderEmphasis,
    cancel_stream: ({ streamId }) => {
      stopped.add(streamId);
      return null;
    },
  },
  { description: "Chat replies streamed word by word; [hold], [cut] and [rate] in a message pick a behaviour." },
);

/** More conversations than the chat list reads at a time (200): 230 of the Sandbox. */
export const MANY_CONVERSATIONS = 230;

defineScenario(
  "gateway-chat-many",
  { chat_stream: (args, ctx) => chatStream(args, ctx), render_markdown: renderEmphasis },
  {
    description: "230 conversations of the Sandbox, for the chat list's pages.",
    setup: (db) => {
      const many = Array.from({ length: MANY_CONVERSATIONS }, (_, k) => {
        const at = new Date(Date.UTC(2026, 10, 20, 8, 0, 0) - k * 60_000).toISOString();
        return { id: 5000 + k, profileId: db.settings.activeProfileId, title: `Planning chat ${k + 1}`, createdAt: at, updatedAt: at };
      });
      db.conversations = [...many, ...db.conversations];
    },
  },
);

defineScenario(
  "gateway-limited",
  {
    rerank: () => {
      throw ipcError("rateLimited", CHAT_RATE_LIMITED.message, { status: 429, retryAfterMs: 3000 });
    },
    chat_stream: (args, ctx) => {
      ctx.channel<ChatEvent>(args.onEvent).send({ type: "error", error: CHAT_RATE_LIMITED });
      throw CHAT_RATE_LIMITED;
    },
  },
  { description: "Rerank and chat refused as rate limited (429, wait 3 s)." },
);

export const CHAT_SERVER: IpcError = { kind: "server", message: "The service had a problem answering. Try again in a moment.", status: 502 };
export const COMPARE_FLAKY_MODEL = "openai/gpt-5-mini";

// Per page: which failures already happened once.
const failedOnce = new Set<string>();
function once(what: string): boolean {
  if (failedOnce.has(what)) return false;
  failedOnce.add(what);
  return true;
}

defineScenario(
  "gateway-chat-faults",
  {
    chat_stream: (args, ctx) => {
      const system = typeof args.request.system === "string" ? args.request.system : "";
      const lastUser = [...args.request.messages].reverse().find((m) => m.role === "user");
      const asked = lastUser ? lastText(lastUser.content) : "";
      const failFirst =
        (args.request.model === COMPARE_FLAKY_MODEL && once("lane")) || (system.includes("Cite every section") && once("ask")) ? CHAT_SERVER : undefined;
      const cut = asked.includes("[cut]") && args.request.messages.at(-1)?.role === "user" && once("cut");
      return chatStream(args, ctx, { cut, failFirst });
    },
    render_markdown: renderEmphasis,
  },
  {
    description: "Chat failures that happen once each: a compare lane of openai/gpt-5-mini, a [cut] reply, an Ask a spec answer.",
    setup: () => failedOnce.clear(),
  },
);

export const CATALOG_REFUSED = "The service did not accept your API key. Check it in Settings, then try again.";
/** Gate the test releases when the connection's catalog can be read (scenario "gateway-models-faults"). */
export const CATALOG_BACK = "catalog-back";
let catalogBack = false;

defineScenario(
  "gateway-models-faults",
  {
    gateway_models: (args, ctx) => {
      void ctx.gate(CATALOG_BACK).then(() => {
        catalogBack = true;
      });
      if (!catalogBack) throw ipcError("invalidKey", CATALOG_REFUSED, { status: 401 });
      return baseHandlers.gateway_models(args, ctx);
    },
  },
  {
    description: "The Models tab with the connection's catalog refused (key not accepted) until released.",
    setup: () => {
      catalogBack = false;
    },
  },
);

export const TRIAL_PROFILE = "p_trial";

defineScenario(
  "gateway-trial",
  {},
  {
    description: "The connection in use, Trial, is one the service showed to be on the AI gateway's free trial.",
    setup: (db) => {
      db.profiles.push({
        id: TRIAL_PROFILE,
        name: "Trial",
        baseUrl: "https://api.example.com",
        keyKind: "personal",
        builtIn: false,
        active: false,
        key: { hasKey: true, maskedTail: "••••a1b2" },
        trial: true,
      });
      db.settings.activeProfileId = TRIAL_PROFILE;
      db.credits[TRIAL_PROFILE] = 20;
    },
  },
);
