// Help when something goes wrong: the log folder, and diagnostics copied for a support message.
// Both run in Rust: the clipboard is written there (WebKit drops a click's clipboard permission
// across an await), and the diagnostics never carry a key.
import { useState } from "react";
import type { IpcError } from "../../ipc/contract";
import { call, toIpcError } from "../../ipc/invoke";

export function Support() {
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const run = async (action: () => Promise<unknown>, done: string | null) => {
    setStatus(null);
    setError(null);
    try {
      await action();
      setStatus(done);
    } catch (e) {
      setError(toIpcError(e));
    }
  };
  return (
    <section className="card" aria-labelledby="support-title">
      <h2 id="support-title">Help and diagnostics</h2>
      <p className="muted">
        Specdesk keeps a log of what it does, one file a day for two weeks. Keys, sign-in headers and the values you give browser tasks are
        removed before anything is written.
      </p>
      <div className="row">
        <button className="btn" type="button" onClick={() => void run(() => call("open_log_folder"), null)}>
          Open log folder
        </button>
        <button
          className="btn"
          type="button"
          onClick={() =>
            void run(
              () => call("copy_diagnostics"),
              "Diagnostics copied: the version, your system, the kinds of connections and the last 200 log lines. Paste them into your message to support.",
            )
          }
        >
          Copy diagnostics
        </button>
      </div>
      {status && (
        <p role="status" className="muted">
          {status}
        </p>
      )}
      {error && (
        <p role="alert" className="error-text">
          {error.message}
        </p>
      )}
    </section>
  );
}
