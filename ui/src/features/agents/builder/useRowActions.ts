// What the builder's rows can be asked to do: change, move, duplicate, delete (with an Undo),
// open their details, add a task, take imported tasks; and how to show a place among them (its
// page, its details, then the focus once rendered). Each keeps the page and the focus where the
// user expects them (Builder.tsx shows the rows).
import { useEffect, useRef, useState } from "react";
import { useNotice } from "../../../lib/notices";
import { cellId, CONCURRENCY_ID } from "./ids";
import type { ImportResult } from "./importTasks";
import { DETAIL_CELLS, MAX_TASKS, duplicateRow, emptyRow, isBlankRow, type BuilderDraft, type Cell, type TaskRow } from "./model";
import type { RowActions } from "./TaskTable";

/** A place to move the focus to: a cell of a row, or the tasks-at-once field. */
export type Focus = { rowId: string; cell: Cell } | "concurrency";

/** What an import said (in the builder, under the import bar). */
export type ImportMessage = { ok: boolean; text: string };

type SetOpen = (update: (open: ReadonlySet<string>) => ReadonlySet<string>) => void;

/**
 * How to show a place: its page and its details opened, then the focus on it once the render
 * that shows it is done (the tick makes that render happen when nothing else changes).
 */
export function useShowPlace(rows: TaskRow[], setPage: (page: number) => void, setOpen: SetOpen, pageSize: number) {
  const focusRef = useRef<Focus | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  useEffect(() => {
    const focus = focusRef.current;
    if (!focus) return;
    focusRef.current = null;
    const id = focus === "concurrency" ? CONCURRENCY_ID : cellId(focus.rowId, focus.cell);
    const el = document.getElementById(id);
    el?.scrollIntoView?.({ block: "center" });
    el?.focus();
  }, [focusTick]);
  return (place: Focus) => {
    if (place !== "concurrency") {
      const index = rows.findIndex((r) => r.id === place.rowId);
      if (index >= 0) setPage(Math.floor(index / pageSize));
      if (DETAIL_CELLS.has(place.cell)) setOpen((o) => new Set(o).add(place.rowId));
    }
    focusRef.current = place;
    setFocusTick((t) => t + 1);
  };
}

export function useRowActions({
  rows,
  setDraft,
  setPage,
  setOpen,
  showPlace,
  setImportMessage,
  pageSize,
}: {
  rows: TaskRow[];
  setDraft: (update: (d: BuilderDraft) => BuilderDraft) => void;
  setPage: (page: number) => void;
  setOpen: SetOpen;
  showPlace: (place: Focus) => void;
  setImportMessage: (message: ImportMessage | null) => void;
  pageSize: number;
}) {
  const notice = useNotice();
  const setRows = (next: TaskRow[]) => setDraft((d) => ({ ...d, rows: next.length > 0 ? next : [emptyRow()] }));
  const full = () => {
    if (rows.length < MAX_TASKS) return false;
    notice(`A batch holds at most ${MAX_TASKS} tasks.`);
    return true;
  };

  const actions: RowActions = {
    change: (rowId, patch) => setDraft((d) => ({ ...d, rows: d.rows.map((r) => (r.id === rowId ? { ...r, ...patch } : r)) })),
    move: (rowId, by) => {
      const i = rows.findIndex((r) => r.id === rowId);
      const j = i + by;
      if (i < 0 || j < 0 || j >= rows.length) return;
      const next = [...rows];
      const [moved] = next.splice(i, 1);
      if (moved) next.splice(j, 0, moved);
      setRows(next);
      setPage(Math.floor(j / pageSize));
      // Focus stays on the moved row's button, or its other one at the top or bottom.
      const edge = (by < 0 && j === 0) || (by > 0 && j === rows.length - 1);
      window.requestAnimationFrame(() => document.getElementById(`${rowId}-${edge === (by < 0) ? "down" : "up"}`)?.focus());
    },
    duplicate: (rowId) => {
      if (full()) return;
      const i = rows.findIndex((r) => r.id === rowId);
      const row = rows[i];
      if (!row) return;
      const copy = duplicateRow(row);
      setRows([...rows.slice(0, i + 1), copy, ...rows.slice(i + 1)]);
      setPage(Math.floor((i + 1) / pageSize));
      showPlace({ rowId: copy.id, cell: "url" });
    },
    remove: (rowId) => {
      const before = rows;
      const i = rows.findIndex((r) => r.id === rowId);
      const next = rows.filter((r) => r.id !== rowId);
      setRows(next);
      const after = next[Math.min(i, next.length - 1)];
      if (after) window.requestAnimationFrame(() => document.getElementById(`${after.id}-delete`)?.focus());
      notice(`Task ${i + 1} was deleted.`, { label: "Undo", run: () => setRows(before) });
    },
    toggle: (rowId) =>
      setOpen((o) => {
        const next = new Set(o);
        if (next.has(rowId)) next.delete(rowId);
        else next.add(rowId);
        return next;
      }),
  };

  const addTask = () => {
    if (full()) return;
    const row = emptyRow();
    setRows([...rows, row]);
    setPage(Math.floor(rows.length / pageSize));
    showPlace({ rowId: row.id, cell: "url" });
  };

  const takeImport = (result: ImportResult, source: string) => {
    if (!result.ok) {
      setImportMessage({ ok: false, text: result.message });
      return;
    }
    // Blank rows give way to what was imported; anything typed stays, the new tasks after it.
    const kept = rows.filter((r) => !isBlankRow(r));
    const total = kept.length + result.rows.length;
    if (total > MAX_TASKS) {
      setImportMessage({
        ok: false,
        text: `${source} adds ${result.rows.length} tasks to the ${kept.length} already here; a batch holds at most ${MAX_TASKS}. Nothing was imported.`,
      });
      return;
    }
    setRows([...kept, ...result.rows]);
    setPage(Math.floor(kept.length / pageSize));
    const n = result.rows.length;
    setImportMessage({
      ok: true,
      text: `Added ${n.toLocaleString("en-US")} ${n === 1 ? "task" : "tasks"} from ${source}.${result.note ? ` ${result.note}` : ""}`,
    });
  };

  return { actions, addTask, takeImport };
}
