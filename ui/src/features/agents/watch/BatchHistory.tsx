// The batches of the connection in use, newest first (`list_batches`): a status filter, pages of
// 10, 25 or 50, the totals of the page, and a button to open each. When the service cannot be
// read, the batches kept on this computer are listed under the error (KeptBatches.tsx).
import { useEffect, useId, useRef, useState } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Batch } from "../../../bindings/Batch";
import type { BatchStatus } from "../../../bindings/BatchStatus";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useAppEvent } from "../../../ipc/events";
import { useConnectionId } from "../../../ipc/hooks";
import { call, toIpcError } from "../../../ipc/invoke";
import { formatCredits as credits, formatDateTime, plural } from "../../../lib/format";
import { KeptBatches } from "./KeptBatches";
import "./watch.css";

export const PAGE_SIZES = [10, 25, 50] as const;

const BATCH_STATUS_WORDS: Record<string, string> = { processing: "Running", completed: "Completed", failed: "Failed" };

/** Tasks of a listed batch that ended other than SUCCESS (when its results are listed). */
export function failuresOf(b: Batch): number {
  return b.results.filter((r) => r.status !== "SUCCESS").length;
}

/** Progress of a running batch (a task finished) refreshes the history at most this often (ms). */
export const PROGRESS_REFRESH_MS = 2000;

/**
 * Keeps the history current from the job runner's `job-changed` broadcasts: a batch sent, named
 * or finished (its status or its id changed) shows at once; its progress (one broadcast per
 * finished task, hundreds a second in a busy batch) at most every PROGRESS_REFRESH_MS, since each
 * refresh is a `list_batches` call to the service and a re-render of the table.
 */
function useBatchJobRefresh() {
  const qc = useQueryClient();
  const seen = useRef(new Map<number, string>());
  const pending = useRef<Set<string>>(new Set());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useAppEvent("job-changed", (job) => {
    if (job.kind !== "batch") return;
    const refresh = (profileId: string) => void qc.invalidateQueries({ queryKey: ["list_batches", profileId] });
    const state = `${job.status}|${job.remoteId ?? ""}`;
    const before = seen.current.get(job.id);
    seen.current.set(job.id, state);
    if (before !== state) {
      refresh(job.profileId);
      return;
    }
    pending.current.add(job.profileId);
    timer.current ??= setTimeout(() => {
      timer.current = null;
      const profiles = [...pending.current];
      pending.current.clear();
      profiles.forEach(refresh);
    }, PROGRESS_REFRESH_MS);
  });
}

export function BatchHistory({ onOpen }: { onOpen: (batchId: string) => void }) {
  const id = useId();
  const c = useConnectionId() ?? "";
  const [status, setStatus] = useState<"" | BatchStatus>("");
  const [size, setSize] = useState<number>(10);
  const [page, setPage] = useState(0);
  const q = useQuery({
    queryKey: ["list_batches", c, { status, size, page }],
    queryFn: () => call("list_batches", { limit: size, skip: page * size, ...(status ? { status } : {}) }),
    enabled: c !== "",
    retry: false,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === c ? keepPreviousData(previous) : undefined),
  });
  useBatchJobRefresh();
  const data = q.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / size)) : 1;
  const batches = data?.batches ?? [];
  const tasks = batches.reduce((s, b) => s + b.total, 0);
  const spent = batches.reduce((s, b) => s + b.totalCreditsUsed, 0);

  return (
    <section className="batch-history" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`}>Batch history</h2>
      </div>
      <div className="row history-filters">
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            className="select"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(0);
            }}
          >
            <option value="">All batches</option>
            <option value="processing">Running</option>
            <option value="completed">Completed</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-size`}>Batches per page</label>
          <select
            id={`${id}-size`}
            className="select page-size"
            value={size}
            onChange={(e) => {
              setSize(Number(e.target.value));
              setPage(0);
            }}
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>
      {q.isPending && c !== "" && <p className="skeleton">Reading your batches…</p>}
      {q.isError && (
        <>
          <ErrorPanel error={toIpcError(q.error)} onRetry={() => void q.refetch()} level={3} />
          <KeptBatches onOpen={onOpen} />
        </>
      )}
      {data && data.total === 0 && <p className="empty">{status ? "No batch has this status." : "No batch yet. Run one above and it appears here."}</p>}
      {data && data.total > 0 && (
        <>
          <p className="history-totals" aria-live="polite">
            {`Batches ${(page * size + 1).toLocaleString("en-US")}–${(page * size + batches.length).toLocaleString("en-US")} of ${data.total.toLocaleString("en-US")}`}
            {` · ${plural(tasks, "task")} · ${credits(spent)} credits on this page`}
          </p>
          <div className="table-wrap">
            <table className="data-table history-table">
              <caption className="visually-hidden">Batches, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Batch</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">Tasks</th>
                  <th scope="col" className="num">Did not succeed</th>
                  <th scope="col" className="num">Credits</th>
                  <th scope="col">
                    <span className="visually-hidden">Open</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {batches.map((b) => {
                  const failed = failuresOf(b);
                  return (
                    <tr key={b.id}>
                      <td className="nowrap">{formatDateTime(b.createdAt)}</td>
                      <td className="mono">{b.id}</td>
                      <td>{BATCH_STATUS_WORDS[b.status] ?? b.status}</td>
                      <td className="num">
                        {b.completed.toLocaleString("en-US")} of {b.total.toLocaleString("en-US")}
                      </td>
                      <td className="num" data-bad={failed > 0}>
                        {b.results.length > 0 ? failed.toLocaleString("en-US") : "—"}
                      </td>
                      <td className="num">{credits(b.totalCreditsUsed)}</td>
                      <td>
                        <button className="btn btn-small" type="button" aria-label={`Open batch ${b.id}`} onClick={() => onOpen(b.id)}>
                          Open
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav className="row pager" aria-label="Batch pages">
            <button className="btn" type="button" disabled={page === 0} onClick={() => setPage((p) => Math.max(0, p - 1))}>
              Previous page
            </button>
            <span>
              Page {page + 1} of {pages}
            </span>
            <button className="btn" type="button" disabled={!data.hasMore} onClick={() => setPage((p) => p + 1)}>
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
