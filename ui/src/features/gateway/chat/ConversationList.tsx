// The connection's conversations: searched (titles as the user types, what was said in them from
// the library after a pause), opened, renamed (the title is kept in the library)
// and deleted with Undo (deleted in the library at once; Undo brings it back). The first read
// brings in what an earlier version kept in localStorage (localImport.ts).
import { memo, useId, useState, useSyncExternalStore } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Conversation } from "../../../ipc/contract";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { useConnectionId } from "../../../ipc/hooks";
import { call, toIpcError } from "../../../ipc/invoke";
import { formatDateTime } from "../../../lib/format";
import { useNotice } from "../../../lib/notices";
import { deleteConversation, renameConversation, restoreConversation, searchConversations, titleOf } from "./conversations";
import { importLocalChats } from "./localImport";
import { useDebounced } from "../shared/useDebounced";
import { ListMore } from "../shared/ListMore";
import { conversationKeys } from "./useChat";

/** How many conversations the list reads at a time (the newest first); Show more reads as many again. */
const LIMIT = 200;

async function listConversations(pages: number): Promise<Conversation[]> {
  const read = async () => {
    const all: Conversation[] = [];
    for (let page = 0; page < pages; page++) {
      const part = await call("list_conversations", { limit: LIMIT, offset: page * LIMIT });
      all.push(...part);
      if (part.length < LIMIT) break;
    }
    return all;
  };
  const list = await read();
  // Titles an earlier version kept here are in the library once imported: read the list again.
  return (await importLocalChats(list)) ? read() : list;
}

// How many pages the studio reads: one count for the list and the studio that opens from it.
let pagesRead = 1;
const pageListeners = new Set<() => void>();
function usePages(): [number, () => void] {
  const pages = useSyncExternalStore(
    (changed) => {
      pageListeners.add(changed);
      return () => pageListeners.delete(changed);
    },
    () => pagesRead,
  );
  const more = () => {
    pagesRead += 1;
    for (const changed of pageListeners) changed();
  };
  return [pages, more];
}

export function useConversations() {
  const c = useConnectionId();
  const [pages] = usePages();
  return useQuery({
    queryKey: [...conversationKeys.all, c ?? "", pages],
    queryFn: () => listConversations(pages),
    enabled: c !== undefined,
    // While Show more reads, the list read so far stays (never another connection's).
    placeholderData: (before, query) => (query?.queryKey[1] === (c ?? "") ? before : undefined),
  });
}

/** How many conversations the connection has (read again whenever the list is). */
function useConversationCount() {
  const c = useConnectionId();
  return useQuery({
    queryKey: [...conversationKeys.all, c ?? "", "count"],
    queryFn: () => call("count_conversations"),
    enabled: c !== undefined,
    retry: false,
  });
}

/** Ids of the conversations whose messages hold every word of `query` (after a pause). */
function useSaidIn(query: string): Set<number> {
  const c = useConnectionId();
  const settled = useDebounced(query.trim(), 250);
  const found = useQuery({
    queryKey: ["search_conversations", c ?? "", settled],
    queryFn: () => call("search_conversations", { query: settled, limit: LIMIT }),
    enabled: c !== undefined && settled !== "",
    retry: false,
  });
  return new Set(settled === query.trim() ? (found.data ?? []).map((x) => x.id) : []);
}

