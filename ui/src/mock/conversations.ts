// The mock's answers for the conversations of the library (crates/core library/chat.rs and
// chat_state.rs): listed per connection, their messages, renamed, their branches (the chat
// studio's tree) and compare winners kept, and all of it deleted together. As in Rust, a
// conversation of another connection than the one in use is not found by the new commands.
import type { Conversation } from "../ipc/contract";
import { ipcError, type Handler } from "./registry";
import { clone, now, type MockDb } from "./state";

type ConversationCommand =
  | "list_conversations"
  | "count_conversations"
  | "search_conversations"
  | "conversation_messages"
  | "delete_conversation"
  | "restore_conversation"
  | "rename_conversation"
  | "conversation_tree"
  | "save_conversation_tree"
  | "record_chat_winner"
  | "chat_winners"
  | "live_reply";

const GONE = "That conversation is no longer in the library.";

/** Conversation `id` of the connection in use, or the `notFound` error Rust answers. */
function owned(db: MockDb, id: number): Conversation {
  const c = db.conversations.find((x) => x.id === id && x.profileId === db.settings.activeProfileId);
  if (!c) throw ipcError("notFound", GONE);
  return c;
}

/** The connection in use's conversations, those deleted (kept for their Undo) left out. */
const listed = (db: MockDb): Conversation[] =>
  db.conversations.filter((c) => c.profileId === db.settings.activeProfileId && !db.deletedConversations.includes(c.id));

const isObject = (v: unknown): boolean => !!v && typeof v === "object" && !Array.isArray(v);

export const conversationHandlers: { [C in ConversationCommand]: Handler<C> } = {
  list_conversations: ({ limit, offset }, { db }) =>
    clone(listed(db).slice(offset, offset + limit)),
  count_conversations: (_a, { db }) => listed(db).length,
  // As Rust's library/chat_search.rs: title, model and the messages' text, every word, any case.
  search_conversations: ({ query, limit }, { db }) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const textOf = (content: unknown): string =>
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content
              .map((b: { type?: string; text?: string; input?: unknown; content?: unknown }) =>
                b.type === "text" ? (b.text ?? "") : b.type === "tool_use" ? JSON.stringify(b.input ?? "") : b.type === "tool_result" ? textOf(b.content) : "",
              )
              .join("\n")
          : "";
    const said = (c: Conversation) =>
      [c.title, c.model ?? "", ...db.messages.filter((m) => m.conversationId === c.id).map((m) => textOf(m.content))].join("\n").toLowerCase();
    return clone(listed(db).filter((c) => words.every((w) => said(c).includes(w))).slice(0, limit));
  },
  // The mock's replies are whole when chat_stream answers: none is ever still streaming.
  live_reply: () => null,
  conversation_messages: ({ conversationId }, { db }) => clone(db.messages.filter((m) => m.conversationId === conversationId)),
  // As in Rust, a deleted conversation is kept aside (out of every list) until its Undo is over;
  // the mock keeps it for the page's life.
  delete_conversation: ({ id }, { db }) => {
    if (!db.conversations.some((x) => x.id === id) || db.deletedConversations.includes(id)) throw ipcError("notFound", GONE);
    db.deletedConversations.push(id);
    return null;
  },
  restore_conversation: ({ id }, { db }) => {
    const c = db.conversations.find((x) => x.id === id);
    if (!c || !db.deletedConversations.includes(id)) throw ipcError("notFound", "That conversation can no longer be restored: it was deleted for good.");
    db.deletedConversations = db.deletedConversations.filter((x) => x !== id);
    return clone(c);
  },
  rename_conversation: ({ id, title }, { db }) => {
    const trimmed = title.trim();
    if (!trimmed) throw ipcError("invalidInput", "Give the conversation a title.", { field: "title" });
    const c = owned(db, id);
    // A rename is no activity: the list keeps its order and dates.
    c.title = trimmed;
    return clone(c);
  },
  conversation_tree: ({ conversationId }, { db }) => {
    owned(db, conversationId);
    const tree = db.conversationTrees[conversationId];
    return isObject(tree) ? clone(tree) : null;
  },
  save_conversation_tree: ({ conversationId, tree }, { db }) => {
    if (!isObject(tree)) throw ipcError("invalidInput", "The conversation's branches could not be kept: they are not a JSON object.", { field: "tree" });
    owned(db, conversationId);
    db.conversationTrees[conversationId] = clone(tree);
    return null;
  },
  record_chat_winner: ({ conversationId, winner }, { db }) => {
    if (!winner.models.includes(winner.winner)) throw ipcError("invalidInput", "The winner must be one of the models compared.", { field: "winner" });
    if (winner.at !== undefined && Number.isNaN(Date.parse(winner.at))) {
      throw ipcError("invalidInput", "The time of the pick is not a date and time (RFC 3339).", { field: "at" });
    }
    owned(db, conversationId);
    const id = (db.chatWinners.at(-1)?.id ?? 0) + 1;
    const kept = { id, conversationId, prompt: winner.prompt, models: [...winner.models], winner: winner.winner, at: winner.at ?? now(db) };
    db.chatWinners.push(kept);
    return clone(kept);
  },
  chat_winners: ({ conversationId }, { db }) => {
    owned(db, conversationId);
    return clone(db.chatWinners.filter((w) => w.conversationId === conversationId));
  },
};
