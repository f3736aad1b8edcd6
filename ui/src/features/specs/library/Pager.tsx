// Previous and Next under the list, with the range of specs shown between them (announced when it
// changes). Each moves the list's page by one page size.
import { pageRange, type LibraryFilters } from "../libraryFilters";

interface Props {
  filters: LibraryFilters;
  onChange: (filters: LibraryFilters) => void;
  /** The first shown row's offset (the rows kept on this computer may be another page). */
  shownSkip: number;
  /** How many rows are shown. */
  count: number;
  total: number;
  hasMore: boolean;
}

export function Pager({ filters, onChange: setFilters, shownSkip, count, total, hasMore }: Props) {
  return (
    <nav className="row pager" aria-label="Pages of specs">
      <button
        className="btn"
        type="button"
        disabled={filters.skip === 0}
        onClick={() => setFilters({ ...filters, skip: Math.max(0, filters.skip - filters.pageSize) })}
      >
        Previous
      </button>
      <span aria-live="polite">{pageRange(shownSkip, count, total)}</span>
      <button
        className="btn"
        type="button"
        disabled={!hasMore}
        onClick={() => setFilters({ ...filters, skip: filters.skip + filters.pageSize })}
      >
        Next
      </button>
    </nav>
  );
}
