// Server state of the Plans area.
import { useQuery } from "@tanstack/react-query";
import type { PlanTarget } from "../../ipc/contract";
import { call } from "../../ipc/invoke";

/** The plan is read again this often while its view is open. */
export const PLAN_REFRESH_MS = 30_000;

export const planKeys = {
  plan: (t: PlanTarget) => ["get_plan", t.specId ?? null, t.projectId ?? null] as const,
};

export function usePlan(target: PlanTarget) {
  return useQuery({
    queryKey: planKeys.plan(target),
    queryFn: () => call("get_plan", { target }),
    retry: false,
    refetchInterval: PLAN_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}
