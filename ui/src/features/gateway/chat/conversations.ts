// A conversation's own title (rename), its branches (tree.ts) and its compare winners, kept in
// the library with the conversation: per connection, and deleted with it. (Earlier versions kept
// them in localStorage; localImport.ts brings those into the library once.) Also the exports
// (Markdown, JSON) and deletes with an Undo (`delete_conversation`, `restore_conversation`).
import type { ChatWinner, Conversation, IpcError, NewChatWinner } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { formatCreditsWord } from "../../../lib/format";
import type { LiveReplyView } from "../../../bindings/LiveReplyView";
import { isTree, textOf, toBlocks, type ChatTree, type Turn } from "./tree";

export function titleOf(c: Conversation): string {
  return c.title || "Untitled conversation";
}

/** Sets the conversation's title in the library (the list is read again by the caller). */
export function renameConversation(id: number, title: string): Promise<Conversation> {
  return call("rename_conversation", { id, title: title.trim() });
}

/** Conversations whose title or model contains every word of `query`. */
export function searchConversations(list: Conversation[], query: string): Conversation[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return list.filter((c) => words.every((w) => `${titleOf(c)} ${c.model ?? ""}`.toLowerCase().includes(w)));
}

/** The conversation's kept branches as opened, and what opening changed in them. */
export interface OpenedTree {
  tree: ChatTree;
  /** A reply ended while no screen followed it: the tree differs from the one kept. */
  changed: boolean;
}

/**
 * The kept branches (null when none). A turn still streaming when they were kept is, by what
 * became of its reply: the reply streaming now (`live`, followed again) with its text so far; a
 * reply that ended while its screen was away (the conversation's newest message, complete and
 * newer than the turn) as it ended; else cut off (the app closed, even killed), with the words
 * Rust kept of it as they arrived, marked cut. A reply that had no words yet is an error.
 */
export async function loadTree(id: number, live?: LiveReplyView | null): Promise<OpenedTree | null> {
  const tree = await call("conversation_tree", { conversationId: id });
  if (!isTree(tree)) return null;
  const open = Object.values(tree.turns).filter((t) => t.status === "streaming" && t.id !== live?.turnId);
  const newest = open.length === 1 ? (await call("conversation_messages", { conversationId: id })).at(-1) : undefined;
  const reply = newest?.role === "assistant" ? newest : undefined;
  const kept = reply ? toBlocks(reply.content) : [];
  let changed = false;
  const turns = Object.fromEntries(
    Object.entries(tree.turns).map(([k, t]): [string, Turn] => {
      if (t.status !== "streaming") return [k, t];
      if (live && t.id === live.turnId) return [k, { ...t, content: [{ type: "text", text: live.base + live.text }] }];
      if (reply && !reply.cut && Date.parse(reply.createdAt) >= Date.parse(t.createdAt)) {
        changed = true;
        const done: Turn = { ...t, content: kept, status: "done", error: undefined };
        if (reply.creditsCharged !== undefined) done.credits = reply.creditsCharged;
        if (reply.requestId) done.requestId = reply.requestId;
        if (reply.model) done.model = reply.model;
        return [k, done];
      }
      const content = reply?.cut && textOf(kept).length > textOf(t.content).length ? kept : t.content;
      return [k, { ...t, content, status: content.length ? ("cut" as const) : ("error" as const), error: CLOSED }];
    }),
  );
  return { tree: { ...tree, turns }, changed };
}

export const CLOSED: IpcError = { kind: "stream", message: "Specdesk closed before this reply finished. The part received is kept." };

export async function saveTree(id: number, tree: ChatTree): Promise<void> {
  await call("save_conversation_tree", { conversationId: id, tree });
}

export function loadWinners(id: number): Promise<ChatWinner[]> {
  return call("chat_winners", { conversationId: id });
}

export function recordWinner(id: number, winner: NewChatWinner): Promise<ChatWinner> {
  return call("record_chat_winner", { conversationId: id, winner });
}

// ---- Deletes with undo: Rust keeps a deleted conversation aside while its Undo is offered. ----

/** Deletes conversation `id` at once (out of every list; Rust removes it for good at the next
 * start). What an earlier version kept here for it and could not bring in yet stays, so an Undo
 * loses nothing. */
export async function deleteConversation(id: number): Promise<void> {
  await call("delete_conversation", { id });
}

/** The Undo of a delete: the conversation back in its place, with everything it had. */
export function restoreConversation(id: number): Promise<Conversation> {
  return call("restore_conversation", { id });
}

// ---- Exports ----

function speaker(t: Turn): string {
  return t.role === "user" ? "You" : (t.model ?? "Assistant");
}

function blockMarkdown(t: Turn): string {
  return t.content
    .map((b) => {
      switch (b.type) {
        case "text":
          return b.text;
        case "image":
          return "_[image]_";
        case "tool_use":
          return `Tool call \`${b.name}\`:\n\n\`\`\`json\n${JSON.stringify(b.input, null, 2)}\n\`\`\``;
        case "tool_result":
          return `Tool result:\n\n\`\`\`\n${typeof b.content === "string" ? b.content : JSON.stringify(b.content ?? null, null, 2)}\n\`\`\``;
        default:
          return "";
      }
    })
    .filter(Boolean)
    .join("\n\n");
}

/** The visible thread as Markdown. */
export function toMarkdown(title: string, path: Turn[]): string {
  const turns = path.map((t) => {
    const notes = [t.status === "cut" ? "cut off" : t.status === "stopped" ? "stopped" : "", t.credits !== undefined ? formatCreditsWord(t.credits) : ""].filter(Boolean);
    return `### ${speaker(t)}${notes.length ? ` (${notes.join(", ")})` : ""}\n\n${blockMarkdown(t)}`;
  });
  return `# ${title}\n\n${turns.join("\n\n")}\n`;
}

/** The visible thread as JSON (Messages-shaped turns with their model and credits). */
export function toJson(conversation: Conversation | null, title: string, path: Turn[]): string {
  return JSON.stringify(
    {
      title,
      conversationId: conversation?.id ?? null,
      model: conversation?.model ?? null,
      messages: path.map((t) => ({ role: t.role, content: t.content, model: t.model, credits: t.credits, status: t.status, createdAt: t.createdAt })),
    },
    null,
    2,
  );
}

/** The reply's text, for copying. */
export function plainText(t: Turn): string {
  return textOf(t.content);
}
