// The "New spec" composer: description, an optional file (dialog or drag and drop), optional
// existing-project context, documentation links, depth and a cost hint. The draft is kept in
// localStorage on every change; it is cleared only once the service has the job.
//
// A first spec is a few actions away: example ideas fill an empty description in one click,
// Ctrl/Cmd+Enter sends from any field (Enter alone is a newline, and nothing is sent while an
// input method is composing), and "New spec" (the window event NEW_SPEC_EVENT, sent by the
// palette and after the welcome) focuses the description.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { ErrorKind } from "../../ipc/contract";
import { getCurrentWebview } from "@tauri-apps/api/webview";
import type { DragDropEvent } from "@tauri-apps/api/webview";
import type { IpcError, SpecDepth } from "../../ipc/contract";
import { call, toIpcError } from "../../ipc/invoke";
import { useCredits, useSettings } from "../../ipc/hooks";
import { useSubscription } from "../../ipc/events";
import { ErrorPanel } from "../../components/ErrorPanel";
import { formatCredits } from "../../components/CreditMeter";
import { formatBytes } from "../../lib/format";
import { useNotice } from "../../lib/notices";
import {
  EMPTY_COMPOSER,
  balanceWarning,
  checkSpecDraft,
  checkWebUrl,
  costHint,
  docUrlLines,
  fieldOf,
  isEmptyDraft,
  loadDraft,
  saveDraft,
  toSpecDraft,
  type ComposerDraft,
  type DraftErrors,
  type DraftField,
} from "./draft";
import { useSubmitSpec } from "./queries";
import { NEW_SPEC_EVENT, takeNewSpecRequest } from "../shell/newSpec";
import "./specs.css";

/** Ideas one click away while the description is empty: a short name, and the text it fills. */
export const EXAMPLE_IDEAS: readonly { label: string; text: string }[] = [
  {
    label: "A habit tracker for small teams",
    text: "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.",
  },
  {
    label: "Bookings for a climbing gym",
    text: "A booking app for a climbing gym: members reserve time slots, staff set the capacity of each slot, and everyone gets a reminder the day before.",
  },
  {
    label: "A shared shopping list",
    text: "A shared shopping list for a household: everyone adds items from their phone, the list syncs at once and is sorted by supermarket aisle.",
  },
];

/**
 * Whether a key press in the composer sends it: Ctrl+Enter or Cmd+Enter, never while an input
 * method is composing (Enter then confirms the composition) and never Enter alone (a newline).
 */
export function isSendShortcut(e: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
  isComposing?: boolean;
  keyCode?: number;
}): boolean {
  // keyCode 229: a key the input method is handling (WebKit reports some without isComposing).
  if (e.isComposing || e.keyCode === 229) return false;
  return e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}

/** The composer's draft, restored from and saved to localStorage. */
export function useComposerDraft(): [ComposerDraft, (d: ComposerDraft) => void] {
  const [draft, setDraft] = useState<ComposerDraft>(loadDraft);
  const set = (d: ComposerDraft) => {
    setDraft(d);
    saveDraft(d);
  };
  return [draft, set];
}

const FIELD_ORDER: DraftField[] = ["input", "file", "context", "docUrls"];

