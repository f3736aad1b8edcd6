// "Export stories (CSV)": the spec's stories as a CSV file for issue trackers, saved in the
// download folder through save_document, then "Saved to <path>".
import { useState } from "react";
import type { ScopeOfWork } from "../../../bindings/ScopeOfWork";
import { call } from "../../../ipc/invoke";
import { useErrorToast } from "../../../components/Toasts";
import { useNotice } from "../../../lib/notices";
import { storiesCsv, storiesFileName } from "./storiesCsv";

export function ExportStoriesButton({ sow, title }: { sow: ScopeOfWork; title: string }) {
  const [busy, setBusy] = useState(false);
  const notice = useNotice();
  const toast = useErrorToast();
  const stories = sow.milestones.reduce((n, m) => n + m.stories.length, 0);
  if (stories === 0) return null;

  const save = async () => {
    setBusy(true);
    try {
      const path = await call("save_document", { fileName: storiesFileName(title), contents: storiesCsv(sow), choose: false });
      if (path) notice(`Saved to ${path}`);
    } catch (e) {
      toast(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <button className="btn" type="button" disabled={busy} onClick={() => void save()} title="One row per story: id, title, milestone, hours, complexity and acceptance criteria, for issue trackers">
      Export stories (CSV)
    </button>
  );
}
