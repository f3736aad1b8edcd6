// Server state of the Specs area (TanStack Query over the commands). Query keys start with the
// command name, then the connection's id, like ui/src/ipc/hooks.ts.
import { useEffect, useState } from "react";
import { ErrorKind } from "../../ipc/contract";
import { Channel } from "@tauri-apps/api/core";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { IpcError, Job, JobChange, JobEvent, SpecDoc, SpecDraft, SpecPage, SpecQuery, SpecView } from "../../ipc/contract";
import { call, toIpcError } from "../../ipc/invoke";
import { upsertJobChange } from "../../ipc/jobChange";
import { keys, useConnectionId } from "../../ipc/hooks";
import { useAppEvent } from "../../ipc/events";
import type { NavTarget } from "../../lib/nav";
import type { SpecTab } from "../../lib/nav";

/** Keys of one connection's data; the bare prefixes (`pages`, `jobs`) cover every connection. */
export const specKeys = {
  pages: ["list_specs"] as const,
  page: (c: string, q: SpecQuery) => ["list_specs", c, q] as const,
  /** The specs kept on this computer (the library's answer to each keystroke); `null`: none asked. */
  cachedPage: (c: string, q: SpecQuery | null) => ["search_cached_specs", c, q] as const,
  spec: (c: string, specId: string) => ["get_spec", c, specId] as const,
  rendered: (c: string, specId: string, doc: SpecDoc) => ["render_spec", c, specId, doc] as const,
  jobs: ["list_jobs", "spec"] as const,
  jobsOf: (c: string) => ["list_jobs", "spec", c] as const,
};

/** How many of the newest spec jobs the "Generations" list shows. */
export const JOBS_SHOWN = 8;

/** Whether a spec is still being generated (its record or view should refresh). */
export function isLiveStatus(status: string | undefined): boolean {
  return status === "pending" || status === "processing";
}

export function isUnfinishedJob(job: Pick<Job, "status">): boolean {
  return job.status === "queued" || job.status === "submitted" || job.status === "running";
}

/** How often a live spec on the built-in Sandbox (or any service on this computer) is read. */
export const SANDBOX_POLL_MS = 1000;

/** Whether a service address names this computer (`localhost`, `127.x.x.x`, `[::1]`). */
export function isLoopbackUrl(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  host = host.replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]" || host === "[::ffff:7f00:1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Poll interval while a spec is live: every second on the built-in Sandbox (a loopback address:
 * it runs on this computer, as the job runner follows it), else the settings' spec poll interval
 * (10–15 s recommended).
 */
export function specPollMs(
  settings: { specPollIntervalSecs?: number; activeProfileId?: string } | undefined,
  profiles: readonly { id: string; baseUrl: string; builtIn: boolean; active?: boolean }[] | undefined,
): number {
  const active = profiles?.find((p) => p.id === settings?.activeProfileId) ?? profiles?.find((p) => p.active);
  if (active && (active.builtIn || isLoopbackUrl(active.baseUrl))) return SANDBOX_POLL_MS;
  const secs = settings?.specPollIntervalSecs ?? 12;
  return Math.max(2, secs) * 1000;
}

function usePollMs(): number {
  const qc = useQueryClient();
  return specPollMs(qc.getQueryData(keys.settings), qc.getQueryData(keys.profiles));
}

/** Opens spec `specId` on `tab` (its human document unless told otherwise). */
export function openSpecOn(navigate: (to: NavTarget) => void, specId: string, tab: SpecTab = "human"): void {
  navigate({ area: "specs", specId, tab });
}

/**
 * Whether Specdesk's job runner follows spec `specId` (an unfinished job of the ledger): the
 * runner polls the service already, and its `job-changed` broadcasts refresh the views, so they
 * do not poll it a second time.
 */
function followedByRunner(qc: ReturnType<typeof useQueryClient>, connection: string, specId: string): boolean {
  const jobs = qc.getQueryData<Job[]>(specKeys.jobsOf(connection));
  return !!jobs?.some((j) => j.remoteId === specId && isUnfinishedJob(j));
}

export function useSpecPage(query: SpecQuery, enabled = true) {
  const poll = usePollMs();
  const qc = useQueryClient();
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: specKeys.page(c, query),
    queryFn: () => call("list_specs", { query }),
    enabled: enabled && c !== "",
    // The previous page stays while the next loads, but never another connection's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === c ? keepPreviousData(previous) : undefined),
    retry: false,
    refetchInterval: (q) => {
      const page = q.state.data as SpecPage | undefined;
      const unfollowed = page?.specs.some((s) => isLiveStatus(s.status) && !followedByRunner(qc, c, s._id));
      return page && !page.offline && unfollowed ? poll : false;
    },
  });
}

/**
 * A page of the specs kept on this computer (`search_cached_specs`, never the network), for the
 * library's search as you type; `query` null asks nothing. While the next keystroke's rows load,
 * the previous keystroke's stay, but only those read since `since` (the start of this burst of
 * typing, a `Date.now()`), never another connection's.
 */
