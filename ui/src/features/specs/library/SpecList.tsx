// The list of the connection's specs (not "Show archived"): whether they come from this computer
// (offline, or while a search is checked with the service), an error, loading, the rows with those
// archived here left out, and the pager. The status line is always in the page, so that its words
// are announced when they come (politely).
import type { ReactNode } from "react";
import type { IpcError, SpecPage } from "../../../ipc/contract";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { ErrorPanel } from "../../../components/ErrorPanel";
import type { LibraryFilters } from "../libraryFilters";
import { Pager } from "./Pager";

interface Props {
  /** The service could not be reached: its page is the specs kept on this computer. */
  offline: boolean;
  error: IpcError | null;
  onRetry: () => void;
  /** The rows are the instant answer from this computer, the service's still awaited. */
  local: boolean;
  /** The first page is awaited, with nothing to show meanwhile. */
  loading: boolean;
  /** The page shown (undefined while none has come). */
  shown: SpecPage | undefined;
  /** The first shown row's offset. */
  shownSkip: number;
  /** The ids of the specs archived here, left out of the rows. */
  archivedIds: ReadonlySet<string>;
  /** The page is sorted here (only within itself). */
  sorted: boolean;
  filters: LibraryFilters;
  onChange: (filters: LibraryFilters) => void;
  /** The table of these specs (sorted, with their actions). */
  table: (specs: SpecRecord[]) => ReactNode;
}

export function SpecList({ offline, error, onRetry, local, loading, shown, shownSkip, archivedIds, sorted, filters, onChange, table }: Props) {
  const filtered = !!(filters.endpoint || filters.status || filters.search);
  const listed = shown ? shown.specs.filter((s) => !archivedIds.has(s._id)) : [];
  const hiddenHere = shown ? shown.specs.length - listed.length : 0;
  return (
    <>
      {offline && (
        <div className="panel panel-info" role="status">
          <h3>Showing specs saved on this computer</h3>
          <p>The service cannot be reached right now. These specs were kept here and still open; new ones appear when you are back online.</p>
        </div>
      )}

      {error && <ErrorPanel error={error} onRetry={onRetry} />}

      <p className="muted lib-note lib-local" role="status">
        {local ? "Showing the specs kept on this computer; checking the service…" : ""}
      </p>

      {loading && <p className="skeleton">Loading your specs…</p>}

      {shown && shown.specs.length === 0 && !error && (
        <div className="empty">
          {filtered
            ? "No spec matches these filters. Change or clear them to see more."
            : "No specs yet. Describe what you want to build above to generate your first one."}
        </div>
      )}

      {shown && shown.specs.length > 0 && (
        <>
          {listed.length > 0 ? (
            table(listed)
          ) : (
            <div className="empty">Every spec on this page is archived. Tick “Show archived” to see them, or go to another page.</div>
          )}
          {hiddenHere > 0 && listed.length > 0 && (
            <p className="muted lib-note">
              {hiddenHere === 1 ? "1 archived spec on this page is not shown." : `${hiddenHere} archived specs on this page are not shown.`}
            </p>
          )}
          {sorted && (shownSkip > 0 || shown.hasMore) && (
            <p className="hint lib-note">Sorted within this page: the service sends specs newest first, one page at a time.</p>
          )}
          <Pager filters={filters} onChange={onChange} shownSkip={shownSkip} count={shown.specs.length} total={shown.total} hasMore={shown.hasMore} />
        </>
      )}
    </>
  );
}
