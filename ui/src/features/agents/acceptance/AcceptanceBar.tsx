// Above a spec's scope: "Check these stories on my app" (asks for the app's address, then opens
// the acceptance run in the Browser agents area) and the latest run's totals.
import { useId, useState } from "react";
import { formatDateTime } from "../../../lib/format";
import { useNavigate } from "../../../lib/nav";
import { AppUrlPrompt } from "./AppUrlPrompt";
import { changeSummary, runSummary, type AcceptanceRun, type ScopeMarks } from "./model";
import "./acceptance.css";

export function AcceptanceBar({ specId, criteria, runs, marks }: { specId: string; criteria: number; runs: AcceptanceRun[]; marks: ScopeMarks | null }) {
  const id = useId();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  if (criteria === 0) return null;
  const last = marks?.run;
  const changes = marks?.changes ? changeSummary(marks.changes) : "";
  return (
    <section className="card acceptance-bar" aria-labelledby={`${id}-title`}>
      <div className="row">
        <div className="grow">
          <h2 id={`${id}-title`}>Acceptance on your app</h2>
          {last ? (
            <p className="acceptance-last">
              Last checked {formatDateTime(last.at)} on <span className="mono">{last.url}</span>: {runSummary(last.criteria)}.
              {changes && ` Since the run before: ${changes}.`}
            </p>
          ) : (
            <p className="acceptance-last muted">
              Browser agents open your running app and check each story’s acceptance criteria, with evidence and a screenshot.
            </p>
          )}
        </div>
        <div className="row">
          {runs.length > 0 && (
            <button className="btn" type="button" onClick={() => navigate({ area: "agents", acceptance: { specId } })}>
              Open the results
            </button>
          )}
          <button className="btn btn-primary" type="button" aria-expanded={asking} onClick={() => setAsking((a) => !a)}>
            Check these stories on my app
          </button>
        </div>
      </div>
      {asking && (
        <AppUrlPrompt
          initialUrl={runs[0]?.url ?? ""}
          onSubmit={(url) => navigate({ area: "agents", acceptance: { specId, url } })}
          onCancel={() => setAsking(false)}
        />
      )}
    </section>
  );
}
