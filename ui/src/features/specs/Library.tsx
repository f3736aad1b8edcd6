// The library of specs: filters (depth, status), regex search on the description, page size
// 1–100 and skip-based pages. Rows that are still generating refresh on their own; when the
// service cannot be reached the specs kept on this computer are listed (and still open).
import { useId, useState, type FormEvent } from "react";
import { ErrorKind } from "../../ipc/contract";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { toIpcError } from "../../ipc/invoke";
import { useSettings } from "../../ipc/hooks";
import { ErrorPanel } from "../../components/ErrorPanel";
import { formatCreditsWord, formatDateTime, formatHours } from "../../lib/format";
import { useNavigate } from "../../lib/nav";
import {
  DEFAULT_FILTERS,
  PAGE_SIZE_MESSAGE,
  checkPattern,
  pageRange,
  parsePageSize,
  toQuery,
  type LibraryFilters,
} from "./libraryFilters";
import { isLiveStatus, useSpecPage } from "./queries";
import { depthLabel } from "./status";
import { SpecStatusBadge } from "./StatusBadge";

// The filters outlive the screen (opening a spec and coming back keeps them) until a reload, one
// set per connection: another connection starts with the defaults.
const remembered = new Map<string, LibraryFilters>();

/** Forgets the remembered filters (tests). */
export function resetLibraryFilters(): void {
  remembered.clear();
}

function excerpt(text: string, max = 160): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

function SpecRow({ spec }: { spec: SpecRecord }) {
  const navigate = useNavigate();
  const title = excerpt(spec.input) || (spec.uploadedFileName ? `From the file ${spec.uploadedFileName}` : "Untitled spec");
  return (
    <tr data-live={isLiveStatus(spec.status)}>
      <td className="lib-desc">
        <button className="link-button" type="button" onClick={() => navigate({ area: "specs", specId: spec._id })}>
          {title}
        </button>
        {isLiveStatus(spec.status) && spec.progress && <div className="muted lib-progress">{spec.progress}</div>}
        {spec.status === "failed" && spec.errorMessage && <div className="error-text lib-progress">{spec.errorMessage}</div>}
      </td>
      <td>
        <SpecStatusBadge status={spec.status} />
      </td>
      <td>{depthLabel(spec.endpoint)}</td>
      <td className="nowrap">{formatDateTime(spec.created)}</td>
      <td className="num">{spec.totalHumanHours !== undefined ? formatHours(spec.totalHumanHours) : "—"}</td>
      <td className="num">{spec.creditsUsed !== undefined ? formatCreditsWord(spec.creditsUsed) : "—"}</td>
    </tr>
  );
}

/** The library of the connection in use (its own filters). */
export function Library() {
  const profileId = useSettings().data?.activeProfileId ?? "";
  return <ConnectionLibrary key={profileId} profileId={profileId} />;
}

