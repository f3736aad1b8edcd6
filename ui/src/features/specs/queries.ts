// Server state of the Specs area (TanStack Query over the commands). Query keys start with the
// command name, like ui/src/ipc/hooks.ts.
import { useEffect, useState } from "react";
import { ErrorKind } from "../../ipc/contract";
import { Channel } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { IpcError, Job, JobEvent, Settings, SpecDoc, SpecDraft, SpecPage, SpecQuery, SpecView } from "../../ipc/contract";
import { call, toIpcError } from "../../ipc/invoke";
import { keys } from "../../ipc/hooks";

export const specKeys = {
  pages: ["list_specs"] as const,
  page: (q: SpecQuery) => ["list_specs", q] as const,
  spec: (specId: string) => ["get_spec", specId] as const,
  rendered: (specId: string, doc: SpecDoc) => ["render_spec", specId, doc] as const,
  jobs: ["list_jobs", "spec"] as const,
};

/** How many of the newest spec jobs the "Generations" list shows. */
export const JOBS_SHOWN = 8;

/** Whether a spec is still being generated (its record or view should refresh). */
export function isLiveStatus(status: string | undefined): boolean {
  return status === "pending" || status === "processing";
}

export function isUnfinishedJob(job: Job): boolean {
  return job.status === "queued" || job.status === "submitted" || job.status === "running";
}

/** Poll interval while something is live: the settings' spec poll interval (10–15 s recommended). */
function usePollMs(): number {
  const qc = useQueryClient();
  const s = qc.getQueryData<{ specPollIntervalSecs?: number }>(keys.settings);
  const secs = s?.specPollIntervalSecs ?? 12;
  return Math.max(2, secs) * 1000;
}

/**
 * Whether Specdesk's job runner follows spec `specId` (an unfinished job of the ledger): the
 * runner polls the service already, and its `job-changed` broadcasts refresh the views, so they
 * do not poll it a second time.
 */
function followedByRunner(qc: ReturnType<typeof useQueryClient>, specId: string): boolean {
  const jobs = qc.getQueryData<Job[]>(specKeys.jobs);
  return !!jobs?.some((j) => j.remoteId === specId && isUnfinishedJob(j));
}

export function useSpecPage(query: SpecQuery, enabled = true) {
  const poll = usePollMs();
  const qc = useQueryClient();
  return useQuery({
    queryKey: specKeys.page(query),
    queryFn: () => call("list_specs", { query }),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
    refetchInterval: (q) => {
      const page = q.state.data as SpecPage | undefined;
      const unfollowed = page?.specs.some((s) => isLiveStatus(s.status) && !followedByRunner(qc, s._id));
      return page && !page.offline && unfollowed ? poll : false;
    },
  });
}

export function useSpec(specId: string) {
  const poll = usePollMs();
  const qc = useQueryClient();
  return useQuery({
    queryKey: specKeys.spec(specId),
    queryFn: () => call("get_spec", { specId }),
    retry: false,
    refetchInterval: (q) => {
      const view = q.state.data as SpecView | undefined;
      return view && isLiveStatus(view.spec.status) && !followedByRunner(qc, specId) ? poll : false;
    },
  });
}

export function useRendered(specId: string, doc: SpecDoc, enabled: boolean) {
  return useQuery({
    queryKey: specKeys.rendered(specId, doc),
    queryFn: () => call("render_spec", { specId, doc }),
    enabled,
    retry: false,
    staleTime: Infinity,
  });
}

export function useSpecJobs() {
  return useQuery({
    queryKey: specKeys.jobs,
    queryFn: () => call("list_jobs", { kind: "spec", limit: JOBS_SHOWN }),
    retry: false,
  });
}

/** Puts a changed job into the cached list (newest first) and refreshes what it affects. */
function useApplyJob() {
  const qc = useQueryClient();
  return (job: Job) => {
    if (job.kind !== "spec") return;
    // Only the connection in use: another connection's job means nothing here.
    const active = qc.getQueryData<Settings>(keys.settings)?.activeProfileId;
    if (active && job.profileId !== active) return;
    qc.setQueryData<Job[]>(specKeys.jobs, (list) => {
      if (!list) return list;
      const at = list.findIndex((j) => j.id === job.id);
      if (at === -1) return [job, ...list].slice(0, JOBS_SHOWN);
      const copy = list.slice();
      copy[at] = job;
      return copy;
    });
    if (!isUnfinishedJob(job)) {
      void qc.invalidateQueries({ queryKey: specKeys.pages });
      void qc.invalidateQueries({ queryKey: keys.credits });
      if (job.remoteId) void qc.invalidateQueries({ queryKey: specKeys.spec(job.remoteId) });
    } else if (job.remoteId) {
      // The runner saw it move (it polls the service; views of it do not): an open spec view
      // reads it again.
      void qc.invalidateQueries({ queryKey: specKeys.spec(job.remoteId) });
    }
  };
}

/** Keeps the jobs list live from the shell's `job-changed` broadcast. */
export function useJobChangedEvents() {
  const apply = useApplyJob();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    listen<Job>("job-changed", (e) => apply(e.payload))
      .then((unlisten) => {
        if (cancelled) unlisten();
        else stop = unlisten;
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
    // `apply` only closes over the stable query client.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
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
      qc.setQueryData<Job[]>(specKeys.jobs, (list) => [job, ...(list ?? []).filter((j) => j.id !== job.id)].slice(0, JOBS_SHOWN));
      void qc.invalidateQueries({ queryKey: specKeys.jobs });
    },
  });
}
