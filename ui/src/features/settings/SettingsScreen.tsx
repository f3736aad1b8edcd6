import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { SETTINGS_SECTIONS, useNavigate, type SettingsSection } from "../../lib/nav";
import { SECTION_NAMES } from "../../lib/placeNames";
import { useQueryClient } from "@tanstack/react-query";
import { open as openDialog } from "@tauri-apps/plugin-dialog";
import type { IpcError, ProfileView, Settings } from "../../ipc/contract";
import { toIpcError } from "../../ipc/invoke";
import {
  useAddProfile,
  useDeleteKey,
  useDeleteProfile,
  useProfiles,
  useSaveSettings,
  useSetActiveProfile,
  useSetKey,
  useSettings,
  useTestConnection,
  useUpdateProfile,
  keys,
} from "../../ipc/hooks";
import { ErrorPanel } from "../../components/ErrorPanel";
import { formatCredits } from "../../lib/format";
import { checkApiKey } from "../../lib/validate";
import { EMPTY_DRAFT, ProfileForm, capOf, toInput, type ProfileDraft } from "./ProfileForm";
import { Spending, useSaveCap } from "./Spending";
import { Support } from "./Support";
import { NotifyFields } from "./NotifyFields";

type Notice = { kind: "success" | "info"; text: string } | null;

function KeyPanel({ profile, onNotice }: { profile: ProfileView; onNotice: (n: Notice) => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [confirming, setConfirming] = useState(false);
  const setKeyM = useSetKey();
  const deleteKey = useDeleteKey();

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const local = checkApiKey(key);
    setError(local);
    if (local) return;
    try {
      const change = await setKeyM.mutateAsync({ profileId: profile.id, apiKey: key });
      setKey("");
      onNotice({ kind: change.notice ? "info" : "success", text: change.notice ?? "Your key is saved in your keychain." });
    } catch (err) {
      setFailure(toIpcError(err));
    }
  };

  const remove = async () => {
    setFailure(null);
    try {
      await deleteKey.mutateAsync(profile.id);
      setConfirming(false);
      onNotice({ kind: "success", text: "The key was removed from your keychain." });
    } catch (err) {
      setFailure(toIpcError(err));
    }
  };

  const inputId = `key-${profile.id}`;
  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label={`API key for ${profile.name}`}>
      {failure && <ErrorPanel error={failure} />}
      <div className="field">
        <label htmlFor={inputId}>{profile.key.hasKey ? "Replace the API key" : "API key"}</label>
        <input
          id={inputId}
          className="input mono"
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          aria-invalid={!!error}
          aria-describedby={error ? `${inputId}-error` : undefined}
        />
        {error && (
          <span className="error-text" id={`${inputId}-error`} role="alert">
            {error}
          </span>
        )}
      </div>
      <div className="row">
        <button className="btn btn-primary" type="submit" disabled={setKeyM.isPending}>
          Save key
        </button>
        {profile.key.hasKey &&
          (confirming ? (
            <>
              <span>Remove the key from your keychain?</span>
              <button className="btn btn-danger" type="button" onClick={() => void remove()}>
                Remove
              </button>
              <button className="btn" type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button className="btn btn-danger" type="button" onClick={() => setConfirming(true)}>
              Remove key
            </button>
          ))}
      </div>
    </form>
  );
}

function ProfileRow({ profile, cap, onEdit }: { profile: ProfileView; cap: number | undefined; onEdit: () => void }) {
  const test = useTestConnection();
  const setActive = useSetActiveProfile();
  const del = useDeleteProfile();
  const [notice, setNotice] = useState<Notice>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [showKey, setShowKey] = useState(false);

  const run = async (f: () => Promise<unknown>) => {
    setFailure(null);
    setNotice(null);
    try {
      await f();
    } catch (err) {
      setFailure(toIpcError(err));
    }
  };

  return (
    <li className="profile-item" data-active={profile.active} aria-label={profile.name}>
      <div className="profile-head">
        <div>
          <div className="row">
            <strong>{profile.name}</strong>
            {profile.active && <span className="badge badge-success">In use</span>}
            {profile.builtIn && <span className="badge badge-sandbox">Sandbox — offline, simulated</span>}
            {profile.trial && <span className="badge badge-trial">Gateway free trial</span>}
          </div>
          {profile.trial && <p className="muted">Its key is on the AI gateway&rsquo;s free trial: 5 credits of gateway use in all, 30 calls a minute.</p>}
          <div className="muted mono">{profile.baseUrl}</div>
          <div className="muted">
            {profile.key.hasKey ? `Key ${profile.key.maskedTail ?? ""}` : "No key yet"}
          </div>
          <div className="muted">{cap === undefined ? "No daily spend cap" : `Daily spend cap: ${formatCredits(cap)} credits`}</div>
        </div>
        <div className="row">
          {!profile.active && (
            <button className="btn" type="button" onClick={() => void run(() => setActive.mutateAsync(profile.id))}>
              Use
            </button>
          )}
          <button
            className="btn"
            type="button"
            disabled={test.isPending}
            onClick={() =>
              void run(async () => {
                const r = await test.mutateAsync(profile.id);
                setNotice({ kind: "success", text: `Connected. ${formatCredits(r.creditsRemaining)} credits available.` });
              })
            }
          >
            {test.isPending ? "Testing…" : "Test connection"}
          </button>

          {!profile.builtIn && (
            <>
              <button className="btn" type="button" onClick={() => setShowKey((s) => !s)} aria-expanded={showKey}>
                API key
              </button>
              <button className="btn" type="button" onClick={onEdit}>
                Edit
              </button>
              {confirmDelete ? (
                <>
                  <button className="btn btn-danger" type="button" onClick={() => void run(() => del.mutateAsync(profile.id))}>
                    Remove {profile.name}
                  </button>
                  <button className="btn" type="button" onClick={() => setConfirmDelete(false)}>
                    Keep
                  </button>
                </>
              ) : (
                <button className="btn btn-danger" type="button" onClick={() => setConfirmDelete(true)}>
                  Remove
                </button>
              )}
            </>
          )}
        </div>
      </div>
      {notice && (
        <div className={`panel panel-${notice.kind}`} role="status">
          {notice.text}
        </div>
      )}
      {failure && <ErrorPanel error={failure} />}
      {showKey && !profile.builtIn && <KeyPanel profile={profile} onNotice={setNotice} />}
    </li>
  );
}

