// Server state of the Plans area. Keys carry the connection's id second (see ipc/hooks.ts).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PlanTarget } from "../../ipc/contract";
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
