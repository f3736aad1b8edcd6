// The batch builder: the task table with its toolbar, checks as the user types (local at once,
// `check_tasks` debounced), tasks at once, the cost preview and Run (`submit_batch`). The draft
// is kept as the user types (input values in the keychain) and cleared once the batch is sent.
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { ErrorKind, type BatchRunMode, type BrowserTask, type IpcError, type Job } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { plural } from "../../../lib/format";
import { useNotice } from "../../../lib/notices";
import { draftProblems, firstProblem, problemSentence, remoteCheck, type RemoteCheck } from "./checks";
import { cellId, CONCURRENCY_ID } from "./ids";
import { ImportBar } from "./ImportBar";
import type { ImportResult } from "./importTasks";
import {
  DEFAULT_CONCURRENCY,
  DETAIL_CELLS,
  MAX_TASKS,
  duplicateRow,
  emptyDraft,
  emptyRow,
  isBlankRow,
  isEmptyDraft,
  rowToTask,
  valuesMissing,
  wholeNumber,
  type BuilderDraft,
  type Cell,
  type TaskRow,
} from "./model";
import { RunBar } from "./RunBar";
import { TaskTable, type RowActions } from "./TaskTable";
import { useBuilderDraft } from "./useBuilderDraft";
import { useRefusedSend } from "./useRefusedSend";
import { useTaskChecks } from "./useTaskChecks";

/** The service refused the batch as a whole (a `400` that names no task field): too big for it, maybe. */
function refusedWhole(e: IpcError): boolean {
  return e.kind === ErrorKind.invalidInput && e.status === 400 && !e.field;
}

/** Whether any task of the draft has an input (whose value the keychain would keep). */
function hasInputs(d: BuilderDraft): boolean {
  return d.rows.some((r) => r.inputs.length > 0);
}

/** What a keychain's refusal means for the draft's input values (its title names the cause). */
function valuesNotKept(e: IpcError): string {
  const lost = "the input values you type here are lost when you close Specdesk.";
  if (e.kind === ErrorKind.keychainLocked) return `Until you unlock it, ${lost} Unlock it, then try again: they are kept from then on.`;
  if (e.kind === ErrorKind.keychainUnavailable) return `Specdesk keeps input values in your system keychain, and none answers: ${lost}`;
  return `Your keychain refused them (${e.message}): ${lost}`;
}

/** Rows shown at a time (a batch can hold 1000). */
export const PAGE_SIZE = 50;

export function useSubmitBatch() {
  return useMutation({
    mutationFn: (v: { tasks: BrowserTask[]; concurrency?: number; mode: BatchRunMode }) => call("submit_batch", v),
  });
}

type Focus = { rowId: string; cell: Cell } | "concurrency";

