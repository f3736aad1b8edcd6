// Navigation between the app's areas, lifted into App: a screen asks to open another area with a
// target (a spec to show, a plan to open) without knowing how the frame switches screens.
import { createContext, useContext } from "react";
import type { PlanTarget } from "../ipc/contract";

export type NavTarget =
  | { area: "specs"; specId?: string }
  | { area: "plans"; target?: PlanTarget }
  | { area: "agents" }
  | { area: "gateway" }
  | { area: "settings" };

export const NavContext = createContext<(to: NavTarget) => void>(() => undefined);

export function useNavigate(): (to: NavTarget) => void {
  return useContext(NavContext);
}
