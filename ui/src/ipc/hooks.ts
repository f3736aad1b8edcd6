// TanStack Query hooks over the commands. Query keys are the command names.
import { useEffect } from "react";
import { listen } from "@tauri-apps/api/event";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "./invoke";
import type { CreditsView, ProfileInput, Settings } from "./contract";

export const keys = {
  appInfo: ["app_info"] as const,
  profiles: ["list_profiles"] as const,
  settings: ["get_settings"] as const,
  credits: ["credits_balance"] as const,
};

export function useAppInfo() {
  return useQuery({ queryKey: keys.appInfo, queryFn: () => call("app_info") });
}

export function useProfiles() {
  return useQuery({ queryKey: keys.profiles, queryFn: () => call("list_profiles") });
}

export function useSettings() {
  return useQuery({ queryKey: keys.settings, queryFn: () => call("get_settings") });
}

export function useCredits() {
  return useQuery({ queryKey: keys.credits, queryFn: () => call("credits_balance"), retry: false });
}

/** Keeps the header's balance live: every metered call in Rust emits `credits-changed`. */
export function useCreditEvents(onChange?: (view: CreditsView) => void) {
  const qc = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    listen<CreditsView>("credits-changed", (event) => {
      const active = qc.getQueryData<CreditsView>(keys.credits);
      if (!active || active.profileId === event.payload.profileId) {
        qc.setQueryData(keys.credits, event.payload);
      }
      onChange?.(event.payload);
    })
      .then((unlisten) => {
        if (cancelled) unlisten();
        else stop = unlisten;
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [qc, onChange]);
}

function useInvalidateAll() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: keys.profiles });
    void qc.invalidateQueries({ queryKey: keys.settings });
    void qc.invalidateQueries({ queryKey: keys.credits });
  };
}

export function useAddProfile() {
  const done = useInvalidateAll();
  return useMutation({
    mutationFn: (v: { input: ProfileInput; apiKey?: string }) => call("add_profile", v),
    onSuccess: done,
  });
}

export function useUpdateProfile() {
  const done = useInvalidateAll();
  return useMutation({
    mutationFn: (v: { id: string; input: ProfileInput }) => call("update_profile", v),
    onSuccess: done,
  });
}

export function useDeleteProfile() {
  const done = useInvalidateAll();
  return useMutation({ mutationFn: (id: string) => call("delete_profile", { id }), onSuccess: done });
}

/** Switches the connection: everything read from the previous one is read again. */
export function useSetActiveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call("set_active_profile", { id }),
    onSuccess: () => void qc.invalidateQueries(),
  });
}

export function useSetKey() {
  const done = useInvalidateAll();
  return useMutation({
    mutationFn: (v: { profileId: string; apiKey: string }) => call("set_api_key", v),
    onSuccess: done,
  });
}

export function useDeleteKey() {
  const done = useInvalidateAll();
  return useMutation({
    mutationFn: (profileId: string) => call("delete_api_key", { profileId }),
    onSuccess: done,
  });
}

export function useTestConnection() {
  return useMutation({ mutationFn: (profileId: string) => call("test_connection", { profileId }) });
}

export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (settings: Settings) => call("save_settings", { settings }),
    onSuccess: (saved) => {
      qc.setQueryData(keys.settings, saved);
      void qc.invalidateQueries({ queryKey: keys.credits });
    },
  });
}
