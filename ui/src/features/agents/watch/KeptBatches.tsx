// The batches this computer keeps (their job in the ledger holds the finished batch, and their
// timelines are files in the app data folder), listed when the service's history cannot be read:
// offline, a past batch still opens with its whole timeline (`watch_batch` reads the kept one).
import { useId } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Batch } from "../../../bindings/Batch";
import type { Job } from "../../../ipc/contract";
import { useConnectionId } from "../../../ipc/hooks";
import { call } from "../../../ipc/invoke";
import { formatDateTime } from "../../../lib/format";

/** How many of the newest batch jobs are looked at. */
const KEPT_SHOWN = 50;

/** The finished batch a job keeps, when it finished here. */
export function keptBatchOf(job: Job): Batch | null {
  const r = job.result as Partial<Batch> | null | undefined;
  if (!job.remoteId || !r || typeof r !== "object" || r.id !== job.remoteId || typeof r.total !== "number") return null;
  return r as Batch;
}

export function KeptBatches({ onOpen }: { onOpen: (batchId: string) => void }) {
  const id = useId();
  const c = useConnectionId() ?? "";
  const q = useQuery({
    queryKey: ["list_jobs", "batch", c, "kept"],
    queryFn: () => call("list_jobs", { kind: "batch", limit: KEPT_SHOWN }),
    enabled: c !== "",
    retry: false,
  });
  const kept = (q.data ?? []).map(keptBatchOf).filter((b): b is Batch => b !== null);
  if (!q.data) return null;
  return (
    <section className="kept-batches" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Kept on this computer</h3>
      {kept.length === 0 ? (
        <p className="empty">No finished batch is kept on this computer yet.</p>
      ) : (
        <>
          <p className="muted">These batches finished while Specdesk followed them; each opens with its whole timeline, even offline.</p>
          <ul className="kept-list">
            {kept.map((b) => (
              <li key={b.id}>
                <span className="nowrap">{formatDateTime(b.createdAt)}</span>
                <span className="mono">{b.id}</span>
                <span>
                  {b.completed.toLocaleString("en-US")} of {b.total.toLocaleString("en-US")} tasks
                </span>
                <button className="btn btn-small" type="button" aria-label={`Open batch ${b.id}`} onClick={() => onOpen(b.id)}>
                  Open
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
