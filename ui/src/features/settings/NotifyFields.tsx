// Preferences' desktop notifications: one switch for all, and one per kind of finished work
// (src-tauri's notify.rs reads them). They only ever notify while Specdesk is in the background;
// the in-app notice of a finished job shows whatever these say.
import type { NotifyKinds, Settings } from "../../ipc/contract";

const KINDS: { key: keyof NotifyKinds; label: string }[] = [
  { key: "specs", label: "A spec is ready or could not be generated" },
  { key: "batches", label: "A browser batch has finished" },
  { key: "videos", label: "A video is ready or could not be made" },
];

export function NotifyFields({ draft, set }: { draft: Settings; set: (patch: Partial<Settings>) => void }) {
  return (
    <fieldset className="field notify-fields">
      <legend>Desktop notifications</legend>
      <label className="row" htmlFor="pref-notify">
        <input id="pref-notify" type="checkbox" checked={draft.notifications} onChange={(e) => set({ notifications: e.target.checked })} />
        Notify me when long work finishes while Specdesk is in the background
      </label>
      <div className="notify-kinds" role="group" aria-label="Notify me when">
        {KINDS.map(({ key, label }) => (
          <label key={key} className="row" htmlFor={`pref-notify-${key}`}>
            <input
              id={`pref-notify-${key}`}
              type="checkbox"
              disabled={!draft.notifications}
              checked={draft.notify[key]}
              onChange={(e) => set({ notify: { ...draft.notify, [key]: e.target.checked } })}
            />
            {label}
          </label>
        ))}
      </div>
      <p className="hint" id="pref-notify-help">
        Clicking a notification brings Specdesk forward (on Linux, on the item). While Specdesk is in front, a notice in the window says it
        instead, with Open.
      </p>
    </fieldset>
  );
}
