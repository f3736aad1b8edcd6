// The plan's features: each status in its own colour, icon and words; stories done of total;
// items that extend a feature indented under it; suggested, out-of-scope and removed ones shown
// but marked as not counted.
import type { Feature } from "../../bindings/Feature";
import { featureRows } from "./progress";
import { StatusTag } from "./StatusTag";

function removedParts(f: Feature): string[] {
  return f.removedParts.map((p) => (typeof p === "string" ? p : typeof p === "object" && p && "name" in p ? String((p as { name: unknown }).name) : JSON.stringify(p)));
}

export function FeatureList({ features }: { features: Feature[] }) {
  if (features.length === 0) return <div className="empty">No features listed yet.</div>;
  const rows = featureRows(features);
  return (
    <ul className="features">
      {rows.map((r) => {
        const f = r.feature;
        const parts = removedParts(f);
        return (
          <li key={f.id} className="feature" data-depth={r.depth} data-counted={!r.notCounted} data-status={f.status}>
            <div className="feature-main">
              <div className="feature-name">
                {r.depth > 0 && (
                  <span className="extends" aria-hidden="true">
                    ↳{" "}
                  </span>
                )}
                <strong>{f.name}</strong>
                {r.depth > 0 && f.partOf && <span className="visually-hidden"> (adds to {f.partOf})</span>}
                {r.orphanOf && <span className="muted"> — adds to {r.orphanOf}</span>}
              </div>
              <div className="row feature-tags">
                <StatusTag status={f.status} statusText={f.statusText} />
                {r.proposed && <span className="badge badge-proposed">Suggested — confirm it to count it</span>}
                {r.notCounted && !r.proposed && <span className="badge badge-uncounted">Not counted</span>}
                {f.addedByAgent && <span className="badge">Added by the coding agent</span>}
              </div>
              {parts.length > 0 && <p className="muted feature-removed">Parts taken out: {parts.join(", ")}</p>}
            </div>
            <div className="feature-stories">
              <span className="stories-count">
                {f.stories.done} of {f.stories.total}
              </span>
              <span className="muted"> {f.stories.total === 1 ? "story" : "stories"} done</span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
