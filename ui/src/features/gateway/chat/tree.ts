// A conversation as a tree of turns, so a regenerated reply or an edited question becomes a
// branch beside the earlier one (kept and switchable, "2 / 3"). The visible thread follows the
// selected child of each turn from the root. Pure functions over plain data, kept in the library
// with the conversation (conversations.ts) beside its linear thread of messages.
import type { ConversationMessage, IpcError } from "../../../ipc/contract";
import type { ContentBlock } from "../../../bindings/ContentBlock";
import type { Message } from "../../../bindings/Message";

export type TurnStatus = "done" | "streaming" | "cut" | "stopped" | "error";

export interface Turn {
  id: string;
  /** The turn it answers or follows; null for the first. */
  parentId: string | null;
  role: "user" | "assistant";
  content: ContentBlock[];
  status: TurnStatus;
  model?: string;
  /** Credits the reply cost, once its stream settled. */
  credits?: number;
  /** The service's request id of the reply (from its stream's end, or the library). */
  requestId?: string;
  /** The balance after the reply, when the service's headers gave it (live only). */
  balanceAfter?: number;
  error?: IpcError;
  /** Milliseconds from sending to the first token. */
  ttftMs?: number;
  createdAt: string;
}

export interface ChatTree {
  turns: Record<string, Turn>;
  /** Child ids by parent id ("" for the root), oldest first. */
  children: Record<string, string[]>;
  /** The selected child index by parent id. */
  selected: Record<string, number>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Whether `v` has a tree's shape (what the library or an earlier version's storage kept). */
export function isTree(v: unknown): v is ChatTree {
  return isRecord(v) && isRecord(v.turns) && isRecord(v.children) && isRecord(v.selected);
}

const ROOT = "";
let counter = 0;

export function newTurnId(): string {
  counter += 1;
  return `t${Date.now().toString(36)}${counter.toString(36)}`;
}

export function emptyTree(): ChatTree {
  return { turns: {}, children: {}, selected: {} };
}

/** Adds `turn` as the last child of its parent and selects it. */
export function addTurn(tree: ChatTree, turn: Turn): ChatTree {
  const key = turn.parentId ?? ROOT;
  const siblings = [...(tree.children[key] ?? []), turn.id];
  return {
    turns: { ...tree.turns, [turn.id]: turn },
    children: { ...tree.children, [key]: siblings },
    selected: { ...tree.selected, [key]: siblings.length - 1 },
  };
}

export function updateTurn(tree: ChatTree, id: string, patch: Partial<Turn> | ((t: Turn) => Partial<Turn>)): ChatTree {
  const turn = tree.turns[id];
  if (!turn) return tree;
  const p = typeof patch === "function" ? patch(turn) : patch;
  return { ...tree, turns: { ...tree.turns, [id]: { ...turn, ...p } } };
}

/** The visible thread: from the root, each turn's selected child. */
export function pathOf(tree: ChatTree): Turn[] {
  const out: Turn[] = [];
  let key = ROOT;
  for (;;) {
    const kids = tree.children[key];
    if (!kids?.length) return out;
    const id = kids[Math.min(tree.selected[key] ?? kids.length - 1, kids.length - 1)];
    const turn = id ? tree.turns[id] : undefined;
    if (!turn) return out;
    out.push(turn);
    key = turn.id;
  }
}

/** The turn's place among its siblings: `{ index: 1, count: 3 }` reads "2 / 3". */
export function siblingsOf(tree: ChatTree, id: string): { index: number; count: number } {
  const turn = tree.turns[id];
  const kids = tree.children[turn?.parentId ?? ROOT] ?? [];
  return { index: Math.max(0, kids.indexOf(id)), count: kids.length };
}

/** Selects the sibling `delta` away from turn `id` (clamped). */
export function selectSibling(tree: ChatTree, id: string, delta: number): ChatTree {
  const turn = tree.turns[id];
  if (!turn) return tree;
  const key = turn.parentId ?? ROOT;
  const kids = tree.children[key] ?? [];
  const next = Math.min(kids.length - 1, Math.max(0, kids.indexOf(id) + delta));
  return { ...tree, selected: { ...tree.selected, [key]: next } };
}

/** Selects turn `id` (and so the branch it is on). */
export function selectTurn(tree: ChatTree, id: string): ChatTree {
  const turn = tree.turns[id];
  if (!turn) return tree;
  const key = turn.parentId ?? ROOT;
  return { ...tree, selected: { ...tree.selected, [key]: Math.max(0, (tree.children[key] ?? []).indexOf(id)) } };
}

/** A message's content as blocks. */
export function toBlocks(content: unknown): ContentBlock[] {
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  if (Array.isArray(content)) return content.filter((b): b is ContentBlock => !!b && typeof b === "object" && "type" in b);
  return [];
}

/** The text of blocks (text blocks only, joined). */
export function textOf(blocks: ContentBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** A linear tree from the library's messages. */
export function fromMessages(messages: ConversationMessage[]): ChatTree {
  let tree = emptyTree();
  let parent: string | null = null;
  for (const m of messages) {
    const turn: Turn = {
      id: `m${m.id}`,
      parentId: parent,
      role: m.role === "assistant" ? "assistant" : "user",
      content: toBlocks(m.content),
      // A reply the library kept cut off (its stream broke, or the app closed) stays marked.
      status: m.cut ? "cut" : "done",
      model: m.model,
      credits: m.creditsCharged,
      requestId: m.requestId,
      createdAt: m.createdAt,
    };
    tree = addTurn(tree, turn);
    parent = turn.id;
  }
  return tree;
}

/**
 * The Messages of a thread, up to and including `upTo` (the whole path when absent). Turns with
 * nothing to send (a reply that failed before its first word) are left out.
 */
export function requestMessages(path: Turn[], upTo?: string): Message[] {
  const end = upTo ? path.findIndex((t) => t.id === upTo) : path.length - 1;
  return path
    .slice(0, end + 1)
    .filter((t) => t.content.length > 0 && !(t.content.length === 1 && t.content[0]?.type === "text" && !t.content[0].text))
    .map((t) => ({ role: t.role, content: t.content }));
}
