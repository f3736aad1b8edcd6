// Server state of the model catalogs (TanStack Query over the commands). The public catalog is
// the same for every connection; the authed catalogs are keyed by the connection in use.
import { useQuery } from "@tanstack/react-query";
import { call } from "../../../ipc/invoke";
import { useConnectionId } from "../../../ipc/hooks";

/** The catalogs change rarely; Rust keeps the ETag cache, so a refetch is cheap. */
const STALE_MS = 5 * 60_000;

export const modelKeys = {
  publicCatalog: ["public_catalog"] as const,
  models: (c: string) => ["gateway_models", c] as const,
  images: (c: string) => ["image_models", c] as const,
  videos: (c: string) => ["video_models", c] as const,
};

export function usePublicCatalog() {
  return useQuery({ queryKey: modelKeys.publicCatalog, queryFn: () => call("public_catalog"), staleTime: STALE_MS, retry: false });
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
