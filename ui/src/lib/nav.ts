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

export type NavTarget =
  | { area: "specs"; specId?: string }
  | { area: "plans"; target?: PlanTarget }
  /** With `acceptance`: a spec's stories checked on the user's running app (its address, when given). */
  | { area: "agents"; acceptance?: AcceptanceRequest }
  | { area: "gateway" }
  | { area: "settings" };

export const NavContext = createContext<(to: NavTarget) => void>(() => undefined);

export function useNavigate(): (to: NavTarget) => void {
  return useContext(NavContext);
}