function Connections() {
  const profiles = useProfiles();
  const settings = useSettings();
  const saveCap = useSaveCap();
  const add = useAddProfile();
  const update = useUpdateProfile();
  const caps = settings.data?.spendCaps ?? {};

  const [mode, setMode] = useState<{ kind: "add" } | { kind: "edit"; profile: ProfileView } | null>(null);

  if (profiles.isPending) return <p className="muted">Loading connections…</p>;
  if (profiles.isError) return <ErrorPanel error={toIpcError(profiles.error)} onRetry={() => void profiles.refetch()} />;

  const submitAdd = async (d: ProfileDraft) => {
    const apiKey = d.apiKey.trim();
    const view = await add.mutateAsync({ input: toInput(d), ...(apiKey ? { apiKey } : {}) });
    await saveCap(view.id, capOf(d));
    setMode(null);
  };
  const submitEdit = (profile: ProfileView) => async (d: ProfileDraft) => {
    if (!profile.builtIn) await update.mutateAsync({ id: profile.id, input: toInput(d) });
    await saveCap(profile.id, capOf(d));
    setMode(null);
  };

  return (
    <section className="card" aria-labelledby="connections-title">
      <h2 id="connections-title">Connections</h2>
      <p className="muted">Each connection is a service address and its API key. Keys stay in your system keychain.</p>
      <ul className="profile-list">
        {profiles.data.map((p) => (
          <ProfileRow key={p.id} profile={p} cap={caps[p.id]} onEdit={() => setMode({ kind: "edit", profile: p })} />
        ))}
      </ul>
      {mode === null && (
        <button className="btn btn-primary" type="button" onClick={() => setMode({ kind: "add" })}>
          Add connection
        </button>
      )}
      {mode?.kind === "add" && (
        <ProfileForm initial={EMPTY_DRAFT} withKey submitLabel="Add connection" onSubmit={submitAdd} onCancel={() => setMode(null)} />
      )}
      {mode?.kind === "edit" && (
        <ProfileForm
          initial={{
            name: mode.profile.name,
            baseUrl: mode.profile.baseUrl,
            keyKind: mode.profile.keyKind,
            projectId: mode.profile.projectId ?? "",
            apiKey: "",
            dailyCap: caps[mode.profile.id] === undefined ? "" : String(caps[mode.profile.id]),
          }}
          withKey={false}
          capOnly={mode.profile.builtIn}
          submitLabel={mode.profile.builtIn ? `Save ${mode.profile.name}'s cap` : "Save changes"}
          onSubmit={submitEdit(mode.profile)}
          onCancel={() => setMode(null)}
        />
      )}
    </section>
  );
}

function Preferences() {
  const settings = useSettings();
  if (settings.isError) return <ErrorPanel error={toIpcError(settings.error)} onRetry={() => void settings.refetch()} />;
  if (settings.isPending) return <p className="muted">Loading preferences…</p>;
  return <PreferencesForm initial={settings.data} />;
}

