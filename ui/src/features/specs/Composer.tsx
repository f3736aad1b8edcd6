// The "New spec" composer: description, an optional file (dialog or drag and drop), optional
// existing-project context, documentation links, depth and a cost hint. The draft is kept in
// localStorage on every change; it is cleared only once the service has the job.
//
// A first spec is a few actions away: example ideas fill an empty description in one click,
// Ctrl/Cmd+Enter sends from any field (Enter alone is a newline, and nothing is sent while an
// input method is composing), and "New spec" (the window event NEW_SPEC_EVENT, sent by the
// palette and after the welcome) focuses the description.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import { ErrorKind } from "../../ipc/contract";
import type { IpcError, SpecDepth } from "../../ipc/contract";
import { toIpcError } from "../../ipc/invoke";
import { useCredits, useSettings } from "../../ipc/hooks";
import { ErrorPanel } from "../../components/ErrorPanel";
import { formatCredits } from "../../lib/format";
import { useNotice } from "../../lib/notices";
import { DepthChoice, DescriptionField, DocLinksField, ExistingProjectField, FileField, fieldIdsOf } from "./ComposerFields";
import {
  EMPTY_COMPOSER,
  balanceWarning,
  checkSpecDraft,
  costHint,
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
import { useComposerFile } from "./useComposerFile";
import { NEW_SPEC_EVENT, takeNewSpecRequest } from "../shell/newSpec";
import "./specs.css";

export { EXAMPLE_IDEAS } from "./ComposerFields";

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
  const submit = useSubmitSpec();
  const notice = useNotice();
  const [errors, setErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const id = useId();
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const sectionRef = useRef<HTMLElement>(null);

  // The latest draft, for what finishes later than the render that started it (a dropped or
  // chosen file's inspection, a send).
  const latest = useRef({ draft, onChange });
  useEffect(() => {
    latest.current = { draft, onChange };
  });
  const { dragging, inspecting, pickFile } = useComposerFile(latest, setErrors);

  useComposerFocus(descriptionRef, sectionRef, focusRequested, onFocused);

  const defaultDepth: SpecDepth = settings.data?.defaultSpecDepth ?? "fast";
  const depth = draft.depth ?? defaultDepth;

  const update = (patch: Partial<ComposerDraft>) => {
    onChange({ ...draft, ...patch });
    setErrors(withoutTouched(errors, patch));
  };

  const focusField = (f: DraftField) => document.getElementById(fieldIdsOf(id)[f])?.focus();

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

  const clear = () => {
    const cleared = draft;
    onChange(EMPTY_COMPOSER);
    setErrors({});
    setFailure(null);
    if (!isEmptyDraft(cleared)) notice("The draft was cleared.", { label: "Undo", run: () => onChange(cleared) });
  };

  const fillExample = (text: string) => {
    update({ description: text });
    // The buttons go away with the empty description: the focus moves to the filled field.
    descriptionRef.current?.focus();
  };

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
        <DescriptionField id={id} draft={draft} errors={errors} update={update} inputRef={descriptionRef} onExample={fillExample} />
        <FileField id={id} draft={draft} errors={errors} update={update} dragging={dragging} inspecting={inspecting} onPick={() => void pickFile()} />
        <ExistingProjectField id={id} draft={draft} errors={errors} update={update} />
        <DocLinksField id={id} draft={draft} errors={errors} update={update} />
        <DepthChoice id={id} depth={depth} update={update} />

        <CostHint depth={depth} />
        <div className="row">
          <button className="btn btn-primary" type="submit" disabled={submit.isPending || inspecting}>
            {submit.isPending ? "Sending…" : "Generate spec"}
          </button>
          <button className="btn btn-ghost" type="button" onClick={clear}>
            Clear
          </button>
          <span className="muted hint-inline">Your draft is kept on this computer until the spec is sent.</span>
        </div>
      </form>
    </section>
  );
}

/** "New spec" from anywhere, and "Edit and try again": the description takes the focus, its
 * section scrolled into view. */
function useComposerFocus(
  descriptionRef: RefObject<HTMLTextAreaElement | null>,
  sectionRef: RefObject<HTMLElement | null>,
  focusRequested: boolean,
  onFocused: (() => void) | undefined,
) {
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
    // Asked for before this mounted (on the way here from another screen): answered now.
    if (takeNewSpecRequest()) {
      sectionRef.current?.scrollIntoView?.({ block: "start" });
      descriptionRef.current?.focus();
    }
    return () => window.removeEventListener(NEW_SPEC_EVENT, onNewSpec);
  }, [descriptionRef, sectionRef]);

  useEffect(() => {
    if (!focusRequested) return;
    sectionRef.current?.scrollIntoView?.({ block: "start" });
    descriptionRef.current?.focus();
    onFocused?.();
  }, [focusRequested, onFocused, descriptionRef, sectionRef]);
}

/** What a spec of `depth` costs, the balance, and a warning when it may not cover it. */
function CostHint({ depth }: { depth: SpecDepth }) {
  const balance = useCredits().data?.creditsRemaining;
  const warning = balanceWarning(depth, balance);
  return (
    <p className="cost-hint" aria-live="polite">
      <span>{costHint(depth)}</span>{" "}
      {balance !== undefined && <span className="muted">You have {formatCredits(balance)} credits.</span>}
      {warning && <span className="warn-text"> {warning}</span>}
    </p>
  );
}

/** `errors` without those of the fields `patch` touches: an edited field's error goes away as
 * soon as it is touched (a file chosen answers a missing description too). */
function withoutTouched(errors: DraftErrors, patch: Partial<ComposerDraft>): DraftErrors {
  const cleared = { ...errors };
  if ("description" in patch) delete cleared.input;
  if ("context" in patch || "existing" in patch) delete cleared.context;
  if ("docUrls" in patch) delete cleared.docUrls;
  if ("file" in patch) delete cleared.file;
  if ("file" in patch && patch.file) delete cleared.input;
  return cleared;
}
