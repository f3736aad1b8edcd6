// One-time import: the titles, branches and compare winners an earlier version kept in this web
// view's localStorage are written to the library, then removed here, so nothing the user made is
// lost. The library reaches only conversations of the connection in use, so only the listed
// conversations are brought in; another connection's wait here until that connection is used.
import type { Conversation, NewChatWinner } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { loadJson, removeKey, saveJson, storedKeys } from "../../../lib/storage";
import { importById, settled } from "../shared/importOnce";
import { isTree } from "./tree";

// The keys earlier versions wrote (never written any more).
const TITLES = "specdesk.chat.titles";
const TREE = "specdesk.chat.tree.";
const WINNERS = "specdesk.chat.winners.";

const isList = (v: unknown): v is unknown[] => Array.isArray(v);

function isWinner(v: unknown): v is Required<NewChatWinner> {
  if (!v || typeof v !== "object") return false;
  const w = v as Record<string, unknown>;
  return typeof w.prompt === "string" && typeof w.winner === "string" && typeof w.at === "string" && Array.isArray(w.models) && w.models.every((m) => typeof m === "string");
}

/** The conversation ids of the keys starting with `prefix`. */
function idsUnder(prefix: string): number[] {
  return storedKeys(prefix)
    .map((k) => Number(k.slice(prefix.length)))
    .filter(Number.isInteger);
}

async function importTitles(ids: Set<number>): Promise<boolean> {
  return importById(TITLES, ids, (id, title) => (typeof title === "string" ? call("rename_conversation", { id, title }) : null));
}

async function importTrees(ids: Set<number>): Promise<void> {
  for (const id of idsUnder(TREE).filter((i) => ids.has(i))) {
    const tree = loadJson(`${TREE}${id}`, isTree);
    if (!tree || (await settled(() => call("save_conversation_tree", { conversationId: id, tree })))) removeKey(`${TREE}${id}`);
  }
}

async function importWinners(ids: Set<number>): Promise<void> {
  for (const id of idsUnder(WINNERS).filter((i) => ids.has(i))) {
    const key = `${WINNERS}${id}`;
    const waiting = (loadJson(key, isList) ?? []).filter(isWinner);
    // One at a time, each removed once written, so a failure part way never records one twice.
    while (waiting.length) {
      const [next] = waiting;
      if (!next || !(await settled(() => call("record_chat_winner", { conversationId: id, winner: next })))) break;
      waiting.shift();
      saveJson(key, waiting);
    }
    if (!waiting.length) removeKey(key);
  }
}

/** Whether anything an earlier version kept is still here. */
export function hasLocalChats(): boolean {
  return storedKeys(TITLES).length > 0 || storedKeys(TREE).length > 0 || storedKeys(WINNERS).length > 0;
}

let running: Promise<boolean> | null = null;

/**
 * Brings what is kept here for the listed conversations (the connection in use's) into the
 * library; true when a title changed (so the list is read again). What fails for a reason that
 * may pass stays here and is tried again on the next load.
 */
export function importLocalChats(list: Conversation[]): Promise<boolean> {
  if (!hasLocalChats()) return Promise.resolve(false);
  running ??= (async () => {
    const ids = new Set(list.map((c) => c.id));
    const renamed = await importTitles(ids);
    await importTrees(ids);
    await importWinners(ids);
    return renamed;
  })().finally(() => {
    running = null;
  });
  return running;
}
