// Server state of the Plans area.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PlanTarget } from "../../ipc/contract";
import { call } from "../../ipc/invoke";

/** The plan is read again this often while its view is open. */
export const PLAN_REFRESH_MS = 30_000;

export const planKeys = {
  plan: (t: PlanTarget) => ["get_plan", t.specId ?? null, t.projectId ?? null] as const,
  recent: ["recent_projects"] as const,
};

/** How many opened projects the Plans screen lists. */
export const RECENT_PROJECTS_SHOWN = 12;

export function usePlan(target: PlanTarget) {
  return useQuery({
    queryKey: planKeys.plan(target),
    queryFn: () => call("get_plan", { target }),
    retry: false,
    refetchInterval: PLAN_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}

/** The projects whose plan was opened on the active connection, most recent first. */
export function useRecentProjects() {
  return useQuery({
    queryKey: planKeys.recent,
    queryFn: () => call("recent_projects", { limit: RECENT_PROJECTS_SHOWN }),
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
