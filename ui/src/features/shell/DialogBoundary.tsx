// A dialog of the shell (the command palette, the help sheet) in its own error boundary: a render
// error inside it shows a small dialog that says so and closes, and the screen under it goes on.
import { useId, type ReactNode } from "react";
import { ErrorBoundary, type FallbackProps } from "react-error-boundary";
import { TestTripwire } from "../../components/TestTripwire";
import { Modal } from "./Modal";

interface DialogBoundaryProps {
  /** What the dialog is, for the message ("the command palette"). */
  name: string;
  onClose: () => void;
  /** The end-to-end tests' build: the dialog may be made to fail on purpose (TestTripwire, by
   * its `name`). */
  testHooks?: boolean;
  children: ReactNode;
}

function DialogError({ name, detail, onClose }: { name: string; detail: string; onClose: () => void }) {
  const id = useId();
  // The dialog is named by its heading and described by what to do; its focus is on Close.
  return (
    <Modal labelledBy={`${id}-title`} describedBy={`${id}-text`} onClose={onClose}>
      <div className="panel panel-error">
        <h2 id={`${id}-title`}>{`The ${name} stopped working`}</h2>
        <p id={`${id}-text`}>Something went wrong while showing it. Your work is saved. Close it and open it again.</p>
        <p className="muted">Details: {detail}</p>
        <div className="row">
          <button className="btn btn-primary" type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </Modal>
  );
}

export function DialogBoundary({ name, onClose, testHooks = false, children }: DialogBoundaryProps) {
  const fallback = ({ error }: FallbackProps) => (
    <DialogError name={name} detail={error instanceof Error ? error.message : String(error)} onClose={onClose} />
  );
  return (
    <ErrorBoundary fallbackRender={fallback} onError={(e) => console.error(`The ${name} failed:`, e)}>
      {testHooks && <TestTripwire area={name} what={name} />}
      {children}
    </ErrorBoundary>
  );
}
