// The library of specs: a search as you type (plain text, or a checked pattern), filters (depth,
// status), pages of 10, 25 or 50, and columns that sort the page shown (the service has no sort
// order to ask for). Each spec can get a local title and be archived on this computer (hidden from
// the list, listed under "Show archived"). Rows that are still generating refresh on their own;
// when the service cannot be reached the specs kept on this computer are listed (and still open).
// Each keystroke is answered at once from the specs kept on this computer, said so in a status
// line, until the service's answer after the pause in typing replaces them (library/useLocalAnswer).
// The search, filters, page and sort are in the address (library/useListView), so Back from an
// opened spec and a relaunch return to the same list.
import { useEffect, useId, useMemo, useRef } from "react";
import { ErrorKind } from "../../ipc/contract";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { toIpcError } from "../../ipc/invoke";
import { useSettings } from "../../ipc/hooks";
import { ErrorPanel } from "../../components/ErrorPanel";
import { useNotice } from "../../lib/notices";
import { matchesFilters, pageRange, searchPattern, toQuery, type LibraryFilters } from "./libraryFilters";
import { archiveSpec, refreshArchived, unarchiveSpec, useArchived } from "./library/archive";
import { excerpt, specName } from "./library/names";
import { FilterFields } from "./library/FilterFields";
import { SearchBox } from "./library/SearchBox";
import { useRowsPaintedMark, useSearchPaintedMark } from "./library/searchTiming";
import { nextSort, sortSpecs, type SortKey } from "./library/sortSpecs";
import { SpecTable } from "./library/SpecTable";
import { useSpecTitles } from "./library/titles";
import { forgetListConnection, useListView } from "./library/useListView";
import { useLocalAnswer } from "./library/useLocalAnswer";
import { useSpecPage } from "./queries";

/** Forgets which connection the list was last shown for (tests). */
export function resetLibraryFilters(): void {
  forgetListConnection();
}

/**
 * The library of the connection in use: mounted again for another connection, so nothing of the
 * previous one (rows, a search being typed) is kept, and its list starts on the defaults.
 */
export function Library() {
  const profileId = useSettings().data?.activeProfileId ?? "";
  return <ConnectionLibrary key={profileId} profileId={profileId} />;
}

