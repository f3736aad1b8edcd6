// The plan's progress: a ring with the percent, a bar split into proven working and built, and
// every number the service gives, with suggested features apart (not counted).
import type { Progress } from "../../bindings/Progress";
import { plural } from "../../lib/format";
import { progressFacts } from "./progress";

const R = 42;
const C = 2 * Math.PI * R;

export function ProgressRing({ percent }: { percent: number }) {
  const dash = (Math.max(0, Math.min(100, percent)) / 100) * C;
  return (
    <svg className="ring" viewBox="0 0 100 100" width="112" height="112" role="img" aria-label={`${percent}% built`}>
      <circle className="ring-track" cx="50" cy="50" r={R} />
      <circle
        className="ring-value"
        cx="50"
        cy="50"
        r={R}
        strokeDasharray={`${dash.toFixed(2)} ${C.toFixed(2)}`}
        transform="rotate(-90 50 50)"
      />
      <text x="50" y="50" className="ring-text" textAnchor="middle" dominantBaseline="central">
        {percent}%
      </text>
    </svg>
  );
}

export function ProgressSummary({ progress }: { progress: Progress }) {
  const f = progressFacts(progress);
  return (
    <div className="progress-summary">
      <ProgressRing percent={f.percent} />
      <div className="progress-body">
        <p className="progress-headline">
          <strong>{f.headline}</strong> <span className="muted">({f.percent}%)</span>
        </p>
        <div
          className="pbar"
          role="img"
          aria-label={`${f.provenWorking} proven working and ${f.built - f.provenWorking} built but not checked, of ${f.total}`}
        >
          <span className="pbar-proven" style={{ width: `${f.provenShare}%` }} />
          <span className="pbar-built" style={{ width: `${f.builtShare}%` }} />
        </div>
        <ul className="pbar-legend">
          <li>
            <span className="swatch swatch-proven" aria-hidden="true" /> Proven working: <strong>{f.provenWorking}</strong>
          </li>
          <li>
            <span className="swatch swatch-built" aria-hidden="true" /> Built: <strong>{f.built}</strong>
          </li>
          <li>
            <span className="swatch swatch-left" aria-hidden="true" /> Left: <strong>{f.left}</strong>
          </li>
          <li>
            Total: <strong>{f.total}</strong>
          </li>
        </ul>
        <p className="muted progress-basis">{f.basisText}</p>
        {f.proposed > 0 && (
          <p className="proposed-note">
            <span aria-hidden="true">✦ </span>
            {plural(f.proposed, "suggested feature")} not counted until you confirm {f.proposed === 1 ? "it" : "them"}.
          </p>
        )}
      </div>
    </div>
  );
}
