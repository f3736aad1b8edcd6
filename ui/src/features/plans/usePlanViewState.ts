// The open plan's view (its feature filter chip and the feature whose details are open) lives in
// the address, so Back, Forward and a relaunch keep it. A change replaces the history entry: Back
// leaves the plan rather than stepping through every chip. Outside a plan's address (a screen
// test), the same state lives in the component.
import { useState } from "react";
import { useNavigate, useRoute } from "../../lib/nav";
import { ALL, type FeatureFilterKey } from "./featureFilter";

export interface PlanViewState {
  filter: FeatureFilterKey;
  /** The id of the feature whose details are open. */
  feature: string | null;
  /** Changes either or both at once (one history change). */
  update: (change: { filter?: FeatureFilterKey; feature?: string | null }) => void;
}

export function usePlanViewState(): PlanViewState {
  const route = useRoute();
  const navigate = useNavigate();
  const [localFilter, setLocalFilter] = useState<FeatureFilterKey>(ALL);
  const [localFeature, setLocalFeature] = useState<string | null>(null);
  if (route.area !== "plans" || !route.target) {
    return {
      filter: localFilter,
      feature: localFeature,
      update: ({ filter, feature }) => {
        if (filter !== undefined) setLocalFilter(filter);
        if (feature !== undefined) setLocalFeature(feature);
      },
    };
  }
  const place = route;
  return {
    filter: place.filter ?? ALL,
    feature: place.feature ?? null,
    update: ({ filter = place.filter ?? ALL, feature = place.feature ?? null }) =>
      navigate({ ...place, filter: filter === ALL ? undefined : filter, feature: feature ?? undefined }, { replace: true }),
  };
}
