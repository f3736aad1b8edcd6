// The activity center: a header control with the number of things running, and its panel of the
// work running now and what ended lately across the app (kind, title, time, progress, credits),
// each opening its item; Stop where the service allows (a chat reply, a job not sent yet); a
// failure with its error's action. Fed by the one Rust list (useActivity.ts).
import { useEffect, useId, useRef, useState } from "react";
import type { Activity } from "../../bindings/Activity";
import { ErrorActions } from "../../components/ErrorPanel";
import { useErrorToast } from "../../components/Toasts";
import { call } from "../../ipc/invoke";
import { formatCreditsWord, formatDuration } from "../../lib/format";
import { useNavigate } from "../../lib/nav";
import { KIND_WORDS, routeOf, runningLabel, runningOf } from "./places";
import { useActivity, useNow } from "./useActivity";
import "./activity.css";

export function ActivityCenter() {
  const list = useActivity();
  const entries = list.data ?? [];
  const running = runningOf(entries).length;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  // A click outside closes the panel.
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open]);
  return (
    <div
      className="activity"
      ref={box}
      onKeyDown={(e) => e.key === "Escape" && open && (e.stopPropagation(), close(true))}
      // Focus that leaves the control and its panel closes the panel (it would cover what has it).
      onBlur={(e) => open && !box.current?.contains(e.relatedTarget as Node | null) && e.relatedTarget !== null && setOpen(false)}
    >
      <button
        ref={button}
        type="button"
        className="btn btn-small activity-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        Activity
        {running > 0 && (
          <span className="activity-count" aria-hidden="true">
            {running}
          </span>
        )}
        <span className="visually-hidden">, {runningLabel(running)}</span>
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {list.data ? runningLabel(running) : ""}
      </span>
      {open && <ActivityPanel id={panelId} entries={entries} onOpened={() => close(false)} />}
    </div>
  );
}

function ActivityPanel({ id, entries, onOpened }: { id: string; entries: Activity[]; onOpened: () => void }) {
  const now = useNow(entries.some((a) => a.state === "running"));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section id={id} className="activity-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        Activity
      </h2>
      {entries.length === 0 ? (
        <p className="muted">Nothing is running, and nothing ended lately.</p>
      ) : (
        <ul className="activity-list">
          {entries.map((a) => (
            <ActivityRow key={a.id} entry={a} now={now} onOpened={onOpened} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Running · 12 s · 1.2 credits so far", "Done · 0.4 credits", "Failed", "Stopped". */
export function stateLine(a: Activity, now: number): string {
  if (a.state === "running") {
    const since = Date.parse(a.startedAt);
    const elapsed = Number.isNaN(since) ? "" : ` · ${formatDuration(Math.max(0, now - since))}`;
    const so = a.credits !== undefined ? ` · ${formatCreditsWord(a.credits)} so far` : "";
    return `Running${elapsed}${a.statusText ? ` · ${a.statusText}` : ""}${so}`;
  }
  if (a.state === "done") return a.credits !== undefined ? `Done · ${formatCreditsWord(a.credits)}` : "Done";
  return a.state === "failed" ? "Failed" : "Stopped";
}

function ActivityRow({ entry: a, now, onOpened }: { entry: Activity; now: number; onOpened: () => void }) {
  const navigate = useNavigate();
  const toast = useErrorToast();
  const titleRef = useRef<HTMLButtonElement>(null);
  const stop = () => {
    const s = a.stop;
    if (!s) return;
    // Stop goes once the entry ends: the focus waits on its title.
    titleRef.current?.focus();
    const done = s.kind === "stream" ? call("cancel_stream", { streamId: s.streamId }) : call("cancel_job", { jobId: s.jobId });
    done.catch(toast);
  };
  const title = a.title || KIND_WORDS[a.kind];
  return (
    <li className="activity-row" data-state={a.state} aria-label={`${KIND_WORDS[a.kind]}: ${title}`}>
      <div className="activity-main">
        <button
          ref={titleRef}
          type="button"
          className="link-button activity-title"
          onClick={() => {
            navigate(routeOf(a.place));
            onOpened();
          }}
        >
          {title}
        </button>
        <span className="muted activity-meta">
          {KIND_WORDS[a.kind]} · {stateLine(a, now)}
        </span>
        {a.progress && (
          <span className="activity-progress">
            <progress max={a.progress[1]} value={a.progress[0]} aria-label={`${title}: progress`} /> {a.progress[0].toLocaleString("en-US")} of{" "}
            {a.progress[1].toLocaleString("en-US")}
          </span>
        )}
        {a.error && (
          <div className="activity-error">
            <p className="error-text">{a.error.message}</p>
            <ErrorActions error={a.error} level={3} />
          </div>
        )}
      </div>
      {a.stop && a.state === "running" && (
        <button type="button" className="btn btn-small" onClick={stop} aria-label={`Stop ${title}`}>
          Stop
        </button>
      )}
    </li>
  );
}
