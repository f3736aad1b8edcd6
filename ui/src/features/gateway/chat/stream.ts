// One streamed chat turn over `chat_stream`: a Channel of `start`, `text` deltas, then `done` or
// `error`. Exactly one of `onDone` / `onError` is called, whichever of the last event and the
// command's own answer comes first (the answer carries all that `done` does); Stop cancels the
// stream (`cancel_stream`) and settles it as `cancelled` at once, keeping the text received so far.
import { Channel } from "@tauri-apps/api/core";
import { ErrorKind, type ChatEvent, type IpcError, type MessagesRequest, type MessagesResponse } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { rememberRendered } from "./renderedCache";

/** What the service said of a settled reply (absent parts were not given). */
export interface ReplyMeta {
  requestId?: string;
  balanceAfter?: number;
  /** What the reply cost, as the ledger keeps it. */
  creditsCharged?: number;
}

export interface StreamHandlers {
  onStart?: (conversationId: number) => void;
  onText: (text: string) => void;
  onDone: (message: MessagesResponse, conversationId: number | undefined, meta: ReplyMeta) => void;
  onError: (error: IpcError) => void;
}

export interface RunningStream {
  streamId: string;
  stop: () => void;
}

let streams = 0;

export function newStreamId(): string {
  streams += 1;
  return `chat-${Date.now().toString(36)}-${streams}`;
}

export const STOPPED: IpcError = { kind: ErrorKind.cancelled, message: "Stopped. The reply so far is kept." };

export function startChatStream(request: MessagesRequest, conversationId: number | undefined, h: StreamHandlers, streamId = newStreamId()): RunningStream {
  let settled = false;
  const settle = (f: () => void) => {
    if (settled) return;
    settled = true;
    f();
  };
  const channel = new Channel<ChatEvent>();
  // The stream's text so far, and its HTML (rendered in Rust; each delta brings the change).
  let sofar = "";
  let html = "";
  channel.onmessage = (ev) => {
    if (settled) return;
    switch (ev.type) {
      case "start":
        h.onStart?.(ev.conversationId);
        break;
      case "text":
        sofar += ev.text;
        if (ev.html !== undefined) {
          html = html.slice(0, ev.htmlFrom ?? 0) + ev.html;
          rememberRendered(sofar, html);
        }
        h.onText(ev.text);
        break;
      case "done":
        settle(() => h.onDone(ev.message, ev.conversationId, metaOf(ev)));
        break;
      case "error":
        settle(() => h.onError(ev.error));
        break;
      default:
        // Unknown event types are ignored (DESIGN.md, Streams).
        break;
    }
  };
  call("chat_stream", { streamId, ...(conversationId !== undefined ? { conversationId } : {}), request: { ...request, stream: true }, onEvent: channel })
    .then((reply) => settle(() => h.onDone(reply.message, reply.conversationId, metaOf(reply))))
    .catch((e: unknown) => settle(() => h.onError(toIpcError(e))));
  return {
    streamId,
    stop: () => {
      if (settled) return;
      call("cancel_stream", { streamId }).catch(() => undefined);
      settle(() => h.onError(STOPPED));
    },
  };
}

function metaOf(reply: ReplyMeta): ReplyMeta {
  return {
    ...(reply.requestId ? { requestId: reply.requestId } : {}),
    ...(reply.balanceAfter !== undefined ? { balanceAfter: reply.balanceAfter } : {}),
    ...(reply.creditsCharged !== undefined ? { creditsCharged: reply.creditsCharged } : {}),
  };
}

/** Credits a settled reply cost: the gateway's `usage.cost` × 10, when the service gave it. */
export function creditsOf(message: MessagesResponse): number | undefined {
  const cost = message.usage.cost;
  return typeof cost === "number" ? Math.round(cost * 10 * 1e6) / 1e6 : undefined;
}