export function Composer({
  draft,
  onChange,
  focusRequested = false,
  onFocused,
}: {
  draft: ComposerDraft;
  onChange: (d: ComposerDraft) => void;
  /** Move focus to the description (after "Edit and try again"), then call `onFocused`. */
  focusRequested?: boolean;
  onFocused?: () => void;
}) {
  const settings = useSettings();
  const credits = useCredits();
  const submit = useSubmitSpec();
  const notice = useNotice();
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [dragging, setDragging] = useState(false);
  const [inspecting, setInspecting] = useState(false);
  const id = useId();
  const fieldIds: Record<DraftField, string> = {
    input: `${id}-input`,
    file: `${id}-file`,
    context: `${id}-context`,
    docUrls: `${id}-docs`,
  };
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const sectionRef = useRef<HTMLElement>(null);

  // Keep the latest draft reachable from the drag-and-drop listener, which is set up once.
  const latest = useRef({ draft, onChange });
  useEffect(() => {
    latest.current = { draft, onChange };
  });

  // "New spec" from anywhere: the description takes the focus (and says so with preventDefault).
  useEffect(() => {
    const onNewSpec = (e: Event) => {
      const field = descriptionRef.current;
      if (!field) return;
      sectionRef.current?.scrollIntoView?.({ block: "start" });
      field.focus();
      e.preventDefault();
    };
    window.addEventListener(NEW_SPEC_EVENT, onNewSpec);
    // Asked for before this mounted (the Specs area's code was still loading): answered now.
    if (takeNewSpecRequest()) {
      sectionRef.current?.scrollIntoView?.({ block: "start" });
      descriptionRef.current?.focus();
    }
    return () => window.removeEventListener(NEW_SPEC_EVENT, onNewSpec);
  }, []);

  useEffect(() => {
    if (!focusRequested) return;
    sectionRef.current?.scrollIntoView?.({ block: "start" });
    descriptionRef.current?.focus();
    onFocused?.();
  }, [focusRequested, onFocused]);

  const defaultDepth: SpecDepth = settings.data?.defaultSpecDepth ?? "fast";
  const depth = draft.depth ?? defaultDepth;
  const balance = credits.data?.creditsRemaining;
  const warning = balanceWarning(depth, balance);

  const update = (patch: Partial<ComposerDraft>) => {
    onChange({ ...draft, ...patch });
    // An edited field's error goes away as soon as it is touched.
    const cleared = { ...errors };
    if ("description" in patch) delete cleared.input;
    if ("context" in patch || "existing" in patch) delete cleared.context;
    if ("docUrls" in patch) delete cleared.docUrls;
    if ("file" in patch) delete cleared.file;
    if ("file" in patch && patch.file) delete cleared.input;
    setErrors(cleared);
  };

  const inspect = async (path: string) => {
    setInspecting(true);
    try {
      const info = await call("inspect_file", { path });
      const { draft: d, onChange: set } = latest.current;
      set({ ...d, file: info, missingFileName: null });
      setErrors((e) => {
        const next = { ...e };
        delete next.file;
        delete next.input;
        return next;
      });
    } catch (e) {
      setErrors((prev) => ({ ...prev, file: toIpcError(e).message }));
    } finally {
      setInspecting(false);
    }
  };

  // Files dropped on the window while the composer is shown become the spec's file.
  useSubscription<DragDropEvent>(
    "drag-drop",
    (deliver) => getCurrentWebview().onDragDropEvent((event) => deliver(event.payload)),
    (p) => {
      if (p.type === "enter" || p.type === "over") setDragging(true);
      else if (p.type === "leave") setDragging(false);
      else if (p.type === "drop") {
        setDragging(false);
        const path = p.paths[0];
        if (path) void inspect(path);
      }
    },
  );

  const pickFile = async () => {
    try {
      const path = await call("choose_file", { purpose: "specInput" });
      if (path !== null) await inspect(path);
    } catch (e) {
      setErrors((prev) => ({ ...prev, file: toIpcError(e).message }));
    }
  };

  const focusField = (f: DraftField) => {
    const el = document.getElementById(fieldIds[f]);
    el?.focus();
  };

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    if (submit.isPending || inspecting) return;
    setFailure(null);
    const local = checkSpecDraft(draft);
    setErrors(local);
    const first = FIELD_ORDER.find((f) => local[f]);
    if (first) {
      focusField(first);
      return;
    }
    try {
      const sent = draft;
      const job = await submit.mutateAsync(toSpecDraft(draft, defaultDepth));
      // Cleared only when nothing was typed while it was sending: later edits are a new draft.
      if (latest.current.draft === sent) latest.current.onChange(EMPTY_COMPOSER);
      setErrors({});
      notice(
        job.status === "failed"
          ? "The spec could not be started; see Generations below."
          : "Your spec is being generated. It keeps going even if you close Specdesk.",
      );
    } catch (err) {
      const ipc = toIpcError(err);
      const field = fieldOf(ipc.field);
      if (ipc.kind === ErrorKind.invalidInput && field) {
        setErrors({ [field]: ipc.message });
        focusField(field);
      } else {
        setFailure(ipc);
      }
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    const { key, ctrlKey, metaKey, altKey, shiftKey } = e;
    const { isComposing, keyCode } = e.nativeEvent;
    if (!isSendShortcut({ key, ctrlKey, metaKey, altKey, shiftKey, isComposing, keyCode })) return;
    e.preventDefault();
    void send();
  };

  const fillExample = (text: string) => {
    update({ description: text });
    // The buttons go away with the empty description: the focus moves to the filled field.
    descriptionRef.current?.focus();
  };
  const showExamples = draft.description.trim() === "" && !draft.file && !draft.existing;

  const urlLines = docUrlLines(draft.docUrls);
  const describedBy = (f: DraftField, hint?: string) =>
    [hint, errors[f] ? `${fieldIds[f]}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const fieldError = (f: DraftField) =>
    errors[f] ? (
      <span className="error-text" id={`${fieldIds[f]}-error`} role="alert">
        {errors[f]}
      </span>
    ) : null;

  return (
    <section className="card composer" aria-labelledby={`${id}-title`} ref={sectionRef}>
      <h2 id={`${id}-title`}>New spec</h2>
      <p className="muted" id={`${id}-kind`}>
        {draft.existing
          ? "A feature addition to an existing project: the new features only, where they plug in and what to migrate — no setup or deployment."
          : "A full spec for a new project: setup, features, deployment, CI/CD, monitoring and documentation."}
      </p>
      {failure && <ErrorPanel error={failure} />}
      <form onSubmit={(e) => void send(e)} onKeyDown={onKeyDown} noValidate aria-label="New spec">
        <div className="field">
          <label htmlFor={fieldIds.input}>{draft.existing ? "What should the new feature do?" : "What do you want to build?"}</label>
          <textarea
            id={fieldIds.input}
            ref={descriptionRef}
            className="textarea composer-description"
            rows={6}
            value={draft.description}
            onChange={(e) => update({ description: e.target.value })}
            aria-invalid={!!errors.input}
            aria-describedby={describedBy("input", `${id}-input-hint`)}
          />
          <span className="hint" id={`${id}-input-hint`}>
            Plain words are fine: who it is for, what they do with it, anything it must connect to. Press{" "}
            <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (<kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) to generate.
          </span>
          {fieldError("input")}
          {showExamples && (
            <div className="row example-ideas" role="group" aria-labelledby={`${id}-examples`}>
              <span className="muted" id={`${id}-examples`}>
                Or start from an example:
              </span>
              {EXAMPLE_IDEAS.map((idea) => (
                <button key={idea.label} className="btn btn-ghost example-idea" type="button" onClick={() => fillExample(idea.text)}>
                  {idea.label}
                </button>
              ))}
            </div>
          )}
        </div>

        <div className="field">
          <span className="field-label" id={`${fieldIds.file}-label`}>
            File (optional)
          </span>
          <div className="drop-zone" data-dragging={dragging}>
            {draft.file ? (
              <div className="row file-chosen">
                <span aria-hidden="true">📄</span>
                <span>
                  <strong>{draft.file.name}</strong> <span className="muted">({formatBytes(draft.file.size)})</span>
                </span>
                <button className="btn btn-ghost" type="button" onClick={() => update({ file: null })}>
                  Remove file
                </button>
              </div>
            ) : (
              <p className="muted drop-text">{dragging ? "Drop the file to add it." : "Drop a file here, or choose one."}</p>
            )}
            <button
              id={fieldIds.file}
              className="btn"
              type="button"
              onClick={() => void pickFile()}
              disabled={inspecting}
              aria-labelledby={`${fieldIds.file}-label ${fieldIds.file}`}
              aria-describedby={describedBy("file", `${id}-file-hint`)}
            >
              {draft.file ? "Choose another file…" : "Choose a file…"}
            </button>
          </div>
          <span className="hint" id={`${id}-file-hint`}>
            Markdown, text, PDF, JSON or CSV, up to 20 MB. The service reads it as part of your description.
          </span>
          {draft.missingFileName && !draft.file && (
            <span className="hint warn-text">
              The earlier attempt had the file “{draft.missingFileName}”. Choose it again to include it.
            </span>
          )}
          {fieldError("file")}
        </div>

        <div className="field">
          <label className="check">
            <input
              type="checkbox"
              checked={draft.existing}
              onChange={(e) => update({ existing: e.target.checked })}
            />
            Add to an existing project
          </label>
          {draft.existing && (
            <>
              <label htmlFor={fieldIds.context}>About the existing project</label>
              <textarea
                id={fieldIds.context}
                className="textarea"
                rows={4}
                value={draft.context}
                onChange={(e) => update({ context: e.target.value })}
                aria-invalid={!!errors.context}
                aria-describedby={describedBy("context", `${id}-context-hint`)}
              />
              <span className="hint" id={`${id}-context-hint`}>
                What it does today, its stack and its main parts, so the spec plugs the feature into it.
              </span>
              {fieldError("context")}
            </>
          )}
        </div>

        <div className="field">
          <label htmlFor={fieldIds.docUrls}>Documentation links (optional)</label>
          <textarea
            id={fieldIds.docUrls}
            className="textarea mono"
            rows={3}
            value={draft.docUrls}
            placeholder="https://docs.example.com"
            onChange={(e) => update({ docUrls: e.target.value })}
            aria-invalid={!!errors.docUrls}
            aria-describedby={describedBy("docUrls", `${id}-docs-hint`)}
          />
          <span className="hint" id={`${id}-docs-hint`}>
            One web address per line. The service reads these docs and packs them for your coding agent.
          </span>
          {urlLines.length > 0 && (
            <ul className="chips" aria-label="Documentation links">
              {urlLines.map((l) => (
                <li key={l.line} className="chip mono" data-bad={!checkWebUrl(l.url)}>
                  {!checkWebUrl(l.url) && <span className="visually-hidden">Not a web address: </span>}
                  {l.url}
                </li>
              ))}
            </ul>
          )}
          {fieldError("docUrls")}
        </div>

        <fieldset className="field depth-choice">
          <legend>Depth</legend>
          <label className="depth-option" data-checked={depth === "fast"}>
            <input type="radio" name={`${id}-depth`} value="fast" checked={depth === "fast"} onChange={() => update({ depth: "fast" })} />
            <span>
              <strong>Fast</strong>
              <span className="muted"> — milestones and stories, in about 30–40 seconds. About 5–10 credits.</span>
            </span>
          </label>
          <label className="depth-option" data-checked={depth === "deep"}>
            <input type="radio" name={`${id}-depth`} value="deep" checked={depth === "deep"} onChange={() => update({ depth: "deep" })} />
            <span>
              <strong>Deep</strong>
              <span className="muted">
                {" "}
                — every story split into subtasks by layer (DB, API, FE, QA…), in about 2–3 minutes. About 10–50 credits.
                Needs a paid plan.
              </span>
            </span>
          </label>
        </fieldset>

        <p className="cost-hint" aria-live="polite">
          <span>{costHint(depth)}</span>{" "}
          {balance !== undefined && <span className="muted">You have {formatCredits(balance)} credits.</span>}
          {warning && <span className="warn-text"> {warning}</span>}
        </p>

        <div className="row">
          <button className="btn btn-primary" type="submit" disabled={submit.isPending || inspecting}>
            {submit.isPending ? "Sending…" : "Generate spec"}
          </button>
          <button
            className="btn btn-ghost"
            type="button"
            onClick={() => {
              const cleared = draft;
              onChange(EMPTY_COMPOSER);
              setErrors({});
              setFailure(null);
              if (!isEmptyDraft(cleared)) notice("The draft was cleared.", { label: "Undo", run: () => onChange(cleared) });
            }}
          >
            Clear
          </button>
          <span className="muted hint-inline">Your draft is kept on this computer until the spec is sent.</span>
        </div>
      </form>
    </section>
  );
}
