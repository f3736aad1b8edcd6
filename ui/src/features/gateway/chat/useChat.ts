// The open conversation: its tree of turns (branches), the one stream running, and the single
// announcement of a finished reply. Sending, regenerating, editing, continuing a cut reply and
// answering a tool call all come down to `streamInto`: stream a reply into one assistant turn.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { renderedOf } from "./renderedCache";
import { useQueryClient } from "@tanstack/react-query";
import type { Conversation, IpcError, MessagesRequest } from "../../../ipc/contract";
import type { ContentBlock } from "../../../bindings/ContentBlock";
import type { Message } from "../../../bindings/Message";
import type { Tool } from "../../../bindings/Tool";
import { call, toIpcError } from "../../../ipc/invoke";
import { keys } from "../../../ipc/hooks";
import { loadTree, saveTree } from "./conversations";
import { creditsOf, followChatStream, startChatStream, type RunningStream, type StreamHandlers } from "./stream";
import { createTreeSaver } from "./treeSaver";
import { addTurn, emptyTree, fromMessages, newTurnId, pathOf, requestMessages, selectSibling, textOf, updateTurn, type ChatTree, type Turn } from "./tree";

export interface ChatSettings {
  model: string;
  system: string;
  temperature: number;
  maxTokens: number;
  tools: Tool[];
}

export function buildRequest(s: ChatSettings, messages: Message[]): MessagesRequest {
  return {
    model: s.model,
    max_tokens: s.maxTokens,
    messages,
    ...(s.system.trim() ? { system: s.system.trim() } : {}),
    temperature: s.temperature,
    ...(s.tools.length ? { tools: s.tools } : {}),
  };
}

export const conversationKeys = { all: ["list_conversations"] as const };

