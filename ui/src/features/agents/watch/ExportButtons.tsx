// Export a batch's results as CSV or JSON through `save_document` (the save dialog); input
// values are never part of them.
import { useState } from "react";
import { call } from "../../../ipc/invoke";
import { useErrorToast } from "../../../components/Toasts";
import { useNotice } from "../../../lib/notices";
import type { TaskView } from "./reducer";
import { exportFileName, resultsCsv, resultsJson, type ExportBatch } from "./exportResults";

export const EXPORT_HINT = "Exports hold each task's status, data, duration and credits; input values are never included.";

export function ExportButtons({ batch, tasks, disabled }: { batch: ExportBatch; tasks: TaskView[]; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const notice = useNotice();
  const toast = useErrorToast();
  const save = async (kind: "csv" | "json") => {
    setBusy(true);
    try {
      const contents = kind === "csv" ? resultsCsv(tasks) : resultsJson(batch, tasks);
      const path = await call("save_document", { fileName: exportFileName(batch.id, kind), contents, choose: true });
      if (path) notice(`Saved to ${path}`);
    } catch (e) {
      toast(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="export-buttons">
      <div className="row">
        <button className="btn" type="button" disabled={busy || disabled} onClick={() => void save("csv")}>
          Export CSV…
        </button>
        <button className="btn" type="button" disabled={busy || disabled} onClick={() => void save("json")}>
          Export JSON…
        </button>
      </div>
      <p className="hint">{EXPORT_HINT}</p>
    </div>
  );
}