export function useCachedSpecPage(query: SpecQuery | null, since: number) {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: specKeys.cachedPage(c, query),
    queryFn: () => call("search_cached_specs", { query: query ?? {} }),
    enabled: query !== null && c !== "",
    placeholderData: (previous, previousQuery) =>
      query !== null && previousQuery?.queryKey[1] === c && previousQuery.state.dataUpdatedAt >= since ? keepPreviousData(previous) : undefined,
    retry: false,
  });
}

export function useSpec(specId: string) {
  const poll = usePollMs();
  const qc = useQueryClient();
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: specKeys.spec(c, specId),
    queryFn: () => call("get_spec", { specId }),
    enabled: c !== "",
    retry: false,
    refetchInterval: (q) => {
      const view = q.state.data as SpecView | undefined;
      return view && isLiveStatus(view.spec.status) && !followedByRunner(qc, c, specId) ? poll : false;
    },
  });
}

export function useRendered(specId: string, doc: SpecDoc, enabled: boolean) {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: specKeys.rendered(c, specId, doc),
    queryFn: () => call("render_spec", { specId, doc }),
    enabled: enabled && c !== "",
    retry: false,
    staleTime: Infinity,
  });
}

export function useSpecJobs() {
  const c = useConnectionId() ?? "";
  return useQuery({
    queryKey: specKeys.jobsOf(c),
    queryFn: () => call("list_jobs", { kind: "spec", limit: JOBS_SHOWN }),
    enabled: c !== "",
    retry: false,
  });
}

/** Puts a changed job into the cached list (newest first) and refreshes what it affects. */
function useApplyJob() {
  const qc = useQueryClient();
  return (job: JobChange) => {
    if (job.kind !== "spec") return;
    // Kept with its own connection: a job of another one never shows in this one's list.
    const c = job.profileId;
    let stale = false;
    qc.setQueryData<Job[]>(specKeys.jobsOf(c), (list) => {
      if (!list) return list;
      const next = upsertJobChange(list, job, JOBS_SHOWN);
      stale = next.stale;
      return next.list;
    });
    if (stale) void qc.invalidateQueries({ queryKey: specKeys.jobsOf(c) });
    if (!isUnfinishedJob(job)) {
      void qc.invalidateQueries({ queryKey: specKeys.pages });
      void qc.invalidateQueries({ queryKey: keys.credit(c) });
      if (job.remoteId) void qc.invalidateQueries({ queryKey: specKeys.spec(c, job.remoteId) });
    } else if (job.remoteId) {
      // The runner saw it move (it polls the service; views of it do not): an open spec view
      // reads it again.
      void qc.invalidateQueries({ queryKey: specKeys.spec(c, job.remoteId) });
    }
  };
}

/** Keeps the jobs list live from the shell's `job-changed` broadcast. */
export function useJobChangedEvents() {
  const apply = useApplyJob();
  useAppEvent("job-changed", apply);
}

/**
 * Follows one unfinished job over a Channel (`follow_job`): its live copy, updated by each event,
 * and the error of a stream that failed. The stream is cancelled when the row goes away.
 */
export function useFollowJob(job: Job): { live: Job; streamError: IpcError | null } {
  const apply = useApplyJob();
  const [live, setLive] = useState<Job>(job);
  const [streamError, setStreamError] = useState<IpcError | null>(null);
  const [seen, setSeen] = useState(job);
  if (seen !== job) {
    // A newer copy came from the list (or an app event): take it unless ours is newer.
    setSeen(job);
    if (job.updatedAt >= live.updatedAt || job.id !== live.id) setLive(job);
  }
  const unfinished = isUnfinishedJob(job);
  useEffect(() => {
    if (!unfinished) return;
    const streamId = crypto.randomUUID();
    const channel = new Channel<JobEvent>();
    let active = true;
    channel.onmessage = (ev) => {
      if (!active) return;
      if (ev.type === "update" || ev.type === "done") {
        setLive(ev.job);
        apply(ev.job);
      } else if (ev.type === "error") {
        setStreamError(ev.error);
      }
    };
    call("follow_job", { streamId, jobId: job.id, onEvent: channel })
      .then((ended) => {
        if (active) {
          setLive(ended);
          apply(ended);
        }
      })
      .catch((e: unknown) => {
        const err = toIpcError(e);
        if (active && err.kind !== ErrorKind.cancelled) setStreamError(err);
      });
    return () => {
      active = false;
      call("cancel_stream", { streamId }).catch(() => undefined);
    };
    // Follow once per job id while it is unfinished.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job.id, unfinished]);
  return { live, streamError };
}

export function useSubmitSpec() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (draft: SpecDraft) => call("submit_spec", { draft }),
    onSuccess: (job) => {
      const key = specKeys.jobsOf(job.profileId);
      qc.setQueryData<Job[]>(key, (list) => [job, ...(list ?? []).filter((j) => j.id !== job.id)].slice(0, JOBS_SHOWN));
      void qc.invalidateQueries({ queryKey: key });
    },
  });
}
