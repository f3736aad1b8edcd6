// Navigation between the app's areas, lifted into App: a screen asks to open another area with a
// target (a spec to show, a plan to open) without knowing how the frame switches screens.
import { createContext, useContext } from "react";
import type { PlanTarget } from "../ipc/contract";

/** The app's areas, in the order of its navigation. */
export type Area = "specs" | "plans" | "agents" | "gateway";

/** "Check these stories on my app": the spec, and the address of the app (asked for when absent). */
export interface AcceptanceRequest {
  specId: string;
  url?: string;
}

/** The parts of a spec, each a tab of the spec view. */
export const SPEC_TABS = ["overview", "human", "agent", "scope", "product", "stack", "graphs"] as const;
export type SpecTab = (typeof SPEC_TABS)[number];

export type NavTarget =
  /**
   * With `specId`: one spec, on `tab` (Overview when absent). Without: the Specs area, whose
   * library shows `list` (its search, filters, page and sort, as features/specs/library/listAddress.ts
   * writes them; "" the defaults); a way there that leaves `list` out reopens the list last shown.
   */
  | { area: "specs"; specId?: string; tab?: SpecTab; list?: string }
  /** With `target`: one plan; `filter` is its feature filter chip, `feature` the feature whose details are open. */
  | { area: "plans"; target?: PlanTarget; filter?: string; feature?: string }
  /** With `acceptance`: a spec's stories checked on the user's running app (its address, when given). */
  | { area: "agents"; acceptance?: AcceptanceRequest }
  | { area: "gateway" }
  | { area: "settings" };

/**
 * How a place is reached: a new history entry (the default: Back returns), or `replace` for a
 * change of view within the place shown (a filter), which Back skips.
 */
export interface NavOptions {
  replace?: boolean;
}

export type Navigate = (to: NavTarget, options?: NavOptions) => void;

export const NavContext = createContext<Navigate>(() => undefined);

export function useNavigate(): Navigate {
  return useContext(NavContext);
}

/** The place shown (App provides it with the navigation). */
export const RouteContext = createContext<NavTarget>({ area: "specs" });

export function useRoute(): NavTarget {
  return useContext(RouteContext);
}
