// The status chips above a plan's features: "All", each status present and "Suggested", with
// their counts; one pressed at a time.
import type { FeatureFilterKey, FilterChip } from "./featureFilter";

export function FeatureFilters({ chips, value, onChange }: { chips: FilterChip[]; value: FeatureFilterKey; onChange: (key: FeatureFilterKey) => void }) {
  return (
    <div className="feature-filters" role="group" aria-label="Show features by status">
      {chips.map((c) => (
        <button
          key={c.key}
          type="button"
          className="filter-chip"
          aria-pressed={c.key === value}
          data-key={c.key}
          onClick={() => onChange(c.key)}
        >
          <span className="filter-chip-label">{c.label}</span> <span className="filter-chip-count">{c.count}</span>
        </button>
      ))}
    </div>
  );
}
