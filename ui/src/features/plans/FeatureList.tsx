// The plan's features: each status in its own colour, icon and words; stories done of total;
// items that extend a feature indented under it; suggested, out-of-scope and removed ones shown
// but marked as not counted. Chips filter them by status; a feature's name opens its details.
import { useId, useRef } from "react";
import type { Feature } from "../../bindings/Feature";
import { FeatureDetail } from "./FeatureDetail";
import { removedParts } from "./featureFacts";
import { ALL, effectiveKey, filterChips, filterFeatures } from "./featureFilter";
import { FeatureFilters } from "./FeatureFilters";
import { featureRows } from "./progress";
import { StatusTag } from "./StatusTag";
import { usePlanViewState } from "./usePlanViewState";

export function FeatureList({ features, specId = null }: { features: Feature[]; specId?: string | null }) {
  const panelId = useId();
  // The chip and the open feature are in the plan's address (usePlanViewState).
  const { filter: chosen, feature: selectedId, update } = usePlanViewState();
  const setSelectedId = (id: string | null) => update({ feature: id });
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  if (features.length === 0) return <div className="empty">No features listed yet.</div>;
  const chips = filterChips(features);
  const key = effectiveKey(chips, chosen);
  const shown = filterFeatures(features, key);
  const rows = featureRows(shown);
  const selected = features.find((f) => f.id === selectedId) ?? null;
  const close = () => {
    const id = selectedId;
    setSelectedId(null);
    if (id) buttons.current.get(id)?.focus();
  };
  return (
    <div className="features-block">
      <FeatureFilters chips={chips} value={key} onChange={(filter) => update({ filter })} />
      <p className="muted feature-shown" role="status">
        {key === ALL ? `${features.length} ${features.length === 1 ? "feature" : "features"}` : `Showing ${shown.length} of ${features.length} features`}
      </p>
      <div className="features-layout" data-detail={selected ? "open" : "closed"}>
        <ul className="features">
          {rows.map((r) => {
            const f = r.feature;
            const parts = removedParts(f);
            const open = f.id === selectedId;
            return (
              <li key={f.id} className="feature" data-depth={r.depth} data-counted={!r.notCounted} data-status={f.status} data-selected={open}>
                <div className="feature-main">
                  <div className="feature-name">
                    {r.depth > 0 && (
                      <span className="extends" aria-hidden="true">
                        ↳{" "}
                      </span>
                    )}
                    <button
                      ref={(el) => {
                        if (el) buttons.current.set(f.id, el);
                        else buttons.current.delete(f.id);
                      }}
                      className="link-button feature-open"
                      type="button"
                      aria-expanded={open}
                      aria-controls={open ? panelId : undefined}
                      onClick={() => setSelectedId(open ? null : f.id)}
                    >
                      <strong>{f.name}</strong>
                    </button>
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
        {selected && (
          <FeatureDetail
            key={selected.id}
            id={panelId}
            feature={selected}
            features={features}
            specId={specId}
            onSelect={(id) => {
              update({ filter: filterFeatures(features, key).some((f) => f.id === id) ? key : ALL, feature: id });
            }}
            onClose={close}
          />
        )}
      </div>
    </div>
  );
}
