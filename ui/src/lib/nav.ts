// Navigation between the app's areas, lifted into App: a screen asks to open another area with a
// target (a spec to show, a plan to open) without knowing how the frame switches screens.
import { createContext, useContext } from "react";
import type { PlanTarget } from "../ipc/contract";

/** The app's areas, in the order of its navigation. */
export type Area = "specs" | "plans" | "agents" | "gateway";

/** "Check these stories on my app": the spec, and the address of the app (asked for when absent),
 * or one of its runs kept on this computer (`run`, its id). */
export interface AcceptanceRequest {
  specId: string;
  url?: string;
  run?: string;
}

/** A batch open in the Browser agents area, by the service's id; `task` and `step` count from 1
 * as the screen shows them ("Task 3", step 2 of its timeline). */
export interface BatchPlace {
  batchId: string;
  task?: number;
  step?: number;
  /** The task list's filter: a status (`failed`: every task that did not succeed) and a search. */
  status?: string;
  q?: string;
}

/** The Gateway's studios, in the order of its tabs. */
export const STUDIOS = ["chat", "images", "speech", "transcribe", "video", "rerank", "models"] as const;
export type Studio = (typeof STUDIOS)[number];

/** What is open in a studio: a conversation (chat), a model (models), an image (images), a take
 * (speech and music): each by its id in the library or the catalog. */
export interface StudioItem {
  conversation?: number;
  model?: string;
  image?: number;
  take?: number;
}

/** The sections of Settings, in their order on the page. */
export const SETTINGS_SECTIONS = ["connections", "preferences", "spending", "support"] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

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
  /** With `acceptance`: a spec's stories checked on the user's running app (its address, when
   * given); with `batch`: that batch open below the builder, with its task and step. */
  | { area: "agents"; acceptance?: AcceptanceRequest; batch?: BatchPlace }
  /** A studio (Chat when absent) with what is open in it. */
  | ({ area: "gateway"; studio?: Studio } & StudioItem)
  /** Settings, scrolled to `section` when given. */
  | { area: "settings"; section?: SettingsSection };

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
