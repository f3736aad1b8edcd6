// The data the command palette lists, read when it opens: the connections, and the specs of the
// connection in use (the service's newest page, with the ones kept on this computer, so a spec
// is found offline too). Keys as in ipc/hooks.ts: the command's name, then the connection.
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { call } from "../../ipc/invoke";
import { useConnectionId, useProfiles } from "../../ipc/hooks";
import type { SpecQuery } from "../../ipc/contract";
import type { ProfileLike, SpecLike } from "./paletteCommands";

/** The service's newest specs the palette reads (the largest page list-specs gives). */
export const SPEC_PAGE: SpecQuery = { limit: 100 };
/** The specs kept on this computer the palette reads. */
export const CACHED = { limit: 500, offset: 0 };
/** Read again when the palette opens after this long. */
const FRESH_MS = 30_000;

export interface PaletteSources {
  profiles: ProfileLike[];
  specs: SpecLike[];
  /** Specs are still being read. */
  loadingSpecs: boolean;
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

  const specs = useMemo(() => {
    const out: SpecLike[] = (page.data?.specs ?? []).map((s) => ({
      id: s._id,
      input: s.input,
      fileName: s.uploadedFileName,
      created: s.created,
    }));
    for (const c of cached.data ?? []) {
      if (c.profileId === connection) out.push({ id: c.specId, input: c.input, created: c.created });
    }
    return out;
  }, [page.data, cached.data, connection]);

  return {
    profiles: profiles.data ?? [],
    specs,
    loadingSpecs: enabled && (page.isPending || cached.isPending),
  };
}