/** A conversation's new title being typed: Save or Cancel. */
function RenameForm({ title, onChange, onSave, onCancel }: { title: string; onChange: (title: string) => void; onSave: () => void; onCancel: () => void }) {
  const id = useId();
  return (
    <form
      className="conv-rename"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        New title
      </label>
      <input id={id} className="input" value={title} onChange={(e) => onChange(e.target.value)} autoFocus />
      <div className="row">
        <button className="btn btn-small btn-primary" type="submit">
          Save
        </button>
        <button className="btn btn-small" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export const ConversationList = memo(function ConversationList({ activeId, onOpen, onNew, onDeleted }: { activeId?: number; onOpen: (c: Conversation) => void; onNew: () => void; onDeleted: (id: number) => void }) {
  const list = useConversations();
  const count = useConversationCount();
  const [, readMore] = usePages();
  const qc = useQueryClient();
  const connection = useConnectionId();
  const [query, setQuery] = useState("");
  const [hidden, setHidden] = useState<Set<number>>(() => new Set());
  const [renaming, setRenaming] = useState<{ id: number; title: string } | null>(null);
  const notice = useNotice();
  const toast = useErrorToast();

  // Titles and models match as the user types; what was said in a conversation is searched in
  // the library after a pause (search_conversations), and its matches join the list.
  const said = useSaidIn(query);
  const shown = (list.data ?? []).filter((c) => !hidden.has(c.id));
  const byTitle = new Set(searchConversations(shown, query).map((c) => c.id));
  const visible = query.trim() ? shown.filter((c) => byTitle.has(c.id) || said.has(c.id)) : shown;

  /** Renames in the library, then shows the new title at once (the list and the thread's heading). */
  const rename = async (c: Conversation, title: string) => {
    if (!title.trim() || title.trim() === c.title) return setRenaming(null);
    try {
      const renamed = await renameConversation(c.id, title);
      qc.setQueriesData<Conversation[] | number>({ queryKey: [...conversationKeys.all, connection ?? ""] }, (old) =>
        Array.isArray(old) ? old.map((x) => (x.id === renamed.id ? renamed : x)) : old,
      );
      setRenaming(null);
    } catch (e) {
      toast(e);
    }
  };

  const unhide = (id: number) =>
    setHidden((h) => {
      const next = new Set(h);
      next.delete(id);
      return next;
    });

  /** Out of the list at once; deleted in the library, with an Undo that brings it back. */
  const remove = async (c: Conversation) => {
    setHidden((h) => new Set(h).add(c.id));
    onDeleted(c.id);
    try {
      await deleteConversation(c.id);
    } catch (e) {
      unhide(c.id);
      toast(e);
      return;
    }
    void qc.invalidateQueries({ queryKey: [...conversationKeys.all, connection ?? ""] });
    notice(`Deleted “${titleOf(c)}”.`, {
      label: "Undo",
      run: () =>
        void restoreConversation(c.id)
          .then(() => qc.invalidateQueries({ queryKey: [...conversationKeys.all, connection ?? ""] }))
          .then(() => unhide(c.id))
          .catch(toast),
    });
  };

  return (
    <nav className="conversations" aria-label="Conversations">
      <div className="section-head">
        <h2>Conversations</h2>
        <button className="btn btn-small" type="button" onClick={onNew}>
          New chat
        </button>
      </div>
      <div className="field">
        <label htmlFor="conv-search" className="visually-hidden">
          Search conversations
        </label>
        <input id="conv-search" className="input" type="search" placeholder="Search conversations" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {list.isPending ? (
        <p className="skeleton">Loading…</p>
      ) : list.isError ? (
        <ErrorPanel error={toIpcError(list.error)} onRetry={() => void list.refetch()} />
      ) : visible.length === 0 ? (
        <p className="muted">{query ? "No conversation matches." : "No conversations yet."}</p>
      ) : (
        <ul className="conv-list">
          {visible.map((c) => (
            <li key={c.id} className="conv-item" aria-current={c.id === activeId ? "true" : undefined}>
              {renaming?.id === c.id ? (
                <RenameForm
                  title={renaming.title}
                  onChange={(title) => setRenaming({ id: c.id, title })}
                  onSave={() => void rename(c, renaming.title)}
                  onCancel={() => setRenaming(null)}
                />
              ) : (
                <>
                  <button className="conv-open" type="button" onClick={() => onOpen(c)}>
                    <span className="conv-title">{titleOf(c)}</span>
                    <span className="conv-when muted">{formatDateTime(c.updatedAt)}</span>
                  </button>
                  <div className="row conv-actions">
                    <button className="btn btn-ghost btn-small" type="button" aria-label={`Rename ${titleOf(c)}`} onClick={() => setRenaming({ id: c.id, title: titleOf(c) })}>
                      Rename
                    </button>
                    <button className="btn btn-ghost btn-small btn-danger" type="button" aria-label={`Delete ${titleOf(c)}`} onClick={() => void remove(c)}>
                      Delete
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {!query.trim() && <ListMore shown={shown.length} total={count.data} noun="conversation" more={(list.data?.length ?? 0) < (count.data ?? 0)} onMore={readMore} step={LIMIT} />}
    </nav>
  );
});
