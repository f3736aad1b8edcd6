// The Plans area: open a plan by project id (or arrive from a spec with its spec id) and follow
// it. App routes `{area: "plans", target}` here.
import { useId, useState, type FormEvent } from "react";
import type { PlanTarget } from "../../ipc/contract";
import { useNavigate } from "../../lib/nav";
import { NoticeProvider } from "../../lib/notices";
import { PlanView } from "./PlanView";
import { checkHexId, loadRecent, targetKey } from "./target";
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

export function PlansScreen({ target }: { target?: PlanTarget }) {
  const navigate = useNavigate();
  const open = (t: PlanTarget) => navigate({ area: "plans", target: t });
  const recent = loadRecent().filter((r) => !target || r.projectId !== target.projectId);
  return (
    <NoticeProvider>
      <section className="page page-wide plans" aria-labelledby="plans-title">
        <h1 id="plans-title">Plans</h1>
        <p className="muted">Follow a project's verified plan: features, progress and launch readiness.</p>
        <OpenByProject onOpen={open} />
        {!target && recent.length > 0 && (
          <section aria-labelledby="recent-plans">
            <h2 id="recent-plans">Opened recently</h2>
            <ul className="recent-plans">
              {recent.map((r) => (
                <li key={r.projectId}>
                  <button className="link-button" type="button" onClick={() => open(r.target)}>
                    {r.name ?? "Untitled project"}
                  </button>{" "}
                  <code className="muted">{r.projectId}</code>
                </li>
              ))}
            </ul>
          </section>
        )}
        {!target && recent.length === 0 && (
          <div className="empty">Open a completed spec and choose “Open plan”, or enter a project id above.</div>
        )}
        {target && <PlanView key={targetKey(target)} target={target} />}
      </section>
    </NoticeProvider>
  );
}
