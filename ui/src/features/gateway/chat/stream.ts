// One streamed chat turn over `chat_stream`: a Channel of `start`, `text` deltas, then `done` or
// `error`. Exactly one of `onDone` / `onError` is called, whichever of the last event and the
// command's own answer comes first (the answer carries all that `done` does); Stop cancels the
// stream (`cancel_stream`) and settles it as `cancelled` at once, keeping the text received so far.
// A reply belongs to the app, not to its screen: a screen that goes only stops listening
// (`detach`), the reply runs on in Rust, and a screen that comes back follows it again from its
// text so far (`followChatStream`, over `live_reply`).
import { Channel } from "@tauri-apps/api/core";
import { ErrorKind, type ChatEvent, type IpcError, type MessagesRequest, type MessagesResponse } from "../../../ipc/contract";
import type { LiveReplyView } from "../../../bindings/LiveReplyView";
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
  /** Cancels the reply (what the user's Stop does). */
  stop: () => void;
  /** Stops listening, the reply running on (its screen went, or shows another conversation). */
  detach: () => void;
}

let streams = 0;

export function newStreamId(): string {
  streams += 1;
  return `chat-${Date.now().toString(36)}-${streams}`;
}

export const STOPPED: IpcError = { kind: ErrorKind.cancelled, message: "Stopped. The reply so far is kept." };

/** The channel's listener: the handlers told, until `settle` has run once. */
function listener(h: StreamHandlers, settle: (f: () => void) => void, isSettled: () => boolean, text = "", html = "") {
  // The stream's text so far, and its HTML (rendered in Rust; each delta brings the change).
  let sofar = text;
  let shown = html;
  return (ev: ChatEvent) => {
    if (isSettled()) return;
    switch (ev.type) {
      case "start":
        h.onStart?.(ev.conversationId);
        break;
      case "text":
        sofar += ev.text;
        if (ev.html !== undefined) {
          shown = shown.slice(0, ev.htmlFrom ?? 0) + ev.html;
          rememberRendered(sofar, shown);
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
}

/** Settles once: the first of the stream's endings is told, the rest ignored. */
function once() {
  let settled = false;
  return {
    settle: (f: () => void) => {
      if (settled) return;
      settled = true;
      f();
    },
    isSettled: () => settled,
    quiet: () => {
      settled = true;
    },
  };
}

function running(streamId: string, h: StreamHandlers, state: ReturnType<typeof once>): RunningStream {
  return {
    streamId,
    stop: () => {
      if (state.isSettled()) return;
      call("cancel_stream", { streamId }).catch(() => undefined);
      state.settle(() => h.onError(STOPPED));
    },
    detach: state.quiet,
  };
}

/** Streams a reply into the UI's turn `turnId` (named to Rust, so a screen that comes back finds it). */
export function startChatStream(request: MessagesRequest, conversationId: number | undefined, h: StreamHandlers, streamId = newStreamId(), turnId?: string): RunningStream {
  const state = once();
  const channel = new Channel<ChatEvent>();
  channel.onmessage = listener(h, state.settle, state.isSettled);
  call("chat_stream", {
    streamId,
    ...(conversationId !== undefined ? { conversationId } : {}),
    ...(turnId ? { turnId } : {}),
    request: { ...request, stream: true },
    onEvent: channel,
  })
    .then((reply) => state.settle(() => h.onDone(reply.message, reply.conversationId, metaOf(reply))))
    .catch((e: unknown) => state.settle(() => h.onError(toIpcError(e))));
  return running(streamId, h, state);
}

/**
 * The reply streaming now in conversation `conversationId`, when one does (its screen went and
 * came back): what it said so far, and `follow`, which starts telling `h` what comes next (the
 * events that came meanwhile first). Null when no reply streams there.
 */
export async function followChatStream(
  conversationId: number,
): Promise<{ view: LiveReplyView; follow: (h: StreamHandlers) => RunningStream; leave: () => void } | null> {
  const state = once();
  const channel = new Channel<ChatEvent>();
  // Kept until the screen is ready for them (it reads the conversation first).
  const early: ChatEvent[] = [];
  let listen: ((ev: ChatEvent) => void) | null = null;
  channel.onmessage = (ev) => (listen ? listen(ev) : early.push(ev));
  const view = await call("live_reply", { conversationId, onEvent: channel });
  if (!view) return null;
  rememberRendered(view.text, view.html);
  return {
    view,
    follow: (h) => {
      listen = listener(h, state.settle, state.isSettled, view.text, view.html);
      for (const ev of early.splice(0)) listen(ev);
      return running(view.streamId, h, state);
    },
    // Not followed after all (another conversation was opened meanwhile): nothing kept any more.
    leave: () => {
      state.quiet();
      listen = () => undefined;
      early.length = 0;
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
