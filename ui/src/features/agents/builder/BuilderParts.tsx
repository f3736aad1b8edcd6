// Parts of the builder's form (Builder.tsx): the notes above the rows (an import's outcome, the
// keychain refusing input values, values to enter, the batch's own problems), the pager of its
// rows, and the offer to split a batch the service refused whole.
import { ErrorPanel } from "../../../components/ErrorPanel";
import { ErrorKind, type IpcError } from "../../../ipc/contract";
import { plural } from "../../../lib/format";
import { valuesMissing, type BuilderDraft } from "./model";
import type { ValuesKept } from "./useBuilderDraft";
import type { ImportMessage } from "./useRowActions";

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

export function DraftNotes({
  draft,
  importMessage,
  valuesKept,
  failure,
  onRetryKeep,
  batchProblems,
}: {
  draft: BuilderDraft;
  importMessage: ImportMessage | null;
  valuesKept: ValuesKept;
  /** The last send's error (a keychain refusal is not said twice). */
  failure: IpcError | null;
  onRetryKeep: () => void;
  batchProblems: string[];
}) {
  const missing = valuesMissing(draft);
  return (
    <>
      {importMessage && (
        <p className={importMessage.ok ? "import-message" : "import-message error-text"} role={importMessage.ok ? "status" : "alert"}>
          {importMessage.text}
        </p>
      )}
      {typeof valuesKept === "object" && hasInputs(draft) && valuesKept.kind !== failure?.kind && (
        // Where the values would be kept refuses them: said with the keychain's next step.
        <ErrorPanel error={{ ...valuesKept, message: valuesNotKept(valuesKept) }} onRetry={onRetryKeep} />
      )}
      {missing > 0 && (
        <p className="warn-text values-missing">
          {missing === 1 ? "1 input has no value" : `${missing} inputs have no value`}: enter {missing === 1 ? "it" : "them"} in the task
          details.
        </p>
      )}
      {batchProblems.map((b) => (
        <p key={b} className="error-text">
          {b}
        </p>
      ))}
    </>
  );
}

/** Previous and next pages of `total` rows, `pageSize` a page, `current` shown. */
export function Pager({ current, pageSize, total, onPage }: { current: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const start = current * pageSize;
  return (
    <nav className="row pager" aria-label="Pages of tasks">
      <button className="btn" type="button" disabled={current === 0} onClick={() => onPage(current - 1)}>
        Previous tasks
      </button>
      <span aria-live="polite">
        Tasks {(start + 1).toLocaleString("en-US")}–{Math.min(start + pageSize, total).toLocaleString("en-US")} of{" "}
        {total.toLocaleString("en-US")}
      </span>
      <button className="btn" type="button" disabled={current >= pages - 1} onClick={() => onPage(current + 1)}>
        Next tasks
      </button>
    </nav>
  );
}

/** The first `half` of `total` tasks go as one batch, the rest wait for the next Run. */
export function SplitOffer({ half, total, sending, onSplit }: { half: number; total: number; sending: boolean; onSplit: () => void }) {
  return (
    <div className="split-offer">
      <p>
        The service may take fewer tasks in one batch than this. Split it: the first {plural(half, "task")} go now as one batch, and the
        other {plural(total - half, "task")} wait here for the next Run.
      </p>
      <button className="btn btn-primary" type="button" disabled={sending} onClick={onSplit}>
        Split the batch
      </button>
    </div>
  );
}