function ConnectionLibrary({ profileId }: { profileId: string }) {
  const id = useId();
  const [filters, setFiltersState] = useState<LibraryFilters>(() => remembered.get(profileId) ?? DEFAULT_FILTERS);
  const [searchText, setSearchText] = useState(filters.search);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [sizeText, setSizeText] = useState(String(filters.pageSize));
  const [sizeError, setSizeError] = useState<string | null>(null);
  const setFilters = (f: LibraryFilters) => {
    remembered.set(profileId, f);
    setFiltersState(f);
  };
  const page = useSpecPage(toQuery(filters));

  const search = (e: FormEvent) => {
    e.preventDefault();
    const problem = checkPattern(searchText);
    setSearchError(problem);
    if (problem) return;
    setFilters({ ...filters, search: searchText.trim(), skip: 0 });
  };

  const applySize = (raw: string) => {
    setSizeText(raw);
    const n = parsePageSize(raw);
    setSizeError(n === null ? PAGE_SIZE_MESSAGE : null);
    if (n !== null && n !== filters.pageSize) setFilters({ ...filters, pageSize: n, skip: 0 });
  };

  const data = page.data;
  const rawError = page.isError ? toIpcError(page.error) : null;
  // A pattern refused by the service (or by the offline search) is shown beside the search box.
  const patternError = rawError?.kind === ErrorKind.invalidInput && rawError.field === "search" ? rawError.message : null;
  const error = patternError ? null : rawError;
  const shownSearchError = searchError ?? patternError;
  const filtered = !!(filters.endpoint || filters.status || filters.search);

  return (
    <section aria-labelledby={`${id}-title`} className="library">
      <div className="section-head">
        <h2 id={`${id}-title`}>Library</h2>
        {page.isFetching && !page.isPending && <span className="muted">Refreshing…</span>}
      </div>

      <form className="lib-search" role="search" onSubmit={search} noValidate>
        <div className="field grow">
          <label htmlFor={`${id}-search`}>Search descriptions</label>
          <div className="row">
            <input
              id={`${id}-search`}
              className="input grow"
              type="search"
              value={searchText}
              onChange={(e) => {
                setSearchText(e.target.value);
                if (searchError) setSearchError(null);
              }}
              aria-invalid={!!shownSearchError}
              aria-describedby={`${id}-search-hint${shownSearchError ? ` ${id}-search-error` : ""}`}
            />
            <button className="btn" type="submit">
              Search
            </button>
            {filters.search && (
              <button
                className="btn btn-ghost"
                type="button"
                onClick={() => {
                  setSearchText("");
                  setSearchError(null);
                  setFilters({ ...filters, search: "", skip: 0 });
                }}
              >
                Clear search
              </button>
            )}
          </div>
          <span className="hint" id={`${id}-search-hint`}>
            Matches words in the description, ignoring case. Patterns such as recipe|meal work too.
          </span>
          {shownSearchError && (
            <span className="error-text" id={`${id}-search-error`} role="alert">
              {shownSearchError}
            </span>
          )}
        </div>
      </form>

      <div className="row lib-filters">
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
          <input
            id={`${id}-size`}
            className="input page-size"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={sizeText}
            onChange={(e) => applySize(e.target.value)}
            aria-invalid={!!sizeError}
            aria-describedby={sizeError ? `${id}-size-error` : undefined}
          />
          {sizeError && (
            <span className="error-text" id={`${id}-size-error`} role="alert">
              {sizeError}
            </span>
          )}
        </div>
      </div>

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

      {page.isPending && <p className="skeleton">Loading your specs…</p>}

      {data && data.specs.length === 0 && !error && (
        <div className="empty">
          {filtered
            ? "No spec matches these filters. Change or clear them to see more."
            : "No specs yet. Describe what you want to build above to generate your first one."}
        </div>
      )}

      {data && data.specs.length > 0 && (
        <>
          <div className="table-wrap">
            <table className="lib-table">
              <caption className="visually-hidden">Your specs</caption>
              <thead>
                <tr>
                  <th scope="col">Description</th>
                  <th scope="col">Status</th>
                  <th scope="col">Depth</th>
                  <th scope="col">Created</th>
                  <th scope="col" className="num">
                    Hours
                  </th>
                  <th scope="col" className="num">
                    Credits
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.specs.map((s) => (
                  <SpecRow key={s._id} spec={s} />
                ))}
              </tbody>
            </table>
          </div>
          <nav className="row pager" aria-label="Pages of specs">
            <button
              className="btn"
              type="button"
              disabled={filters.skip === 0}
              onClick={() => setFilters({ ...filters, skip: Math.max(0, filters.skip - filters.pageSize) })}
            >
              Previous
            </button>
            <span aria-live="polite">{pageRange(filters.skip, data.specs.length, data.total)}</span>
            <button
              className="btn"
              type="button"
              disabled={!data.hasMore}
              onClick={() => setFilters({ ...filters, skip: filters.skip + filters.pageSize })}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
