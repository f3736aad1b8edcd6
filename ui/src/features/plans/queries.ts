// Server state of the Plans area. Keys carry the connection's id second (see ipc/hooks.ts).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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
 * One page of the completed specs the Plans home lists (the service's largest page). Keyed under
 * the Specs library's pages (`["list_specs", connection, …]`), so a spec that completes there
 * refreshes this list too.
 */
export const COMPLETED_SPECS_QUERY: SpecQuery = { status: "completed", limit: 100 };

/**
 * The completed specs of the active connection, newest first, a page at a time: where projects
 * start. `fetchNextPage` reads the next (older) page while the service says it has more.
 */
export function useCompletedSpecs() {
  const c = useConnectionId() ?? "";
  return useInfiniteQuery({
    queryKey: ["list_specs", c, COMPLETED_SPECS_QUERY, "pages"] as const,
    queryFn: ({ pageParam }) => call("list_specs", { query: { ...COMPLETED_SPECS_QUERY, skip: pageParam } }),
    initialPageParam: 0,
    // Offline too: the specs kept on this computer are read a page at a time the same way. A page
    // from the other list (the service answered, or stopped answering) ends the paging: one skip
    // over two lists would leave projects out or list them twice.
    getNextPageParam: (last, pages) =>
      last.hasMore && !!last.offline === !!pages[0]?.offline ? pages.reduce((n, p) => n + p.specs.length, 0) : undefined,
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
