// Server state of the Plans area. Keys carry the connection's id second (see ipc/hooks.ts).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PlanTarget } from "../../ipc/contract";
import type { SpecQuery } from "../../bindings/SpecQuery";
import { useConnectionId } from "../../ipc/hooks";
import { call } from "../../ipc/invoke";

/** The plan is read again this often while its view is open. */
export const PLAN_REFRESH_MS = 30_000;

export const planKeys = {
  plan: (c: string, t: PlanTarget) => ["get_plan", c, t.specId ?? null, t.projectId ?? null] as const,
  /** Every connection's list (to invalidate); `recentOf(c)` for one. */
  recent: ["recent_projects"] as const,
  recentOf: (c: string) => ["recent_projects", c] as const,
};

/**
 * The completed specs the Plans home lists (the newest page the service gives at most). Keyed like
 * the Specs library's pages (`["list_specs", connection, query]`), so a spec that completes there
 * refreshes this list too.
 */
export const COMPLETED_SPECS_QUERY: SpecQuery = { status: "completed", limit: 100 };

/** The completed specs of the active connection, newest first: where projects start. */
export function useCompletedSpecs() {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: ["list_specs", c, COMPLETED_SPECS_QUERY] as const,
    queryFn: () => call("list_specs", { query: COMPLETED_SPECS_QUERY }),
    enabled: c !== "",
    retry: false,
  });
}

/** How many opened projects the Plans screen lists. */
export const RECENT_PROJECTS_SHOWN = 12;

export function usePlan(target: PlanTarget) {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: planKeys.plan(c, target),
    queryFn: () => call("get_plan", { target }),
    enabled: c !== "",
    retry: false,
    refetchInterval: PLAN_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}

/** The projects whose plan was opened on the active connection, most recent first. */
export function useRecentProjects() {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: planKeys.recentOf(c),
    queryFn: () => call("recent_projects", { limit: RECENT_PROJECTS_SHOWN }),
    enabled: c !== "",
  });
}

/** Takes a project off the list of opened projects. */
export function useForgetProject() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) => call("forget_project", { projectId }),
    onSettled: () => void qc.invalidateQueries({ queryKey: planKeys.recent }),
  });
}
