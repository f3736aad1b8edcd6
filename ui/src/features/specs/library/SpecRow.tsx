// One row of the library: the spec's name (its local title above the description, renamed in
// place), status, depth, date, hours, credits, and its actions (Rename…, Archive or Unarchive).
// A row renders again only when what it shows changes (see `sameRow`): a search as you type
// re-renders the library twice (the previous page kept on screen, then the answer), and most rows
// of the page it keeps need nothing new.
import { memo, useId, useRef, useState } from "react";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { formatCreditsWord, formatHours } from "../../../lib/format";
import { useNavigate } from "../../../lib/nav";
import { isLiveStatus } from "../queries";
import { depthLabel } from "../status";
import { SpecStatusBadge } from "../StatusBadge";
import { rowDateTime } from "./cells";
import { specDescription } from "./names";
import { TitleEditor } from "./TitleEditor";
import { setSpecTitle } from "./titles";

interface Props {
  spec: SpecRecord;
  /** The spec's local title, if it has one. */
  title: string | undefined;
  /** Listed under "Show archived": offers Unarchive instead of Archive. */
  archived: boolean;
  /** Kept the same from one render to the next (SpecTable does), or every row renders again. */
  onArchive: (spec: SpecRecord) => void;
  onUnarchive: (spec: SpecRecord) => void;
}

/** The same spec record, field by field (a new page from the service holds new objects). */
function sameSpec(a: SpecRecord, b: SpecRecord): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof SpecRecord)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function sameRow(a: Props, b: Props): boolean {
  return sameSpec(a.spec, b.spec) && a.title === b.title && a.archived === b.archived && a.onArchive === b.onArchive && a.onUnarchive === b.onUnarchive;
}

export const SpecRow = memo(SpecRowView, sameRow);

function SpecRowView({ spec, title, archived, onArchive, onUnarchive }: Props) {
  const navigate = useNavigate();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);
  const description = specDescription(spec);
  const live = isLiveStatus(spec.status);

  const stopEditing = () => {
    setEditing(false);
    // Focus goes back where the edit started (after the button is shown again).
    requestAnimationFrame(() => renameButton.current?.focus());
  };

  return (
    <tr data-live={live} data-archived={archived || undefined}>
      <td className="lib-desc">
        {editing ? (
          <TitleEditor
            id={id}
            initial={title ?? ""}
            onSave={(t) => {
              setSpecTitle(spec._id, t);
              stopEditing();
            }}
            onCancel={stopEditing}
          />
        ) : (
          <button id={`${id}-name`} className="link-button" type="button" onClick={() => navigate({ area: "specs", specId: spec._id })}>
            {title ?? description}
          </button>
        )}
        {(title !== undefined || editing) && <div className="muted lib-input">{description}</div>}
        {live && spec.progress && <div className="muted lib-progress">{spec.progress}</div>}
        {spec.status === "failed" && spec.errorMessage && <div className="error-text lib-progress">{spec.errorMessage}</div>}
      </td>
      <td>
        <SpecStatusBadge status={spec.status} />
      </td>
      <td>{depthLabel(spec.endpoint)}</td>
      <td className="lib-date">{rowDateTime(spec.created)}</td>
      <td className="num">{spec.totalHumanHours !== undefined ? formatHours(spec.totalHumanHours) : "—"}</td>
      <td className="num">{spec.creditsUsed !== undefined ? formatCreditsWord(spec.creditsUsed) : "—"}</td>
      <td className="lib-actions">
        {!editing && (
          <button ref={renameButton} className="btn btn-ghost lib-action" type="button" onClick={() => setEditing(true)} aria-describedby={`${id}-name`}>
            Rename…
          </button>
        )}
        {archived ? (
          <button className="btn btn-ghost lib-action" type="button" onClick={() => onUnarchive(spec)} aria-describedby={editing ? undefined : `${id}-name`}>
            Unarchive
          </button>
        ) : (
          <button className="btn btn-ghost lib-action" type="button" onClick={() => onArchive(spec)} aria-describedby={editing ? undefined : `${id}-name`}>
            Archive
          </button>
        )}
      </td>
    </tr>
  );
}
