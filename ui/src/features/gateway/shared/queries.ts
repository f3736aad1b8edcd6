// Server state the media studios share: the media library by kind (the model lists are in
// ../models/queries.ts).
// Keys start with the command name, then the connection's id (like ui/src/ipc/hooks.ts), so
// another connection's files never show, not even for a frame.
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import type { MediaItem, MediaKind } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { useConnectionId } from "../../../ipc/hooks";
import { importLocalMedia } from "./mediaImport";

/** How many files of one kind a studio reads at a time; "Show more" reads the next as many. */
export const MEDIA_PAGE = 500;

export const mediaKeys = {
  all: ["list_media"] as const,
  of: (c: string, kind: MediaKind) => ["list_media", c, kind] as const,
};

interface MediaPage {
  items: MediaItem[];
  /** How many files of the kind the library holds (the M of "N of M"). */
  total: number;
}

async function listMedia(kind: MediaKind, offset: number): Promise<MediaPage> {
  const read = () => Promise.all([call("list_media", { kind, limit: MEDIA_PAGE, offset }), call("count_media", { kind })]);
  let [items, total] = await read();
  // What an earlier version kept in localStorage for these files goes into the library first.
  if (offset === 0 && (await importLocalMedia(items))) [items, total] = await read();
  return { items, total };
}

/**
 * The connection's files of `kind`, newest first, a page at a time: `data` holds every page read,
 * `total` how many there are, `loadMore` reads the next page (`more` while some are not read).
 */
export function useMedia(kind: MediaKind) {
  const c = useConnectionId() ?? "";
  const query = useInfiniteQuery({
    queryKey: mediaKeys.of(c, kind),
    queryFn: ({ pageParam }) => listMedia(kind, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const read = pages.reduce((n, p) => n + p.items.length, 0);
      return last.items.length > 0 && read < last.total ? read : undefined;
    },
    enabled: c !== "",
    retry: false,
  });
  const data = useMemo(() => query.data?.pages.flatMap((p) => p.items), [query.data]);
  const total = query.data?.pages.at(-1)?.total;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  // Asked again while a page is read (the gallery asks as it nears its end): once.
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { ...query, data, total, more: hasNextPage, loadMore };
}

/** Reads the media library again (after a call saved or deleted a file). */
export function useRefreshMedia() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: mediaKeys.all });
}
