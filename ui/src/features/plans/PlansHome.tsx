// The Plans home: the user's projects (completed specs merged with the projects opened here, with
// their last known progress), newest first; each opens its plan.
import { useEffect, useRef } from "react";
import type { PlanTarget } from "../../ipc/contract";
import { ErrorPanel } from "../../components/ErrorPanel";
import { toIpcError } from "../../ipc/invoke";
import { formatDate, formatDateTime } from "../../lib/format";
import { useNavigate } from "../../lib/nav";
import { mergeProjects, progressText, type HomeProject } from "./home";
import { useCompletedSpecs, useForgetProject, useRecentProjects } from "./queries";

function ProjectRow({ p, onOpen }: { p: HomeProject; onOpen: (t: PlanTarget) => void }) {
  const navigate = useNavigate();
  const forget = useForgetProject();
  const fromSpec = p.key.startsWith("spec:");
  return (
    <li className="recent-plan" data-key={p.key}>
      <div className="recent-plan-main">
        <button className="link-button recent-plan-name" type="button" title={p.specInput} onClick={() => onOpen(p.target)}>
          {p.name}
        </button>
        <span className="muted recent-plan-progress">{progressText(p.progress)}</span>
      </div>
      <span className="muted recent-plan-meta">
        {fromSpec ? <>Spec of {formatDate(p.specCreated)}</> : <code>{p.projectId}</code>}
        {p.openedAt && <> · opened {formatDateTime(p.openedAt)}</>}
      </span>
      {fromSpec && p.specId ? (
        <button className="btn btn-ghost" type="button" aria-label={`Open the spec of ${p.name}`} onClick={() => navigate({ area: "specs", specId: p.specId })}>
          Spec
        </button>
      ) : (
        <button
          className="btn btn-ghost"
          type="button"
          aria-label={`Remove ${p.name} from this list`}
          disabled={forget.isPending}
          onClick={() => p.projectId && forget.mutate(p.projectId)}
        >
          Remove
        </button>
      )}
    </li>
  );
}

/** "Show older projects", or the error of the last try beside it (Try again reads that page again). */
function OlderProjects({ specs, onMore, count }: { specs: ReturnType<typeof useCompletedSpecs>; onMore: () => void; count: number }) {
  if (!specs.hasNextPage) return null;
  const loading = specs.isFetchingNextPage;
  return (
    <div className="older-projects">
      {specs.isFetchNextPageError && <ErrorPanel error={toIpcError(specs.error)} onRetry={onMore} />}
      <div className="row">
        {/* aria-disabled, not disabled: the button keeps the focus while the page loads. */}
        <button className="btn" type="button" aria-disabled={loading} onClick={() => !loading && onMore()}>
          {loading ? "Loading older projects…" : "Show older projects"}
        </button>
        <span className="muted">{`Projects from the ${count} newest completed specs so far, and every project opened here.`}</span>
      </div>
    </div>
  );
}

export function PlansHome({ onOpen }: { onOpen: (t: PlanTarget) => void }) {
  const navigate = useNavigate();
  const specs = useCompletedSpecs();
  const recent = useRecentProjects();
  const listRef = useRef<HTMLUListElement>(null);
  // The rows shown before "Show older projects": once the page comes, the first new row gets the focus.
  const shownBefore = useRef<Set<string> | null>(null);
  const pages = specs.data?.pages ?? [];
  const rows = mergeProjects(
    pages.flatMap((p) => p.specs),
    recent.data ?? [],
  );
  const loadingMore = specs.isFetchingNextPage;
  useEffect(() => {
    const before = shownBefore.current;
    if (!before || loadingMore) return;
    shownBefore.current = null;
    const fresh = rows.find((r) => !before.has(r.key));
    if (fresh) listRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(fresh.key)}"] .recent-plan-name`)?.focus();
  });
  if (specs.isPending || recent.isPending) return <p className="muted">Loading your projects…</p>;
  const more = () => {
    shownBefore.current = new Set(rows.map((r) => r.key));
    void specs.fetchNextPage();
  };
  const offline = pages.some((p) => p.offline);
  return (
    <section aria-labelledby="plans-home-title" className="plans-home">
      <h2 id="plans-home-title">Your projects</h2>
      {specs.isError && !specs.isFetchNextPageError && <ErrorPanel error={toIpcError(specs.error)} onRetry={() => void specs.refetch()} />}
      {recent.isError && <ErrorPanel error={toIpcError(recent.error)} onRetry={() => void recent.refetch()} />}
      {offline && <p className="muted">Offline: projects from the specs kept on this computer.</p>}
      {rows.length === 0 ? (
        !specs.isError &&
        !recent.isError && (
          <div className="empty">
            <p>No projects yet. A completed spec becomes a project with a plan: describe your app in Specs, and once its spec is completed it is listed here.</p>
            <button className="btn" type="button" onClick={() => navigate({ area: "specs" })}>
              Go to Specs
            </button>
          </div>
        )
      ) : (
        <ul className="recent-plans" ref={listRef}>
          {rows.map((p) => (
            <ProjectRow key={p.key} p={p} onOpen={onOpen} />
          ))}
        </ul>
      )}
      <OlderProjects specs={specs} onMore={more} count={pages.reduce((n, p) => n + p.specs.length, 0)} />
    </section>
  );
}