function PreferencesForm({ initial }: { initial: Settings }) {
  const save = useSaveSettings();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Settings>(initial);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [saved, setSaved] = useState(false);

  const set = (patch: Partial<Settings>) => {
    setSaved(false);
    setDraft({ ...draft, ...patch });
  };
  const pollError =
    draft.specPollIntervalSecs < 10 || draft.specPollIntervalSecs > 15 || !Number.isInteger(draft.specPollIntervalSecs)
      ? "Choose a whole number of seconds from 10 to 15."
      : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    if (pollError) return;
    try {
      // Caps are edited with their connection: the latest ones are kept, not this form's copy.
      const latest = qc.getQueryData<Settings>(keys.settings);
      const { spendCaps: _mine, ...rest } = draft;
      void _mine;
      setDraft(await save.mutateAsync({ ...rest, ...(latest?.spendCaps ? { spendCaps: latest.spendCaps } : {}) }));
      setSaved(true);
    } catch (err) {
      setFailure(toIpcError(err));
    }
  };

  const chooseFolder = async () => {
    try {
      const folder = await openDialog({ directory: true, multiple: false, title: "Download folder" });
      if (typeof folder === "string") set({ downloadFolder: folder });
    } catch (err) {
      setFailure(toIpcError(err));
    }
  };

  return (
    <form className="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="prefs-title">
      <h2 id="prefs-title">Preferences</h2>
      {failure && <ErrorPanel error={failure} />}
      <div className="field">
        <label htmlFor="pref-theme">Appearance</label>
        <select id="pref-theme" className="select" value={draft.theme} onChange={(e) => set({ theme: e.target.value as Settings["theme"] })}>
          <option value="system">Same as my system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="pref-poll">Check spec progress every (seconds)</label>
        <input
          id="pref-poll"
          className="input"
          type="number"
          min={10}
          max={15}
          step={1}
          value={draft.specPollIntervalSecs}
          onChange={(e) => set({ specPollIntervalSecs: Number(e.target.value) })}
          aria-invalid={!!pollError}
          aria-describedby="pref-poll-help"
        />
        <span id="pref-poll-help" className={pollError ? "error-text" : "hint"}>
          {pollError ?? "The service recommends 10 to 15 seconds."}
        </span>
      </div>
      <div className="field">
        <label htmlFor="pref-depth">Default spec depth</label>
        <select
          id="pref-depth"
          className="select"
          value={draft.defaultSpecDepth}
          onChange={(e) => set({ defaultSpecDepth: e.target.value as Settings["defaultSpecDepth"] })}
        >
          <option value="fast">Fast — milestones and stories</option>
          <option value="deep">Deep — with subtasks (paid plan)</option>
        </select>
      </div>
      <div className="field">
        <span className="field-label" id="pref-folder-label">
          <strong>Download folder</strong>
        </span>
        <div className="row" aria-labelledby="pref-folder-label">
          <span className="mono">{draft.downloadFolder ?? "Your Downloads folder"}</span>
          <button className="btn" type="button" onClick={() => void chooseFolder()}>
            Choose…
          </button>
          {draft.downloadFolder && (
            <button className="btn btn-ghost" type="button" onClick={() => set({ downloadFolder: undefined })}>
              Use Downloads
            </button>
          )}
        </div>
      </div>
      <NotifyFields draft={draft} set={set} />
      <div className="row">
        <button className="btn btn-primary" type="submit" disabled={save.isPending || !!pollError}>
          Save preferences
        </button>
        {saved && (
          <span role="status" className="muted">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}

/** `section`: the one the route names (`#/settings/<section>`), scrolled to. */
export function SettingsScreen({ section }: { section?: SettingsSection }) {
  const navigate = useNavigate();
  const page = useRef<HTMLDivElement>(null);
  // A section named by the route (a relaunch, the palette, a link) is scrolled to, after the
  // frame's own scroll for a new place (features/shell/scrollMemory.ts).
  useEffect(() => {
    if (!section) return;
    const frame = window.requestAnimationFrame(() => page.current?.querySelector(`#settings-${section}`)?.scrollIntoView?.({ block: "start" }));
    return () => window.cancelAnimationFrame(frame);
  }, [section]);
  // A section chosen in the list is scrolled to and takes the focus (the next Tab goes into it).
  const goTo = (name: SettingsSection) => {
    navigate({ area: "settings", section: name }, { replace: true });
    const el = page.current?.querySelector<HTMLElement>(`#settings-${name}`);
    el?.scrollIntoView?.({ block: "start" });
    el?.focus({ preventScroll: true });
  };
  const part = (name: SettingsSection, body: ReactNode) => (
    <div id={`settings-${name}`} className="settings-section" tabIndex={-1}>
      {body}
    </div>
  );
  return (
    <div className="page" ref={page}>
      <h1>Settings</h1>
      <nav className="settings-nav" aria-label="Sections of Settings">
        {SETTINGS_SECTIONS.map((name) => (
          <a
            key={name}
            href={`#/settings/${name}`}
            aria-current={section === name ? "location" : undefined}
            onClick={(e) => {
              e.preventDefault();
              goTo(name);
            }}
          >
            {SECTION_NAMES[name]}
          </a>
        ))}
      </nav>
      {part("connections", <Connections />)}
      {part("preferences", <Preferences />)}
      {part("spending", <Spending />)}
      {part("support", <Support />)}
    </div>
  );
}
