// What the library has no command for, kept in localStorage: a conversation's own title
// (rename), its branches (tree.ts) and its compare winners. Also the exports (Markdown, JSON)
// and deletes that wait out their undo window before `delete_conversation` is called.
import type { Conversation, IpcError } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { loadJson, removeKey, saveJson } from "../../../lib/storage";
import { textOf, type ChatTree, type Turn } from "./tree";

const TITLES = "specdesk.chat.titles";
const TREE = (id: number) => `specdesk.chat.tree.${id}`;
const WINNERS = (id: number) => `specdesk.chat.winners.${id}`;

const isRecord = (v: unknown): v is Record<string, string> => !!v && typeof v === "object" && !Array.isArray(v);

/** Titles given here, by conversation id. */
export function localTitles(): Record<string, string> {
  return loadJson(TITLES, isRecord) ?? {};
}

export function titleOf(c: Conversation, titles: Record<string, string> = localTitles()): string {
  return titles[String(c.id)] || c.title || "Untitled conversation";
}

export function renameConversation(id: number, title: string): void {
  const rest = Object.fromEntries(Object.entries(localTitles()).filter(([k]) => k !== String(id)));
  saveJson(TITLES, title.trim() ? { ...rest, [String(id)]: title.trim() } : rest);
}

/** Conversations whose title contains every word of `query`. */
export function searchConversations(list: Conversation[], query: string, titles: Record<string, string>): Conversation[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return list.filter((c) => words.every((w) => `${titleOf(c, titles)} ${c.model ?? ""}`.toLowerCase().includes(w)));
}

const isTree = (v: unknown): v is ChatTree => !!v && typeof v === "object" && "turns" in v && "children" in v && "selected" in v;

/** The kept branches; a reply still streaming when they were kept (the app closed) is cut off. */
export function loadTree(id: number): ChatTree | null {
  const tree = loadJson(TREE(id), isTree);
  if (!tree) return null;
  const turns = Object.fromEntries(
    Object.entries(tree.turns).map(([k, t]) => [k, t.status === "streaming" ? { ...t, status: t.content.length ? ("cut" as const) : ("error" as const), error: CLOSED } : t]),
  );
  return { ...tree, turns };
}

export const CLOSED: IpcError = { kind: "stream", message: "Specdesk closed before this reply finished. The part received is kept." };

export function saveTree(id: number, tree: ChatTree): void {
  saveJson(TREE(id), tree);
}

export interface WinnerRecord {
  prompt: string;
  models: string[];
  winner: string;
  at: string;
}

const isWinners = (v: unknown): v is WinnerRecord[] => Array.isArray(v);

export function loadWinners(id: number): WinnerRecord[] {
  return loadJson(WINNERS(id), isWinners) ?? [];
}

export function recordWinner(id: number, record: WinnerRecord): void {
  saveJson(WINNERS(id), [...loadWinners(id), record]);
}

function forgetLocal(id: number): void {
  removeKey(TREE(id));
  removeKey(WINNERS(id));
  renameConversation(id, "");
}

// ---- Deletes with undo: the call waits until the undo window has passed. ----

/** How long "Undo" is offered (the notice with an action stays 15 s). */
export const UNDO_MS = 15_000;
const pending = new Map<number, number>();

/** Hides nothing itself: schedules the delete and returns the function that undoes it. */
export function scheduleDelete(id: number, onDeleted: () => void, onError: (e: unknown) => void, ms = UNDO_MS): () => void {
  const timer = window.setTimeout(() => {
    pending.delete(id);
    call("delete_conversation", { id })
      .then(() => {
        forgetLocal(id);
        onDeleted();
      })
      .catch(onError);
  }, ms);
  pending.set(id, timer);
  return () => {
    window.clearTimeout(timer);
    pending.delete(id);
  };
}

export function isDeletePending(id: number): boolean {
  return pending.has(id);
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
    const notes = [t.status === "cut" ? "cut off" : t.status === "stopped" ? "stopped" : "", t.credits !== undefined ? `${t.credits} credits` : ""].filter(Boolean);
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
