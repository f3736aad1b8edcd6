// Server state the media studios share: the media library by kind (the model lists are in
// ../models/queries.ts).
// Keys start with the command name, then the connection's id (like ui/src/ipc/hooks.ts), so
// another connection's files never show, not even for a frame.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { MediaItem, MediaKind } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { useConnectionId } from "../../../ipc/hooks";
import { importLocalMedia } from "./mediaImport";

/** How many files of one kind a studio reads (the gallery and histories filter them locally). */
export const MEDIA_LIMIT = 500;

export const mediaKeys = {
  all: ["list_media"] as const,
  of: (c: string, kind: MediaKind) => ["list_media", c, kind] as const,
};

async function listMedia(kind: MediaKind): Promise<MediaItem[]> {
  const list = await call("list_media", { kind, limit: MEDIA_LIMIT, offset: 0 });
  // What an earlier version kept in localStorage for these files goes into the library first.
  return (await importLocalMedia(list)) ? call("list_media", { kind, limit: MEDIA_LIMIT, offset: 0 }) : list;
}

export function useMedia(kind: MediaKind) {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: mediaKeys.of(c, kind),
    queryFn: () => listMedia(kind),
    enabled: c !== "",
    retry: false,
  });
}

/** Reads the media library again (after a call saved or deleted a file). */
export function useRefreshMedia() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: mediaKeys.all });
}
