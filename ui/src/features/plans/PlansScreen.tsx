// The Plans area: open a plan by project id, from the projects opened before (kept in the local
// library, per connection), or arriving from a spec with its spec id, and follow it. App routes
// `{area: "plans", target}` here.
import { useId, useState, type FormEvent } from "react";
import type { PlanTarget } from "../../ipc/contract";
import { useNavigate } from "../../lib/nav";
import { PlanView } from "./PlanView";
import { checkHexId, targetKey } from "./target";
import { useForgetProject, useRecentProjects } from "./queries";
import { ErrorPanel } from "../../components/ErrorPanel";
import { toIpcError } from "../../ipc/invoke";
import { formatDateTime } from "../../lib/format";
import "./plans.css";

function OpenByProject({ onOpen }: { onOpen: (t: PlanTarget) => void }) {
  const id = useId();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = checkHexId(value);
    setError(problem);
    if (!problem) onOpen({ projectId: value.trim().toLowerCase() });
  };
  return (
    <form className="open-plan" onSubmit={submit} noValidate aria-label="Open a plan by project id">
      <div className="field">
        <label htmlFor={`${id}-pid`}>Project id</label>
        <div className="row">
          <input
            id={`${id}-pid`}
            className="input mono pid-input"
            value={value}
            spellCheck={false}
            autoComplete="off"
            placeholder="24 characters, 0–9 and a–f"
            onChange={(e) => {
              setValue(e.target.value);
              if (error) setError(null);
            }}
            aria-invalid={!!error}
            aria-describedby={error ? `${id}-pid-error` : `${id}-pid-hint`}
          />
          <button className="btn btn-primary" type="submit">
            Open plan
          </button>
        </div>
        {error ? (
          <span className="error-text" id={`${id}-pid-error`} role="alert">
            {error}
          </span>
        ) : (
          <span className="hint" id={`${id}-pid-hint`}>
            Or open a completed spec and choose “Open plan”.
          </span>
        )}
      </div>
    </form>
  );
}

function RecentProjects({ onOpen }: { onOpen: (t: PlanTarget) => void }) {
  const recent = useRecentProjects();
  const forget = useForgetProject();
  if (recent.isPending) return <p className="muted">Loading the projects you opened…</p>;
  if (recent.isError) return <ErrorPanel error={toIpcError(recent.error)} onRetry={() => void recent.refetch()} />;
  if (recent.data.length === 0) {
    return <div className="empty">Open a completed spec and choose “Open plan”, or enter a project id above.</div>;
  }
  return (
    <section aria-labelledby="recent-plans">
      <h2 id="recent-plans">Projects you opened</h2>
      <ul className="recent-plans">
        {recent.data.map((r) => {
          const name = r.name ?? "Untitled project";
          return (
            <li key={r.projectId} className="recent-plan">
              <div className="recent-plan-main">
                <button className="link-button recent-plan-name" type="button" onClick={() => onOpen({ projectId: r.projectId })}>
                  {name}
                </button>
                <span className="muted recent-plan-progress">
                  {r.percent === undefined
                    ? "Nothing planned or built yet"
                    : `${r.percent}% built · ${r.built ?? 0} of ${r.total ?? 0} ${r.total === 1 ? "feature" : "features"}`}
                </span>
              </div>
              <span className="muted recent-plan-meta">
                <code>{r.projectId}</code> · opened {formatDateTime(r.openedAt)}
              </span>
              <button
                className="btn btn-ghost"
                type="button"
                aria-label={`Remove ${name} from this list`}
                disabled={forget.isPending}
                onClick={() => forget.mutate(r.projectId)}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function PlansScreen({ target }: { target?: PlanTarget }) {
  const navigate = useNavigate();
  const open = (t: PlanTarget) => navigate({ area: "plans", target: t });
  return (
    <section className="page page-wide plans" aria-labelledby="plans-title">
      <h1 id="plans-title">Plans</h1>
      <p className="muted">Follow a project's verified plan: features, progress and launch readiness.</p>
      <OpenByProject onOpen={open} />
      {target ? (
        <>
          <button className="link-button plans-back" type="button" onClick={() => navigate({ area: "plans" })}>
            ← All projects you opened
          </button>
          <PlanView key={targetKey(target)} target={target} />
        </>
      ) : (
        <RecentProjects onOpen={open} />
      )}
    </section>
  );
}
