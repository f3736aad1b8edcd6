// Getting tasks in and out: add one, paste rows from a spreadsheet, import a CSV or JSON file
// (read in the web view from the file the user picks), and export the draft as JSON through
// `save_document` — input values left out.
import { useId, useRef, useState } from "react";
import { call } from "../../../ipc/invoke";
import { useErrorToast } from "../../../components/Toasts";
import { useNotice } from "../../../lib/notices";
import { parsePastedRows, parseTaskFile, type ImportResult } from "./importTasks";
import { rowToTask, type TaskRow } from "./model";

export const EXPORT_FILE_NAME = "browser-tasks.json";
export const EXPORT_NOTE = "Exports leave input values out: only their names are saved.";

/** The draft as an exported JSON file (`{tasks: [...]}`, input values empty). */
export function exportJson(rows: TaskRow[]): string {
  return `${JSON.stringify({ tasks: rows.map((r) => rowToTask(r, { withValues: false })) }, null, 2)}\n`;
}

export function ImportBar({
  rows,
  onAdd,
  onImport,
}: {
  rows: TaskRow[];
  onAdd: () => void;
  /** Gets what a paste or a file gave: rows, or a refusal with its sentence. */
  onImport: (result: ImportResult, source: string) => void;
}) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [pasteOpen, setPasteOpen] = useState(false);
  const [pasted, setPasted] = useState("");
  const [busy, setBusy] = useState(false);
  const notice = useNotice();
  const toast = useErrorToast();

  const readFile = async (file: File) => {
    setBusy(true);
    try {
      const text = await file.text();
      onImport(parseTaskFile(file.name, text), file.name);
    } catch {
      onImport({ ok: false, message: `“${file.name}” could not be read. Nothing was imported.` }, file.name);
    } finally {
      setBusy(false);
      if (fileRef.current) fileRef.current.value = "";
    }
  };

  const save = async (choose: boolean) => {
    setBusy(true);
    try {
      const path = await call("save_document", { fileName: EXPORT_FILE_NAME, contents: exportJson(rows), choose });
      if (path) notice(`Saved to ${path}`);
    } catch (e) {
      toast(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="builder-toolbar">
      <div className="row">
        <button className="btn" type="button" onClick={onAdd}>
          Add a task
        </button>
        <button className="btn" type="button" aria-expanded={pasteOpen} aria-controls={pasteOpen ? `${id}-paste` : undefined} onClick={() => setPasteOpen((o) => !o)}>
          Paste rows
        </button>
        <button className="btn" type="button" disabled={busy} onClick={() => fileRef.current?.click()}>
          Import CSV or JSON…
        </button>
        <input
          ref={fileRef}
          type="file"
          hidden
          accept=".csv,.json,.tsv,.txt,text/csv,application/json"
          aria-label="Task file to import"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void readFile(f);
          }}
        />
        <span className="toolbar-spacer" />
        <button className="btn" type="button" disabled={busy} onClick={() => void save(false)}>
          Download JSON
        </button>
        <button className="btn" type="button" disabled={busy} onClick={() => void save(true)}>
          Save as…
        </button>
      </div>
      <p className="hint">
        CSV files need a header row: url, instruction, successCondition, timeoutMs, maxSteps, maxDurationSeconds, mode, output,
        and input.&lt;name&gt; columns. JSON files hold an array of tasks or {"{"}"tasks": […]{"}"}. Up to 1,000 tasks. {EXPORT_NOTE}
      </p>
      {pasteOpen && (
        <div className="paste-panel" id={`${id}-paste`}>
          <div className="field">
            <label htmlFor={`${id}-paste-text`}>Rows from a spreadsheet</label>
            <textarea
              id={`${id}-paste-text`}
              className="textarea mono"
              rows={4}
              value={pasted}
              placeholder={"https://example.com\tFind the price of the first item"}
              aria-describedby={`${id}-paste-hint`}
              onChange={(e) => setPasted(e.target.value)}
            />
            <span className="hint" id={`${id}-paste-hint`}>
              One task a line: its URL, a tab, then its instruction (two columns copied from a spreadsheet). Copy the header row too (url, instruction, maxSteps, input.email…) and every named column is read, as in a CSV file.
            </span>
          </div>
          <div className="row">
            <button
              className="btn btn-primary"
              type="button"
              onClick={() => {
                const result = parsePastedRows(pasted);
                onImport(result, "the pasted rows");
                if (result.ok) {
                  setPasted("");
                  setPasteOpen(false);
                }
              }}
            >
              Add these rows
            </button>
            <button className="btn btn-ghost" type="button" onClick={() => setPasteOpen(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
