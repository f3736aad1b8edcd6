// Server state of the model catalogs (TanStack Query over the commands). Each answers a
// `CatalogView`: the list, when it was read, and whether it is the copy kept for offline use.
// Every catalog is keyed by the connection in use (each connection keeps its own copy).
import { useQuery } from "@tanstack/react-query";
import { call } from "../../../ipc/invoke";
import { useConnectionId } from "../../../ipc/hooks";

/** The catalogs change rarely; Rust keeps them (and the public one's ETag), so a refetch is cheap. */
const STALE_MS = 5 * 60_000;

export const modelKeys = {
  publicCatalog: (c: string) => ["public_catalog", c] as const,
  models: (c: string) => ["gateway_models", c] as const,
  images: (c: string) => ["image_models", c] as const,
  videos: (c: string) => ["video_models", c] as const,
};

export function usePublicCatalog() {
  const c = useConnectionId();
  return useQuery({ queryKey: modelKeys.publicCatalog(c ?? ""), queryFn: () => call("public_catalog"), enabled: c !== undefined, staleTime: STALE_MS, retry: false });
}

export function useGatewayModels() {
  const c = useConnectionId();
  return useQuery({ queryKey: modelKeys.models(c ?? ""), queryFn: () => call("gateway_models"), enabled: c !== undefined, staleTime: STALE_MS, retry: false });
}

export function useImageModels() {
  const c = useConnectionId();
  return useQuery({ queryKey: modelKeys.images(c ?? ""), queryFn: () => call("image_models"), enabled: c !== undefined, staleTime: STALE_MS, retry: false });
}

export function useVideoModels() {
  const c = useConnectionId();
  return useQuery({ queryKey: modelKeys.videos(c ?? ""), queryFn: () => call("video_models"), enabled: c !== undefined, staleTime: STALE_MS, retry: false });
}
