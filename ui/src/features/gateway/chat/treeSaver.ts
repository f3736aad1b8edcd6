// Keeps a conversation's branches in the library without a write per streamed word: a settled
// tree is written at once; while a reply streams, at most one write a second (the latest tree
// always follows), so a reply cut by a closed app is found again with most of its words. Writes
// go one at a time, in order, so an older tree never lands after a newer one.
import type { ChatTree } from "./tree";

export interface TreeSaver {
  /** Asks for `tree` to be kept as conversation `id`'s branches. */
  save(id: number, tree: ChatTree, streaming: boolean): void;
  /** Writes what waits now (the screen is leaving). */
  flush(): void;
}

export function createTreeSaver(write: (id: number, tree: ChatTree) => Promise<unknown>, everyMs = 1000): TreeSaver {
  // The latest tree asked for and not yet due, and the trees due to be written, by conversation.
  const waiting = new Map<number, ChatTree>();
  const due = new Map<number, ChatTree>();
  let writing = false;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const drain = async () => {
    if (writing) return;
    writing = true;
    for (let next = due.entries().next(); !next.done; next = due.entries().next()) {
      const [id, tree] = next.value;
      due.delete(id);
      lastWrite = Date.now();
      // A failed write is not retried on its own: the next change writes the whole tree again,
      // and the thread itself is always in the library's messages.
      await write(id, tree).catch(() => undefined);
    }
    writing = false;
  };

  const writeNow = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const [id, tree] of waiting) due.set(id, tree);
    waiting.clear();
    void drain();
  };

  return {
    save(id, tree, streaming) {
      waiting.set(id, tree);
      if (!streaming) return writeNow();
      if (timer !== undefined) return;
      const wait = lastWrite + everyMs - Date.now();
      if (wait <= 0) writeNow();
      else timer = setTimeout(writeNow, wait);
    },
    flush: writeNow,
  };
}
