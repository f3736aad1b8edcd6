// The batch builder: the task table with its toolbar, checks as the user types (local at once,
// `check_tasks` debounced), tasks at once, the cost preview and Run (`submit_batch`). The draft
// is kept as the user types (input values in the keychain) and cleared once the batch is sent.
import { useMemo, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { ErrorKind, type BatchRunMode, type BrowserTask, type IpcError, type Job } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { plural } from "../../../lib/format";
import { draftProblems, firstProblem, problemSentence, remoteCheck, type RemoteCheck } from "./checks";
import { ImportBar } from "./ImportBar";
import {
  DEFAULT_CONCURRENCY,
  emptyDraft,
  emptyRow,
  isBlankRow,
  isEmptyDraft,
  rowToTask,
  wholeNumber,
  type BuilderDraft,
  type TaskRow,
} from "./model";
import { DraftNotes, Pager, SplitOffer } from "./BuilderParts";
import { RunBar } from "./RunBar";
import { TaskTable } from "./TaskTable";
import { useBuilderDraft } from "./useBuilderDraft";
import { useRefusedSend } from "./useRefusedSend";
import { useTaskChecks } from "./useTaskChecks";
import { useRowActions, useShowPlace, type ImportMessage } from "./useRowActions";

/** The service refused the batch as a whole (a `400` that names no task field): too big for it, maybe. */
function refusedWhole(e: IpcError): boolean {
  return e.kind === ErrorKind.invalidInput && e.status === 400 && !e.field;
}

/** Rows shown at a time (a batch can hold 1000). */
export const PAGE_SIZE = 50;

export function useSubmitBatch() {
  return useMutation({
    mutationFn: (v: { tasks: BrowserTask[]; concurrency?: number; mode: BatchRunMode }) => call("submit_batch", v),
  });
}

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
  const [importMessage, setImportMessage] = useState<ImportMessage | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  // How many tasks the service refused whole (a split offers half of them).
  const [refused, setRefused] = useState<number | null>(null);
  const [mode, setMode] = useState<BatchRunMode>("live");
  const submit = useSubmitBatch();
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

  const showPlace = useShowPlace(rows, setPage, setOpen, PAGE_SIZE);
  const { actions, addTask, takeImport } = useRowActions({ rows, setDraft, setPage, setOpen, showPlace, setImportMessage, pageSize: PAGE_SIZE });

  const sentence = problemSentence(problems) ?? (problems.batch[0] ? problems.batch[0] : null);
  const first = firstProblem(draft, problems);

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
        <DraftNotes draft={draft} importMessage={importMessage} valuesKept={valuesKept} failure={failure} onRetryKeep={retryKeep} batchProblems={problems.batch} />
        <TaskTable rows={rows.slice(start, start + PAGE_SIZE)} start={start} total={rows.length} problems={problems.rows} open={open} actions={actions} />
        <Pager current={current} pageSize={PAGE_SIZE} total={rows.length} onPage={setPage} />
        {failure && <ErrorPanel error={failure} />}
        {half !== null && half < rows.length && <SplitOffer half={half} total={rows.length} sending={submit.isPending} onSplit={() => void run(half)} />}
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