export function Builder({
  onSubmitted,
  onRefused,
  initialRows,
}: {
  /** A batch sent live or waited for was refused by the service (its tasks are back in the draft). */
  onRefused?: (jobId: number) => void;
  /** `rows`: the rows as sent, in the batch's order (a caller that prefilled them knows each by its id). */
  onSubmitted: (job: Job, tasks: number, rows: TaskRow[]) => void;
  /** Rows to start from (an acceptance run's tasks): a draft of its own, not kept; the user's batch draft is left as it is. */
  initialRows?: TaskRow[];
}) {
  const kept = useBuilderDraft();
  const given = useState<BuilderDraft>(() => ({ rows: initialRows?.length ? initialRows : [emptyRow()], concurrency: DEFAULT_CONCURRENCY }));
  const [draft, setDraft] = initialRows ? given : kept;
  const valuesKept = initialRows ? "unknown" : kept[2];
  const retryKeep = kept[3];
  const { remote, checking } = useTaskChecks(draft);
  const [sendCheck, setSendCheck] = useState<RemoteCheck | null>(null);
  const problems = useMemo(() => draftProblems(draft, remote, sendCheck), [draft, remote, sendCheck]);
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [importMessage, setImportMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  // How many tasks the service refused whole (a split offers half of them).
  const [refused, setRefused] = useState<number | null>(null);
  const [mode, setMode] = useState<BatchRunMode>("live");
  // A place to focus once the render that shows it is done (it may be on another page, or in
  // closed details); the tick makes that render happen when nothing else changes.
  const focusRef = useRef<Focus | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const submit = useSubmitBatch();
  const notice = useNotice();
  // A live or waited-for batch the service refuses comes back: its tasks return to the draft
  // (before anything typed since), with the reason and its actions.
  const watchSend = useRefusedSend((sent, error) => {
    setDraft((d) => ({
      rows: [...sent.rows, ...d.rows.filter((r) => !isBlankRow(r) && !sent.rows.some((s) => s.id === r.id))],
      concurrency: isEmptyDraft(d) ? sent.concurrency : d.concurrency,
    }));
    setPage(0);
    setImportMessage(null);
    setFailure(error);
    setRefused(refusedWhole(error) ? sent.rows.length : null);
    onRefused?.(sent.jobId);
  });

  const rows = draft.rows;
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const start = current * PAGE_SIZE;

  useEffect(() => {
    const focus = focusRef.current;
    if (!focus) return;
    focusRef.current = null;
    const id = focus === "concurrency" ? CONCURRENCY_ID : cellId(focus.rowId, focus.cell);
    const el = document.getElementById(id);
    el?.scrollIntoView?.({ block: "center" });
    el?.focus();
  }, [focusTick]);

  const showPlace = (place: Focus) => {
    if (place !== "concurrency") {
      const index = rows.findIndex((r) => r.id === place.rowId);
      if (index >= 0) setPage(Math.floor(index / PAGE_SIZE));
      if (DETAIL_CELLS.has(place.cell)) setOpen((o) => new Set(o).add(place.rowId));
    }
    focusRef.current = place;
    setFocusTick((t) => t + 1);
  };

  const setRows = (next: TaskRow[]) => setDraft((d) => ({ ...d, rows: next.length > 0 ? next : [emptyRow()] }));

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
      setPage(Math.floor(j / PAGE_SIZE));
      // Focus stays on the moved row's button, or its other one at the top or bottom.
      const edge = (by < 0 && j === 0) || (by > 0 && j === rows.length - 1);
      window.requestAnimationFrame(() => document.getElementById(`${rowId}-${edge === (by < 0) ? "down" : "up"}`)?.focus());
    },
    duplicate: (rowId) => {
      if (rows.length >= MAX_TASKS) {
        notice(`A batch holds at most ${MAX_TASKS} tasks.`);
        return;
      }
      const i = rows.findIndex((r) => r.id === rowId);
      const row = rows[i];
      if (!row) return;
      const copy = duplicateRow(row);
      setRows([...rows.slice(0, i + 1), copy, ...rows.slice(i + 1)]);
      setPage(Math.floor((i + 1) / PAGE_SIZE));
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
    if (rows.length >= MAX_TASKS) {
      notice(`A batch holds at most ${MAX_TASKS} tasks.`);
      return;
    }
    const row = emptyRow();
    setRows([...rows, row]);
    setPage(Math.floor(rows.length / PAGE_SIZE));
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
    setPage(Math.floor(kept.length / PAGE_SIZE));
    const n = result.rows.length;
    setImportMessage({
      ok: true,
      text: `Added ${n.toLocaleString("en-US")} ${n === 1 ? "task" : "tasks"} from ${source}.${result.note ? ` ${result.note}` : ""}`,
    });
  };

  const sentence = problemSentence(problems) ?? (problems.batch[0] ? problems.batch[0] : null);
  const first = firstProblem(draft, problems);
  const missing = valuesMissing(draft);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (sentence || checking || submit.isPending) {
      if (first) showPlace(first);
      return;
    }
    await run(draft.rows.length);
  };

  /**
   * Sends the draft's first `count` rows as one batch. All of them: the draft is cleared (only
   * when nothing changed while it was sending: later edits are a new draft). Fewer (a split
   * batch): the rows sent leave the draft and the rest wait in it for the next Run.
   */
  const run = async (count: number) => {
    setFailure(null);
    setRefused(null);
    const sent = draft;
    const sentRows = sent.rows.slice(0, count);
    const tasks = sentRows.map((r) => rowToTask(r));
    const concurrency = wholeNumber(sent.concurrency);
    try {
      const job = await submit.mutateAsync(concurrency === undefined ? { tasks, mode } : { tasks, concurrency, mode });
      const rest = sent.rows.length - count;
      if (rest === 0) {
        setDraft((d) => (d === sent ? emptyDraft() : d));
        setImportMessage(null);
      } else {
        const gone = new Set(sentRows.map((r) => r.id));
        setDraft((d) => ({ ...d, rows: d.rows.filter((r) => !gone.has(r.id)) }));
        setImportMessage({
          ok: true,
          text: `The first ${plural(count, "task")} went as one batch; the other ${plural(rest, "task")} wait here. Run them when you are ready.`,
        });
      }
      setSendCheck(null);
      setOpen(new Set());
      setPage(0);
      onSubmitted(job, tasks.length, sentRows);
      // After: a refusal that came before this answer undoes what onSubmitted opened.
      if (!job.remoteId) watchSend({ jobId: job.id, rows: sentRows, concurrency: sent.concurrency }, job);
    } catch (err) {
      const ipc = toIpcError(err);
      if (ipc.kind === ErrorKind.invalidInput && ipc.field) {
        const check = remoteCheck(sent.rows, sent.concurrency, [ipc]);
        setSendCheck(check);
        const place = firstProblem(sent, draftProblems(sent, check));
        if (place) showPlace(place);
        else setFailure(ipc);
      } else {
        setFailure(ipc);
        if (refusedWhole(ipc)) setRefused(count);
      }
    }
  };
  const half = refused !== null && refused > 1 ? Math.ceil(refused / 2) : null;

  return (
    <section className="card builder" aria-labelledby="builder-title">
      <h2 id="builder-title">New batch</h2>
      <p className="muted">
        Each task opens its start page in a browser and does what its instruction says. Fill in the rows, or paste or import them.
      </p>
      <form onSubmit={(e) => void send(e)} noValidate aria-label="New batch">
        <ImportBar rows={rows} onAdd={addTask} onImport={takeImport} />
        {importMessage && (
          <p className={importMessage.ok ? "import-message" : "import-message error-text"} role={importMessage.ok ? "status" : "alert"}>
            {importMessage.text}
          </p>
        )}
        {typeof valuesKept === "object" && hasInputs(draft) && valuesKept.kind !== failure?.kind && (
          // Where the values would be kept refuses them: said with the keychain's next step.
          <ErrorPanel error={{ ...valuesKept, message: valuesNotKept(valuesKept) }} onRetry={retryKeep} />
        )}
        {missing > 0 && (
          <p className="warn-text values-missing">
            {missing === 1 ? "1 input has no value" : `${missing} inputs have no value`}: enter {missing === 1 ? "it" : "them"} in the task
            details.
          </p>
        )}
        {problems.batch.map((b) => (
          <p key={b} className="error-text">
            {b}
          </p>
        ))}
        <TaskTable rows={rows.slice(start, start + PAGE_SIZE)} start={start} total={rows.length} problems={problems.rows} open={open} actions={actions} />
        {pages > 1 && (
          <nav className="row pager" aria-label="Pages of tasks">
            <button className="btn" type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
              Previous tasks
            </button>
            <span aria-live="polite">
              Tasks {(start + 1).toLocaleString("en-US")}–{Math.min(start + PAGE_SIZE, rows.length).toLocaleString("en-US")} of{" "}
              {rows.length.toLocaleString("en-US")}
            </span>
            <button className="btn" type="button" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
              Next tasks
            </button>
          </nav>
        )}
        {failure && <ErrorPanel error={failure} />}
        {half !== null && half < rows.length && (
          <div className="split-offer">
            <p>
              The service may take fewer tasks in one batch than this. Split it: the first {plural(half, "task")} go now as one batch,
              and the other {plural(rows.length - half, "task")} wait here for the next Run.
            </p>
            <button className="btn btn-primary" type="button" disabled={submit.isPending} onClick={() => void run(half)}>
              Split the batch
            </button>
          </div>
        )}
        <RunBar
          tasks={rows.length}
          concurrency={draft.concurrency}
          concurrencyProblem={problems.concurrency}
          onConcurrency={(v) => setDraft((d) => ({ ...d, concurrency: v }))}
          problems={sentence}
          onShowProblem={() => first && showPlace(first)}
          checking={checking}
          sending={submit.isPending}
          mode={mode}
          onMode={setMode}
        />
      </form>
    </section>
  );
}
