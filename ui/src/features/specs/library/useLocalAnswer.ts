// The library's instant answer to each keystroke: the specs kept on this computer
// (`search_cached_specs`, never the network), with the same filters, shown until the service's
// answer to that search (after the pause in typing) replaces them. Offline, the service's answer
// is the same cached page anyway.
import { useCallback, useState } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorKind, type SpecPage } from "../../../ipc/contract";
import { toIpcError } from "../../../ipc/invoke";
import { searchPattern, toQuery, type LibraryFilters } from "../libraryFilters";
import { useCachedSpecPage } from "../queries";
import type { TypedSearch } from "./SearchBox";

interface Typed extends TypedSearch {
  /** When this burst of typing began (`Date.now()`). */
  since: number;
}

export interface LocalAnswer {
  /** Hands over the search box's text at each keystroke (SearchBox `onTyped`). */
  onTyped: (typed: TypedSearch | null) => void;
  /** The rows kept on this computer to show now, or null: show the service's page. */
  page: SpecPage | null;
  /** `page` answers `search` (not the previous keystroke's rows kept while it loads). */
  fresh: boolean;
  search: string;
  /** The first row's offset in `page`. */
  skip: number;
  /** The search of the specs kept on this computer refused the pattern (its words). */
  refused: string | null;
}

/** Whether `page` holds rows (a mock or test answering nothing gives none). */
function hasRows(page: SpecPage | null | undefined): page is SpecPage {
  return !!page && Array.isArray(page.specs);
}

export function useLocalAnswer(filters: LibraryFilters, service: UseQueryResult<SpecPage>): LocalAnswer {
  const [typed, setTyped] = useState<Typed | null>(null);
  const onTyped = useCallback((next: TypedSearch | null) => {
    setTyped((t) => {
      if (next === null) return null;
      if (t && t.search === next.search && t.pattern === next.pattern) return t;
      return { ...next, since: t?.since ?? Date.now() };
    });
  }, []);

  // Same filters; the page the service will be asked for (the first, unless the search is unchanged).
  const query = typed
    ? toQuery({ ...filters, search: typed.search, pattern: typed.pattern, skip: searchPattern(typed) === searchPattern(filters) ? filters.skip : 0 })
    : null;
  const local = useCachedSpecPage(query, typed?.since ?? 0);

  // The service has answered (or refused) this very search: its page replaces the local rows.
  const answered =
    typed !== null &&
    typed.search === filters.search &&
    typed.pattern === filters.pattern &&
    !service.isPlaceholderData &&
    (service.isSuccess || service.isError);
  // Forgotten then (during render, as React advises for state that follows props): the next
  // keystroke starts a new burst.
  if (answered) setTyped(null);

  const waiting = typed !== null && !answered;
  const error = waiting && local.isError ? toIpcError(local.error) : null;
  const page = waiting && !local.isError && hasRows(local.data) ? local.data : null;
  return {
    onTyped,
    page,
    fresh: page !== null && !local.isPlaceholderData,
    search: typed?.search ?? "",
    skip: query?.skip ?? 0,
    refused: error?.kind === ErrorKind.invalidInput && error.field === "search" ? error.message : null,
  };
}