function ConnectionLibrary({ profileId }: { profileId: string }) {
  const id = useId();
  const [view, setView] = useListView(profileId);
  const { filters, sort, showArchived } = view;
  const setFilters = (f: LibraryFilters) => setView({ filters: f });

  const page = useSpecPage(toQuery(filters));
  const titles = useSpecTitles();
  const archived = useArchived(profileId);
  const notice = useNotice();

  const local = useLocalAnswer(filters, page);
  const data = page.data;
  // What the list shows: the rows kept on this computer while the service's answer is awaited.
  const shown = local.page ?? data;
  const shownSkip = local.page ? local.skip : filters.skip;
  // Timing of the search as you type (bench/library-search.mjs): the rows for a keystroke, then
  // the service's answer, once each is on screen.
  const serviceAnswer = page.isPlaceholderData ? undefined : data;
  useRowsPaintedMark(local.page ? local.search : filters.search, local.page ? (local.fresh ? local.page : undefined) : serviceAnswer);
  useSearchPaintedMark(filters.search, filters.pattern, serviceAnswer, page.isError);
  useEffect(() => {
    if (data && !data.offline) refreshArchived(data.specs);
  }, [data]);
  // A page past the end (an address kept from a longer list, or specs deleted since) shows the last one.
  const pastEnd = !!data && !page.isPlaceholderData && data.specs.length === 0 && data.total > 0 && filters.skip >= data.total;
  const lastSkip = data ? Math.floor((data.total - 1) / filters.pageSize) * filters.pageSize : 0;
  useEffect(() => {
    if (pastEnd) setFilters({ ...filters, skip: lastSkip });
  });

  // After Archive or Unarchive the row is gone: focus goes to the "Show archived" box.
  const archivedBox = useRef<HTMLInputElement>(null);
  const focusBox = useRef(false);
  useEffect(() => {
    if (!focusBox.current) return;
    focusBox.current = false;
    archivedBox.current?.focus();
  });

  const archive = (spec: SpecRecord) => {
    archiveSpec(profileId, spec);
    focusBox.current = true;
    notice(`“${excerpt(specName(spec, titles), 60)}” is archived: hidden from the list, still in your library.`, {
      label: "Undo",
      run: () => unarchiveSpec(spec._id),
    });
  };
  const unarchive = (spec: SpecRecord) => {
    unarchiveSpec(spec._id);
    focusBox.current = true;
    notice(`“${excerpt(specName(spec, titles), 60)}” is back in the list.`);
  };

  const search = (text: string, pattern: boolean) => {
    const next = { ...filters, search: text, pattern };
    if (next.search === filters.search && next.pattern === filters.pattern) return;
    // Ticking "Pattern" with nothing typed changes no query: the page stays.
    const same = searchPattern(next) === searchPattern(filters);
    setFilters({ ...next, skip: same ? filters.skip : 0 });
  };

  const rawError = page.isError ? toIpcError(page.error) : null;
  // A pattern refused by the service (or by the offline search) is shown beside the search box.
  const serviceRefused = rawError?.kind === ErrorKind.invalidInput && rawError.field === "search" ? rawError.message : null;
  const patternError = local.page ? null : (local.refused ?? serviceRefused);
  const error = serviceRefused || local.page ? null : rawError;
  const filtered = !!(filters.endpoint || filters.status || filters.search);
  const nameOf = (s: SpecRecord) => specName(s, titles);

  const archivedIds = useMemo(() => new Set(archived.map((a) => a.spec._id)), [archived]);
  const listed = shown ? shown.specs.filter((s) => !archivedIds.has(s._id)) : [];
  const hiddenHere = shown ? shown.specs.length - listed.length : 0;
  const archivedShown = archived.map((a) => a.spec).filter((s) => matchesFilters(s, filters));
  const onSort = (key: SortKey) => setView({ sort: nextSort(sort, key) });
  const table = (specs: SpecRecord[], inArchive: boolean) => (
    <SpecTable
      caption={inArchive ? "Your archived specs" : "Your specs"}
      specs={sortSpecs(specs, sort, nameOf)}
      titles={titles}
      order={sort}
      onSort={onSort}
      archived={inArchive}
      onArchive={archive}
      onUnarchive={unarchive}
    />
  );

  return (
    <section aria-labelledby={`${id}-title`} className="library">
      <div className="section-head">
        <h2 id={`${id}-title`}>Library</h2>
        {page.isFetching && !page.isPending && !local.page && <span className="muted">Refreshing…</span>}
      </div>

      <SearchBox id={id} search={filters.search} pattern={filters.pattern} onSearch={search} onTyped={local.onTyped} refused={patternError} />

      <div className="row lib-filters">
        <FilterFields id={id} filters={filters} onChange={setFilters} />
        {(archived.length > 0 || showArchived) && (
          <label className="lib-check lib-archived-toggle">
            <input ref={archivedBox} type="checkbox" checked={showArchived} onChange={(e) => setView({ showArchived: e.target.checked })} />
            Show archived ({archived.length})
          </label>
        )}
      </div>

      {showArchived ? (
        <>
          <p className="hint lib-note">Archived specs are hidden from the list on this computer only; they stay in your library on the service.</p>
          {archivedShown.length > 0 ? (
            table(archivedShown, true)
          ) : (
            <div className="empty">
              {archived.length > 0
                ? "No archived spec matches these filters. Change or clear them to see more."
                : "No archived specs. Archive a spec to hide it from the list; Unarchive brings it back."}
            </div>
          )}
        </>
      ) : (
        <>
          {data?.offline && (
            <div className="panel panel-info" role="status">
              <h3>Showing specs saved on this computer</h3>
              <p>The service cannot be reached right now. These specs were kept here and still open; new ones appear when you are back online.</p>
            </div>
          )}

          {error && (
            <ErrorPanel
              error={error}
              onRetry={() => {
                void page.refetch();
              }}
            />
          )}

          {/* Always in the page, so that its words are announced when they come (politely). */}
          <p className="muted lib-note lib-local" role="status">
            {local.page ? "Showing the specs kept on this computer; checking the service…" : ""}
          </p>

          {page.isPending && !local.page && <p className="skeleton">Loading your specs…</p>}

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
                table(listed, false)
              ) : (
                <div className="empty">Every spec on this page is archived. Tick “Show archived” to see them, or go to another page.</div>
              )}
              {hiddenHere > 0 && listed.length > 0 && (
                <p className="muted lib-note">
                  {hiddenHere === 1 ? "1 archived spec on this page is not shown." : `${hiddenHere} archived specs on this page are not shown.`}
                </p>
              )}
              {sort && (shownSkip > 0 || shown.hasMore) && (
                <p className="hint lib-note">Sorted within this page: the service sends specs newest first, one page at a time.</p>
              )}
              <nav className="row pager" aria-label="Pages of specs">
                <button
                  className="btn"
                  type="button"
                  disabled={filters.skip === 0}
                  onClick={() => setFilters({ ...filters, skip: Math.max(0, filters.skip - filters.pageSize) })}
                >
                  Previous
                </button>
                <span aria-live="polite">{pageRange(shownSkip, shown.specs.length, shown.total)}</span>
                <button
                  className="btn"
                  type="button"
                  disabled={!shown.hasMore}
                  onClick={() => setFilters({ ...filters, skip: filters.skip + filters.pageSize })}
                >
                  Next
                </button>
              </nav>
            </>
          )}
        </>
      )}
    </section>
  );
}
