// The page of specs the library shows: the service's page for the list in use, or, while the
// service's answer to a search being typed is awaited, the rows kept on this computer
// (./useLocalAnswer.ts). It also keeps the list usable on its own: a page past the end goes to the
// last one, the kept copy of archived specs follows what the service lists, and a pattern the
// service refuses is said beside the search box rather than in place of the list.
import { useEffect } from "react";
import { ErrorKind } from "../../../ipc/contract";
import { toIpcError } from "../../../ipc/invoke";
import { searchPattern, toQuery, type LibraryFilters } from "../libraryFilters";
import { useSpecPage } from "../queries";
import { refreshArchived } from "./archive";
import { useRowsPaintedMark, useSearchPaintedMark } from "./searchTiming";
import { useLocalAnswer } from "./useLocalAnswer";

export function useLibraryPage(filters: LibraryFilters, setFilters: (filters: LibraryFilters) => void) {
  const page = useSpecPage(toQuery(filters));
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
  return {
    /** The service's page (its query: fetching, pending, refetch). */
    page,
    /** The instant answer from the specs kept on this computer (SearchBox `onTyped`, `page`). */
    local,
    shown,
    /** The first row's offset in `shown`. */
    shownSkip,
    /** Runs a search from the search box (back to the first page unless the query is unchanged). */
    search,
    patternError: local.page ? null : (local.refused ?? serviceRefused),
    /** An error to show in place of the list (not a refused pattern, nor while local rows show). */
    error: serviceRefused || local.page ? null : rawError,
  };
}
