// The Plans home: the user's projects (completed specs merged with the projects opened here, with
// their last known progress), newest first; each opens its plan.
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

export function PlansHome({ onOpen }: { onOpen: (t: PlanTarget) => void }) {
  const navigate = useNavigate();
  const specs = useCompletedSpecs();
  const recent = useRecentProjects();
  if (specs.isPending || recent.isPending) return <p className="muted">Loading your projects…</p>;
  const pages = specs.data?.pages ?? [];
  const rows = mergeProjects(
    pages.flatMap((p) => p.specs),
    recent.data ?? [],
  );
  const offline = pages.some((p) => p.offline);
  return (
    <section aria-labelledby="plans-home-title" className="plans-home">
      <h2 id="plans-home-title">Your projects</h2>
      {specs.isError && (
        <ErrorPanel error={toIpcError(specs.error)} onRetry={() => void (specs.isFetchNextPageError ? specs.fetchNextPage() : specs.refetch())} />
      )}
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
        <ul className="recent-plans">
          {rows.map((p) => (
            <ProjectRow key={p.key} p={p} onOpen={onOpen} />
          ))}
        </ul>
      )}
      {specs.hasNextPage && (
        <div className="row">
          <button className="btn" type="button" disabled={specs.isFetchingNextPage} onClick={() => void specs.fetchNextPage()}>
            {specs.isFetchingNextPage ? "Loading older projects…" : "Show older projects"}
          </button>
          <span className="muted">{`Projects from the ${pages.reduce((n, p) => n + p.specs.length, 0)} newest completed specs so far, and every project opened here.`}</span>
        </div>
      )}
    </section>
  );
}
