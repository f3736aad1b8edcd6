// The data the command palette lists, read when it opens: the connections, and the specs of the
// connection in use (the service's newest page, with the ones kept on this computer, so a spec
// is found offline too); its opened plans, conversations, newest batches, images and takes, and
// the model catalog. Keys as in ipc/hooks.ts: the command's name, then the connection (with
// "palette" where the palette reads a page of its own size). A source that fails is left out.
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../ipc/invoke";
import { useConnectionId, useProfiles } from "../../ipc/hooks";
import type { SpecQuery } from "../../ipc/contract";
import type { Batch } from "../../bindings/Batch";
import type { CatalogModel } from "../../bindings/CatalogModel";
import type { Conversation } from "../../bindings/Conversation";
import type { MediaItem } from "../../bindings/MediaItem";
import type { RecentProject } from "../../bindings/RecentProject";
import type { ProfileLike, SpecLike } from "./paletteCommands";

/** The service's newest specs the palette reads (the largest page list-specs gives). */
export const SPEC_PAGE: SpecQuery = { limit: 100 };
/** The specs kept on this computer the palette reads. */
export const CACHED = { limit: 500, offset: 0 };
/** Read again when the palette opens after this long. */
const FRESH_MS = 30_000;
/** How many of each of the user's other things the palette reads (the newest). */
export const OTHERS = 200;
/** How many of the service's newest batches it reads. */
export const BATCHES = 50;

export interface PaletteSources {
  profiles: ProfileLike[];
  specs: SpecLike[];
  projects: RecentProject[];
  conversations: Conversation[];
  batches: Batch[];
  media: MediaItem[];
  models: CatalogModel[];
  /** Something is still being read. */
  loading: boolean;
}

/** One source of the palette, read when it opens. */
function useSource<T>(enabled: boolean, key: readonly unknown[], read: () => Promise<T>) {
  return useQuery({ queryKey: key, queryFn: read, enabled, staleTime: FRESH_MS, retry: false });
}

export function usePaletteSources(open: boolean): PaletteSources {
  const connection = useConnectionId();
  const profiles = useProfiles();
  const enabled = open && connection !== undefined;
  const page = useQuery({
    queryKey: ["list_specs", connection ?? "", SPEC_PAGE],
    queryFn: () => call("list_specs", { query: SPEC_PAGE }),
    enabled,
    staleTime: FRESH_MS,
    retry: false,
  });
  const cached = useQuery({
    queryKey: ["cached_specs", connection ?? "", CACHED],
    queryFn: () => call("cached_specs", CACHED),
    enabled,
    staleTime: FRESH_MS,
    retry: false,
  });

  const c = connection ?? "";
  const projects = useSource(enabled, ["recent_projects", c, "palette"], () => call("recent_projects", { limit: OTHERS }));
  const conversations = useSource(enabled, ["list_conversations", c, "palette"], () => call("list_conversations", { limit: OTHERS, offset: 0 }));
  const batches = useSource(enabled, ["list_batches", c, "palette"], () => call("list_batches", { limit: BATCHES, skip: 0 }));
  const media = useSource(enabled, ["list_media", c, "palette"], () => call("list_media", { limit: OTHERS, offset: 0 }));
  const models = useSource(enabled, ["public_catalog", c, "palette"], () => call("public_catalog"));

  const specs = useMemo(() => {
    const out: SpecLike[] = (page.data?.specs ?? []).map((s) => ({
      id: s._id,
      input: s.input,
      fileName: s.uploadedFileName,
      created: s.created,
      status: s.status,
    }));
    for (const c of cached.data ?? []) {
      if (c.profileId === connection) out.push({ id: c.specId, input: c.input, created: c.created });
    }
    return out;
  }, [page.data, cached.data, connection]);

  const reading = [page, cached, projects, conversations, batches, media, models];
  return {
    profiles: profiles.data ?? [],
    specs,
    projects: projects.data ?? [],
    conversations: conversations.data ?? [],
    batches: batches.data?.batches ?? [],
    media: media.data ?? [],
    models: models.data?.list.data ?? [],
    loading: enabled && reading.some((q) => q.isPending),
  };
}
