// The depth, status and page size filters; each change goes back to the first page.
import { PAGE_SIZES, type LibraryFilters } from "../libraryFilters";

interface Props {
  /** Prefix of the element ids. */
  id: string;
  filters: LibraryFilters;
  onChange: (filters: LibraryFilters) => void;
}

export function FilterFields({ id, filters, onChange: setFilters }: Props) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-depth`}>Depth</label>
        <select
          id={`${id}-depth`}
          className="select"
          value={filters.endpoint}
          onChange={(e) => setFilters({ ...filters, endpoint: e.target.value as LibraryFilters["endpoint"], skip: 0 })}
        >
          <option value="">Fast and deep</option>
          <option value="fast_spec">Fast</option>
          <option value="deep_spec">Deep</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          className="select"
          value={filters.status}
          onChange={(e) => setFilters({ ...filters, status: e.target.value as LibraryFilters["status"], skip: 0 })}
        >
          <option value="">Any status</option>
          <option value="pending">Waiting to start</option>
          <option value="processing">Generating</option>
          <option value="completed">Completed</option>
          <option value="failed">Failed</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-size`}>Per page</label>
        <select
          id={`${id}-size`}
          className="select"
          value={filters.pageSize}
          onChange={(e) => setFilters({ ...filters, pageSize: Number(e.target.value), skip: 0 })}
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
