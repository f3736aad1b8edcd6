// TanStack Query hooks over the commands. Query keys start with the command name; what belongs
// to one connection (its balance, specs, plans, jobs) has the connection's id second, so switching
// connection never shows the previous one's data, not even for a frame.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "./invoke";
import { useAppEvent } from "./events";
import type { CreditsView, ProfileInput, ProfileView, Settings } from "./contract";
import type { JobStatus } from "../bindings/JobStatus";

export const keys = {
  appInfo: ["app_info"] as const,
  profiles: ["list_profiles"] as const,
  settings: ["get_settings"] as const,
  /** Every connection's balance (to invalidate); `credit(id)` for one. */
  credits: ["credits_balance"] as const,
  credit: (connection: string) => ["credits_balance", connection] as const,
};

/** The id of the connection in use, once the settings are read. */
export function useConnectionId(): string | undefined {
  return useSettings().data?.activeProfileId;
}

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
  const connection = useConnectionId();
  return useQuery({
    queryKey: keys.credit(connection ?? ""),
    queryFn: () => call("credits_balance"),
    enabled: connection !== undefined,
    retry: false,
  });
}

/** A job in one of these has ended: whatever it cost is charged. */
const JOB_ENDED: ReadonlySet<JobStatus> = new Set(["completed", "failed", "cancelled"]);

/**
 * Keeps the header's balance live: every metered call in Rust emits `credits-changed`, and a job
 * that ends (a spec, a video, a batch, one resumed after a relaunch among them, which the service
 * charged while it ran) has its connection's balance read again.
 */
export function useCreditEvents(onChange?: (view: CreditsView) => void) {
  const qc = useQueryClient();
  useAppEvent("credits-changed", (view) => {
    qc.setQueryData(keys.credit(view.profileId), view);
    onChange?.(view);
  });
  useAppEvent("job-changed", (job) => {
    if (JOB_ENDED.has(job.status)) void qc.invalidateQueries({ queryKey: keys.credit(job.profileId) });
  });
}

/** Settings saved anywhere reach every screen at once (the active connection among them). */
export function useSettingsEvents() {
  const qc = useQueryClient();
  useAppEvent("settings-changed", (settings) => qc.setQueryData(keys.settings, settings));
  useAppEvent("profiles-changed", () => void qc.invalidateQueries({ queryKey: keys.profiles }));
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

/**
 * Switches the connection: the screens move to the new connection's keys in the same render
 * (nothing of the previous one shows), and everything is read again.
 */
export function useSetActiveProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call("set_active_profile", { id }),
    onSuccess: (active: ProfileView) => {
      qc.setQueryData<Settings>(keys.settings, (s) => (s ? { ...s, activeProfileId: active.id } : s));
      void qc.invalidateQueries();
    },
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
