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
  /** Daily spend cap in credits, as typed (empty or missing: none). */
  dailyCap?: string;
}

export const EMPTY_DRAFT: ProfileDraft = { name: "", baseUrl: "https://", keyKind: "personal", projectId: "", apiKey: "", dailyCap: "" };

/** A daily cap as typed: empty (no cap) or credits above 0 and up to 1,000,000 (crates/core `Settings::validate`). */
export function checkDailyCap(text: string | undefined): string | null {
  const t = (text ?? "").trim();
  if (!t) return null;
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0 || n > 1_000_000) return "Enter a number of credits above 0 and up to 1,000,000, or leave it empty for no cap.";
  return null;
}

/** The cap a draft sets (`undefined`: no cap). */
export function capOf(d: Pick<ProfileDraft, "dailyCap">): number | undefined {
  const t = (d.dailyCap ?? "").trim();
  return t && checkDailyCap(t) === null ? Number(t) : undefined;
}

/** Local checks, field by field, before anything is sent (`capOnly`: the built-in Sandbox, whose
 * cap alone can change). */
export function checkDraft(d: ProfileDraft, withKey: boolean, capOnly = false): FieldErrors {
  const errors: FieldErrors = {};
  const cap = checkDailyCap(d.dailyCap);
  if (cap) errors.dailyCap = cap;
  if (capOnly) return errors;
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
  /** Only the daily cap (the built-in Sandbox's address and name are fixed). */
  capOnly?: boolean;
}

/** Add or edit a connection. The draft stays as typed whatever fails; the key field is cleared
 * once saved. */
export function ProfileForm({ initial, withKey, submitLabel, onSubmit, onCancel, capOnly = false }: Props) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const [showKey, setShowKey] = useState(false);
  const set = (patch: Partial<ProfileDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const local = checkDraft(draft, withKey, capOnly);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      await onSubmit(draft);
      setDraft((d) => ({ ...d, apiKey: "" }));
    } catch (err) {
      const ipc = toIpcError(err);
      if (ipc.field && ipc.kind === ErrorKind.invalidInput) setErrors({ [ipc.field === "spendCaps" ? "dailyCap" : ipc.field]: ipc.message });
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
      {!capOnly && field(
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
      {!capOnly && field(
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
      {!capOnly && field(
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
      {!capOnly && field(
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
      {field(
        "dailyCap",
        "Daily spend cap in credits (optional)",
        <input
          id="profile-dailyCap"
          className="input"
          inputMode="decimal"
          value={draft.dailyCap ?? ""}
          onChange={(e) => set({ dailyCap: e.target.value })}
          aria-invalid={!!errors.dailyCap}
          aria-describedby={described("dailyCap")}
        />,
        "A gateway call that would pass it today is stopped before it is sent. Leave it empty for no cap.",
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