export function useChat(settings: ChatSettings) {
  const qc = useQueryClient();
  const [tree, setTree] = useState<ChatTree>(emptyTree);
  const [conversationId, setConversationId] = useState<number | undefined>(undefined);
  const [streamingId, setStreamingId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [loadError, setLoadError] = useState<IpcError | null>(null);
  const running = useRef<RunningStream | null>(null);
  const conv = useRef<number | undefined>(undefined);
  // Which opening of a conversation is the latest (an earlier one answering late is dropped).
  const opening = useRef(0);
  const treeRef = useRef(tree);
  const settingsRef = useRef(settings);
  // Handlers read the latest tree and settings (they run after the render that made them).
  useLayoutEffect(() => {
    treeRef.current = tree;
    settingsRef.current = settings;
  });

  // Keep the branches in the library when a reply settles, and at most once a second while one
  // streams (so a reply cut by a closed app is found again, marked cut off): never on every
  // delta. A tree just read from the library is not written back.
  const [saver] = useState(() => createTreeSaver(saveTree));
  const loaded = useRef<ChatTree | null>(null);
  useEffect(() => {
    if (conversationId === undefined || !Object.keys(tree.turns).length || tree === loaded.current) return;
    saver.save(conversationId, tree, streamingId !== null);
  }, [tree, conversationId, streamingId, saver]);
  useEffect(() => () => saver.flush(), [saver]);

  // A reply belongs to the app: leaving the screen only stops listening; it runs on in Rust and
  // is followed again when its conversation is opened (only Stop cancels it).
  useEffect(() => () => running.current?.detach(), []);

  const refreshLists = useCallback(() => {
    void qc.invalidateQueries({ queryKey: conversationKeys.all });
    void qc.invalidateQueries({ queryKey: keys.credits });
  }, [qc]);

  /** What a reply streaming into turn `turnId` does to it: its text after `baseText` (the words a
   * continued reply started from), from `text` (what it said before this screen followed it). */
  const replyHandlers = useCallback(
    (turnId: string, baseText: string, text: string, model?: string, ttftFrom?: number): StreamHandlers => ({
      onStart: (id) => {
        if (conv.current === undefined) {
          conv.current = id;
          setConversationId(id);
          // A new conversation: in the list at once, not when its first reply ends.
          void qc.invalidateQueries({ queryKey: conversationKeys.all });
        }
      },
      onText: (delta) => {
        const first = text === "";
        text += delta;
        const now = text;
        // Committed at once, in the message's own task (Rust sends at most one a frame): not
        // left for React's scheduler to run in a later task.
        flushSync(() =>
          setTree((t) =>
            updateTurn(t, turnId, (turn) => ({
              content: [{ type: "text", text: baseText + now }],
              ...(first && ttftFrom !== undefined ? { ttftMs: Math.round(performance.now() - ttftFrom) } : {}),
              status: turn.status,
            })),
          ),
        );
      },
      onDone: (message, doneIn, { creditsCharged, ...ids }) => {
        // The turn's conversation, should its `start` have come after the answer.
        if (conv.current === undefined && doneIn !== undefined) {
          conv.current = doneIn;
          setConversationId(doneIn);
        }
        const others = message.content.filter((b) => b.type !== "text");
        const full = baseText + (textOf(message.content) || text);
        const content: ContentBlock[] = [...(full ? [{ type: "text" as const, text: full }] : []), ...others];
        const credits = creditsCharged ?? creditsOf(message);
        const by = message.model || model;
        setTree((t) => updateTurn(t, turnId, { content, status: "done", credits, ...(by ? { model: by } : {}), ...ids }));
        setStreamingId(null);
        running.current = null;
        setAnnouncement(full ? spoken(full) : others.length ? "The model asked to use a tool." : "The reply is empty.");
        refreshLists();
      },
      onError: (error) => {
        const kept = baseText + text;
        const status = error.kind === "cancelled" ? "stopped" : kept ? "cut" : "error";
        setTree((t) => updateTurn(t, turnId, { status, error, content: kept ? [{ type: "text", text: kept }] : [] }));
        setStreamingId(null);
        running.current = null;
        setAnnouncement(status === "stopped" ? "Stopped." : status === "cut" ? "The reply was cut off." : error.message);
        refreshLists();
      },
    }),
    [refreshLists, qc],
  );

  /** Streams a reply into assistant turn `turnId`, sending `messages`; `append` continues its text. */
  const streamInto = useCallback(
    (turnId: string, messages: Message[], append: boolean, model = settingsRef.current.model) => {
      const sentAt = performance.now();
      const base = append ? (treeRef.current.turns[turnId]?.content ?? []) : [];
      // Continued from its words without their trailing white space, as Rust sends them (the
      // Messages shape refuses a prefill ending in it): the continuation brings its own.
      const baseText = textOf(base).trimEnd();
      setStreamingId(turnId);
      setAnnouncement("");
      setTree((t) => updateTurn(t, turnId, { status: "streaming", error: undefined, content: append ? base : [], model }));
      const handlers = replyHandlers(turnId, baseText, "", model, append ? undefined : sentAt);
      running.current = startChatStream(buildRequest({ ...settingsRef.current, model }, messages), conv.current, handlers, undefined, turnId);
    },
    [replyHandlers],
  );

  /** A new assistant turn under `parentId`, streamed from the thread up to it. */
  const replyTo = useCallback(
    (parentId: string, t: ChatTree = treeRef.current) => {
      const turn: Turn = { id: newTurnId(), parentId, role: "assistant", content: [], status: "streaming", model: settingsRef.current.model, createdAt: new Date().toISOString() };
      const next = addTurn(t, turn);
      treeRef.current = next;
      setTree(next);
      streamInto(turn.id, requestMessages(pathOf(next), parentId), false);
    },
    [streamInto],
  );

  const addUserTurn = useCallback((content: ContentBlock[], parentId: string | null): { tree: ChatTree; id: string } => {
    const turn: Turn = { id: newTurnId(), parentId, role: "user", content, status: "done", createdAt: new Date().toISOString() };
    const next = addTurn(treeRef.current, turn);
    treeRef.current = next;
    setTree(next);
    return { tree: next, id: turn.id };
  }, []);

  const busy = streamingId !== null;

  return {
    tree,
    path: pathOf(tree),
    conversationId,
    streamingId,
    busy,
    announcement,
    loadError,
    setAnnouncement,
    /** Opens a conversation of the library: its kept branches, else its thread of messages. */
    /** Opens a conversation of the library: its kept branches (a reply still streaming there
     * followed again, live), else its thread of messages. */
    open: async (c: Conversation) => {
      running.current?.detach();
      running.current = null;
      setStreamingId(null);
      setLoadError(null);
      conv.current = c.id;
      setConversationId(c.id);
      setTree(emptyTree());
      const token = ++opening.current;
      let live: Awaited<ReturnType<typeof followChatStream>> = null;
      try {
        // Joined first, so no event of it falls between the tree read and the following.
        live = await followChatStream(c.id);
        const opened = await loadTree(c.id, live?.view);
        const next = opened?.tree ?? fromMessages(await call("conversation_messages", { conversationId: c.id }));
        if (token !== opening.current) {
          live?.leave();
          return;
        }
        // A tree that changed on opening (a reply that ended while away) is written back.
        loaded.current = opened?.changed ? null : next;
        setTree(next);
        const turnId = live?.view.turnId;
        if (live && turnId && next.turns[turnId]) {
          setStreamingId(turnId);
          running.current = live.follow(replyHandlers(turnId, live.view.base, live.view.text, next.turns[turnId]?.model));
        } else live?.leave();
      } catch (e) {
        live?.leave();
        if (token === opening.current) setLoadError(toIpcError(e));
      }
    },
    newChat: () => {
      running.current?.detach();
      running.current = null;
      setStreamingId(null);
      opening.current += 1;
      conv.current = undefined;
      setConversationId(undefined);
      setTree(emptyTree());
      setAnnouncement("");
    },
    /** Sends a user turn at the end of the thread and streams the reply. */
    send: (content: ContentBlock[]) => {
      if (busy) return;
      const last = pathOf(treeRef.current).at(-1);
      const { tree: next, id } = addUserTurn(content, last?.id ?? null);
      replyTo(id, next);
    },
    /** Adds a user turn without a reply (compare streams its own replies). */
    addUserTurn: (content: ContentBlock[]) => addUserTurn(content, pathOf(treeRef.current).at(-1)?.id ?? null),
    /** A new reply beside assistant turn `id` (a branch). */
    regenerate: (id: string) => {
      const t = treeRef.current.turns[id];
      if (!busy && t?.parentId) replyTo(t.parentId);
    },
    /** The same reply turn tried again (after an error before its first word). */
    retry: (id: string) => {
      if (busy) return;
      const t = treeRef.current.turns[id];
      if (t?.parentId) streamInto(id, requestMessages(pathOf(treeRef.current), t.parentId), false, t.model);
    },
    /** An edited question as a branch beside user turn `id`, then its reply. */
    edit: (id: string, text: string) => {
      const t = treeRef.current.turns[id];
      if (busy || !t) return;
      const content: ContentBlock[] = [...t.content.filter((b) => b.type !== "text"), { type: "text", text }];
      const { tree: next, id: nid } = addUserTurn(content, t.parentId);
      replyTo(nid, next);
    },
    /** Continues a cut or stopped reply: the partial reply is sent as the assistant's prefill. */
    continueReply: (id: string) => {
      const t = treeRef.current.turns[id];
      if (busy || !t) return;
      streamInto(id, requestMessages(pathOf(treeRef.current), id), true, t.model);
    },
    stop: () => running.current?.stop(),
    switchBranch: (id: string, delta: number) => setTree((t) => selectSibling(t, id, delta)),
    /** Puts settled turns into the tree at once (compare's replies), selecting `selectId`. */
    addTurns: (turns: Turn[], selectId: string) => {
      let next = treeRef.current;
      for (const turn of turns) next = addTurn(next, turn);
      const chosen = next.turns[selectId];
      if (chosen) {
        const key = chosen.parentId ?? "";
        next = { ...next, selected: { ...next.selected, [key]: (next.children[key] ?? []).indexOf(selectId) } };
      }
      treeRef.current = next;
      setTree(next);
    },
    /** The conversation a compare started (its first lane's `start`). */
    adoptConversation: (id: number) => {
      if (conv.current === undefined) {
        conv.current = id;
        setConversationId(id);
      }
    },
    refreshLists,
  };
}

export type ChatApi = ReturnType<typeof useChat>;

/**
 * A finished reply as a screen reader should hear it: the text of its HTML (rendered in Rust as
 * it streamed), so no markdown marks are read out; its markdown only when no HTML is at hand.
 */
export function spoken(markdown: string): string {
  const html = renderedOf(markdown);
  if (html === undefined) return markdown;
  const text = new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
  return text.replace(/\s+/g, " ").trim() || markdown;
}
