// The library of specs: a search as you type (plain text, or a checked pattern), filters (depth,
// status), pages of 10, 25 or 50, and columns that sort the page shown (the service has no sort
// order to ask for). Each spec can get a local title and be archived on this computer (hidden from
// the list, listed under "Show archived"). Rows that are still generating refresh on their own;
// when the service cannot be reached the specs kept on this computer are listed (and still open).
// Each keystroke is answered at once from the specs kept on this computer, said so in a status
// line, until the service's answer after the pause in typing replaces them (library/useLocalAnswer).
// The search, filters, page and sort are in the address (library/useListView), so Back from an
// opened spec and a relaunch return to the same list.
import { useId, useMemo } from "react";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { useSettings } from "../../ipc/hooks";
import { matchesFilters, type LibraryFilters } from "./libraryFilters";
import { ArchivedList } from "./library/ArchivedList";
import { useArchived } from "./library/archive";
import { FilterRow } from "./library/FilterRow";
import { specName } from "./library/names";
import { SearchBox } from "./library/SearchBox";
import { nextSort, sortSpecs, type SortKey } from "./library/sortSpecs";
import { SpecList } from "./library/SpecList";
import { SpecTable } from "./library/SpecTable";
import { useSpecTitles } from "./library/titles";
import { useArchiveActions } from "./library/useArchiveActions";
import { useLibraryPage } from "./library/useLibraryPage";
import { forgetListConnection, useListView } from "./library/useListView";

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

// The parts, each in ./library: the list's page and search (useLibraryPage), Archive and Unarchive
// (useArchiveActions), the search box, the filter row, and either the list (SpecList, with its
// pager) or the archived specs (ArchivedList); this component puts them together.
function ConnectionLibrary({ profileId }: { profileId: string }) {
  const id = useId();
  const [view, setView] = useListView(profileId);
  const { filters, sort, showArchived } = view;
  const setFilters = (f: LibraryFilters) => setView({ filters: f });

  const { page, local, shown, shownSkip, search, patternError, error } = useLibraryPage(filters, setFilters);
  const titles = useSpecTitles();
  const archived = useArchived(profileId);
  const { boxRef, archive, unarchive } = useArchiveActions(profileId, titles);

  const archivedIds = useMemo(() => new Set(archived.map((a) => a.spec._id)), [archived]);
  const nameOf = (s: SpecRecord) => specName(s, titles);
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

      <FilterRow
        id={id}
        filters={filters}
        onChange={setFilters}
        archivedCount={archived.length}
        showArchived={showArchived}
        onShowArchived={(show) => setView({ showArchived: show })}
        boxRef={boxRef}
      />

      {showArchived ? (
        <ArchivedList
          archivedCount={archived.length}
          specs={archived.map((a) => a.spec).filter((s) => matchesFilters(s, filters))}
          table={(specs) => table(specs, true)}
        />
      ) : (
        <SpecList
          offline={!!page.data?.offline}
          error={error}
          onRetry={() => {
            void page.refetch();
          }}
          local={!!local.page}
          loading={page.isPending && !local.page}
          shown={shown}
          shownSkip={shownSkip}
          archivedIds={archivedIds}
          sorted={!!sort}
          filters={filters}
          onChange={setFilters}
          table={(specs) => table(specs, false)}
        />
      )}
    </section>
  );
}
