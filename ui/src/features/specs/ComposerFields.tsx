// The composer's fields (Composer.tsx puts them together with the send and the cost): each with
// its label, hint and error, the error tied to its field by aria-describedby.
import type { RefObject } from "react";
import type { SpecDepth } from "../../ipc/contract";
import { formatBytes } from "../../lib/format";
import { checkWebUrl, docUrlLines, type ComposerDraft, type DraftErrors, type DraftField } from "./draft";

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

/** What every field gets: the composer's id base, the draft, its errors and how to change it. */
export interface FieldProps {
  id: string;
  draft: ComposerDraft;
  errors: DraftErrors;
  update: (patch: Partial<ComposerDraft>) => void;
}

/** The ids of the fields an error can send the focus to. */
export function fieldIdsOf(id: string): Record<DraftField, string> {
  return { input: `${id}-input`, file: `${id}-file`, context: `${id}-context`, docUrls: `${id}-docs` };
}

/** A field's hint, then its error when it has one. */
function describedBy(id: string, errors: DraftErrors, f: DraftField, hint: string): string {
  return [hint, errors[f] ? `${fieldIdsOf(id)[f]}-error` : undefined].filter(Boolean).join(" ");
}

function FieldError({ id, errors, field }: { id: string; errors: DraftErrors; field: DraftField }) {
  const error = errors[field];
  if (!error) return null;
  return (
    <span className="error-text" id={`${fieldIdsOf(id)[field]}-error`} role="alert">
      {error}
    </span>
  );
}

export function DescriptionField({
  id,
  draft,
  errors,
  update,
  inputRef,
  onExample,
}: FieldProps & { inputRef: RefObject<HTMLTextAreaElement | null>; onExample: (text: string) => void }) {
  const showExamples = draft.description.trim() === "" && !draft.file && !draft.existing;
  return (
    <div className="field">
      <label htmlFor={fieldIdsOf(id).input}>{draft.existing ? "What should the new feature do?" : "What do you want to build?"}</label>
      <textarea
        id={fieldIdsOf(id).input}
        ref={inputRef}
        className="textarea composer-description"
        rows={6}
        value={draft.description}
        onChange={(e) => update({ description: e.target.value })}
        aria-invalid={!!errors.input}
        aria-describedby={describedBy(id, errors, "input", `${id}-input-hint`)}
      />
      <span className="hint" id={`${id}-input-hint`}>
        Plain words are fine: who it is for, what they do with it, anything it must connect to. Press{" "}
        <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (<kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) to generate.
      </span>
      <FieldError id={id} errors={errors} field="input" />
      {showExamples && (
        <div className="row example-ideas" role="group" aria-labelledby={`${id}-examples`}>
          <span className="muted" id={`${id}-examples`}>
            Or start from an example:
          </span>
          {EXAMPLE_IDEAS.map((idea) => (
            <button key={idea.label} className="btn btn-ghost example-idea" type="button" onClick={() => onExample(idea.text)}>
              {idea.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

export function FileField({
  id,
  draft,
  errors,
  update,
  dragging,
  inspecting,
  onPick,
}: FieldProps & { dragging: boolean; inspecting: boolean; onPick: () => void }) {
  const fileId = fieldIdsOf(id).file;
  return (
    <div className="field">
      <span className="field-label" id={`${fileId}-label`}>
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
          id={fileId}
          className="btn"
          type="button"
          onClick={onPick}
          disabled={inspecting}
          aria-labelledby={`${fileId}-label ${fileId}`}
          aria-describedby={describedBy(id, errors, "file", `${id}-file-hint`)}
        >
          {draft.file ? "Choose another file…" : "Choose a file…"}
        </button>
      </div>
      <span className="hint" id={`${id}-file-hint`}>
        Markdown, text, PDF, JSON or CSV, up to 20 MB. The service reads it as part of your description.
      </span>
      {draft.missingFileName && !draft.file && (
        <span className="hint warn-text">The earlier attempt had the file “{draft.missingFileName}”. Choose it again to include it.</span>
      )}
      <FieldError id={id} errors={errors} field="file" />
    </div>
  );
}

export function ExistingProjectField({ id, draft, errors, update }: FieldProps) {
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" checked={draft.existing} onChange={(e) => update({ existing: e.target.checked })} />
        Add to an existing project
      </label>
      {draft.existing && (
        <>
          <label htmlFor={fieldIdsOf(id).context}>About the existing project</label>
          <textarea
            id={fieldIdsOf(id).context}
            className="textarea"
            rows={4}
            value={draft.context}
            onChange={(e) => update({ context: e.target.value })}
            aria-invalid={!!errors.context}
            aria-describedby={describedBy(id, errors, "context", `${id}-context-hint`)}
          />
          <span className="hint" id={`${id}-context-hint`}>
            What it does today, its stack and its main parts, so the spec plugs the feature into it.
          </span>
          <FieldError id={id} errors={errors} field="context" />
        </>
      )}
    </div>
  );
}

export function DocLinksField({ id, draft, errors, update }: FieldProps) {
  const urlLines = docUrlLines(draft.docUrls);
  return (
    <div className="field">
      <label htmlFor={fieldIdsOf(id).docUrls}>Documentation links (optional)</label>
      <textarea
        id={fieldIdsOf(id).docUrls}
        className="textarea mono"
        rows={3}
        value={draft.docUrls}
        placeholder="https://docs.example.com"
        onChange={(e) => update({ docUrls: e.target.value })}
        aria-invalid={!!errors.docUrls}
        aria-describedby={describedBy(id, errors, "docUrls", `${id}-docs-hint`)}
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
      <FieldError id={id} errors={errors} field="docUrls" />
    </div>
  );
}

export function DepthChoice({ id, depth, update }: { id: string; depth: SpecDepth; update: FieldProps["update"] }) {
  return (
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
            — every story split into subtasks by layer (DB, API, FE, QA…), in about 2–3 minutes. About 10–50 credits. Needs a paid plan.
          </span>
        </span>
      </label>
    </fieldset>
  );
}
