import { useState, type FormEvent } from "react";
import { ErrorKind } from "../../ipc/contract";
import type { IpcError, KeyKind, ProfileInput } from "../../ipc/contract";
import { toIpcError } from "../../ipc/invoke";
import { checkApiKey, checkBaseUrl, checkProfileName, checkProjectId, type FieldErrors } from "../../lib/validate";
import { ErrorPanel } from "../../components/ErrorPanel";

export interface ProfileDraft {
  name: string;
  baseUrl: string;
  keyKind: KeyKind;
  projectId: string;
  apiKey: string;
}

export const EMPTY_DRAFT: ProfileDraft = { name: "", baseUrl: "https://", keyKind: "personal", projectId: "", apiKey: "" };

/** Local checks, field by field, before anything is sent. */
export function checkDraft(d: ProfileDraft, withKey: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const name = checkProfileName(d.name);
  if (name) errors.name = name;
  const url = checkBaseUrl(d.baseUrl);
  if (url) errors.baseUrl = url;
  const project = checkProjectId(d.projectId);
  if (project) errors.projectId = project;
  if (withKey && d.apiKey.trim()) {
    const key = checkApiKey(d.apiKey);
    if (key) errors.apiKey = key;
  }
  return errors;
}

export function toInput(d: ProfileDraft): ProfileInput {
  const projectId = d.projectId.trim();
  return { name: d.name.trim(), baseUrl: d.baseUrl.trim(), keyKind: d.keyKind, ...(projectId ? { projectId } : {}) };
}

interface Props {
  initial: ProfileDraft;
  withKey: boolean;
  submitLabel: string;
  onSubmit: (draft: ProfileDraft) => Promise<void>;
  onCancel: () => void;
}

/** Add or edit a connection. The draft stays as typed whatever fails; the key field is cleared
 * once saved. */
export function ProfileForm({ initial, withKey, submitLabel, onSubmit, onCancel }: Props) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const [showKey, setShowKey] = useState(false);
  const set = (patch: Partial<ProfileDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const local = checkDraft(draft, withKey);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      await onSubmit(draft);
      setDraft((d) => ({ ...d, apiKey: "" }));
    } catch (err) {
      const ipc = toIpcError(err);
      if (ipc.field && ipc.kind === ErrorKind.invalidInput) setErrors({ [ipc.field]: ipc.message });
      else setFailure(ipc);
    } finally {
      setBusy(false);
    }
  };

  const field = (id: keyof ProfileDraft, label: string, input: React.ReactNode, hint?: string) => (
    <div className="field">
      <label htmlFor={`profile-${id}`}>{label}</label>
      {input}
      {hint && !errors[id] && (
        <span className="hint" id={`profile-${id}-hint`}>
          {hint}
        </span>
      )}
      {errors[id] && (
        <span className="error-text" id={`profile-${id}-error`} role="alert">
          {errors[id]}
        </span>
      )}
    </div>
  );
  const described = (id: string) => (errors[id] ? `profile-${id}-error` : `profile-${id}-hint`);

  return (
    <form className="card" onSubmit={(e) => void submit(e)} noValidate aria-label={submitLabel}>
      {failure && <ErrorPanel error={failure} />}
      {field(
        "name",
        "Name",
        <input
          id="profile-name"
          className="input"
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          aria-invalid={!!errors.name}
          aria-describedby={described("name")}
        />,
        "For example Work or Personal.",
      )}
      {field(
        "baseUrl",
        "Service address",
        <input
          id="profile-baseUrl"
          className="input mono"
          value={draft.baseUrl}
          onChange={(e) => set({ baseUrl: e.target.value })}
          aria-invalid={!!errors.baseUrl}
          aria-describedby={described("baseUrl")}
          spellCheck={false}
        />,
        "Starts with https://.",
      )}
      {field(
        "keyKind",
        "Key type",
        <select
          id="profile-keyKind"
          className="select"
          value={draft.keyKind}
          onChange={(e) => set({ keyKind: e.target.value as KeyKind })}
          aria-describedby={described("keyKind")}
        >
          <option value="personal">Personal</option>
          <option value="organization">Organization</option>
        </select>,
        "Organization keys see the whole organization's projects.",
      )}
      {field(
        "projectId",
        "Project id (optional)",
        <input
          id="profile-projectId"
          className="input mono"
          value={draft.projectId}
          onChange={(e) => set({ projectId: e.target.value })}
          aria-invalid={!!errors.projectId}
          aria-describedby={described("projectId")}
          spellCheck={false}
        />,
        "AI gateway usage is attributed to this project.",
      )}
      {withKey &&
        field(
          "apiKey",
          "API key",
          <div className="row">
            <input
              id="profile-apiKey"
              className="input mono"
              type={showKey ? "text" : "password"}
              autoComplete="off"
              value={draft.apiKey}
              onChange={(e) => set({ apiKey: e.target.value })}
              aria-invalid={!!errors.apiKey}
              aria-describedby={described("apiKey")}
              spellCheck={false}
            />
            <button className="btn" type="button" onClick={() => setShowKey((s) => !s)} aria-pressed={showKey}>
              {showKey ? "Hide" : "Show"}
            </button>
          </div>,
          "Kept in your system keychain. You can also add it later.",
        )}
      <div className="row">
        <button className="btn btn-primary" type="submit" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
        <button className="btn" type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
