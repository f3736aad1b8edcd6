// The parts of the app's frame around the screen: the header (the connection in use and the
// credit meter), the areas' navigation, the area's screen in its error boundary, and the shell's
// dialogs (command palette, help sheet), each in a boundary of its own.
import { Suspense, type RefObject } from "react";
import { CreditMeter } from "../../components/CreditMeter";
import { ActivityCenter } from "../activity/ActivityCenter";
import { PartBoundary, ScreenBoundary } from "../../components/ScreenBoundary";
import { useProfiles } from "../../ipc/hooks";
import type { Area, NavTarget } from "../../lib/nav";
import { AgentsScreen, CommandPalette, GatewayScreen, HelpSheet, PlansScreen, SettingsScreen, SpecsScreen } from "./areas";
import { DialogBoundary } from "./DialogBoundary";

export type Screen = Area | "settings";
export type Dialog = "palette" | "help" | null;
type Navigate = (to: NavTarget) => void;

const NAV: { id: Screen; label: string }[] = [
  { id: "specs", label: "Specs" },
  { id: "plans", label: "Plans" },
  { id: "agents", label: "Browser agents" },
  { id: "gateway", label: "Gateway" },
];

/**
 * The connection the screens show. `connection` comes from the App's render (the settings the
 * screens' data is keyed by), not read here: re-rendered for a new list of connections, this
 * name never runs ahead of the screens under it (a query's cache can be newer than what the
 * screens were told of yet).
 */
function ActiveProfile({ connection }: { connection: string | undefined }) {
  const profiles = useProfiles();
  const active = profiles.data?.find((p) => p.id === connection);
  if (!active) return null;
  return (
    <span className="row">
      <span>{active.name}</span>
      {active.builtIn && <span className="badge badge-sandbox">Sandbox — offline, simulated</span>}
    </span>
  );
}

export function AppHeader({ connection }: { connection: string | undefined }) {
  return (
    <header className="app-header">
      <span className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Specdesk
      </span>
      <PartBoundary part="header" fallback={<span className="muted header-right">The connection and credits could not be shown. Open Settings to see them.</span>}>
        <div className="header-right">
          <ActiveProfile connection={connection} />
          <ActivityCenter />
          <CreditMeter />
        </div>
      </PartBoundary>
    </header>
  );
}

/** The place last shown in each area. */
export type LastPlaces = Partial<Record<NavTarget["area"], NavTarget>>;

/** Where an area's button leads: back to the plan, the acceptance run or batch, the studio and
 * what was open in it, last shown there (the Specs button reopens the list: features/shell/history.ts). */
export function areaPlace(id: Screen, last: LastPlaces): NavTarget {
  const was = last[id];
  if (id === "plans" && was?.area === "plans") return { area: "plans", target: was.target };
  if (id === "agents" && was?.area === "agents") return { area: "agents", acceptance: was.acceptance, batch: was.batch };
  if (id === "gateway" && was?.area === "gateway") return was;
  return { area: id };
}

interface SidebarProps {
  screen: Screen;
  navigate: Navigate;
  /** The places last shown in the areas, which their buttons reopen. */
  last: RefObject<LastPlaces>;
}

export function Sidebar({ screen, navigate, last }: SidebarProps) {
  const open = (id: Screen) => navigate(areaPlace(id, last.current ?? {}));
  return (
    <nav className="sidebar" aria-label="Areas">
      {NAV.map((n) => (
        <button key={n.id} type="button" className="nav-item" aria-current={screen === n.id ? "page" : undefined} onClick={() => open(n.id)}>
          {n.label}
        </button>
      ))}
      <div className="nav-spacer" />
      <button type="button" className="nav-item" aria-current={screen === "settings" ? "page" : undefined} onClick={() => open("settings")}>
        Settings
      </button>
    </nav>
  );
}

/** The area the route names (its code loaded on demand, except the Specs list's), inside its
 * error boundary. */
export function AreaScreen({ route, testHooks }: { route: NavTarget; testHooks: boolean }) {
  return (
    <ScreenBoundary area={route.area} testHooks={testHooks}>
      {/* No heading in the fallback: the first usable screen is the area's own (lib/startup.ts). */}
      <Suspense fallback={<p className="skeleton" role="status">Opening…</p>}>
        {route.area === "settings" ? (
          <SettingsScreen section={route.section} />
        ) : route.area === "specs" ? (
          <SpecsScreen specId={route.specId} tab={route.tab} />
        ) : route.area === "plans" ? (
          <PlansScreen target={route.target} />
        ) : route.area === "agents" ? (
          <AgentsScreen acceptance={route.acceptance} batch={route.batch} />
        ) : (
          <GatewayScreen place={route} />
        )}
      </Suspense>
    </ScreenBoundary>
  );
}

/** The palette or the help sheet when one is open, each in its own boundary (`testHooks`: the
 * end-to-end tests' build, which may make one fail on purpose). */
export function ShellDialogs({
  dialog,
  route,
  navigate,
  onClose,
  testHooks = false,
}: {
  dialog: Dialog;
  route: NavTarget;
  navigate: Navigate;
  onClose: () => void;
  testHooks?: boolean;
}) {
  return (
    <Suspense fallback={null}>
      {dialog === "palette" && (
        <DialogBoundary name="command palette" onClose={onClose} testHooks={testHooks}>
          <CommandPalette route={route} navigate={navigate} onClose={onClose} />
        </DialogBoundary>
      )}
      {dialog === "help" && (
        <DialogBoundary name="help sheet" onClose={onClose} testHooks={testHooks}>
          <HelpSheet onClose={onClose} />
        </DialogBoundary>
      )}
    </Suspense>
  );
}

/** The start notice (a damaged settings file set aside), until the user dismisses it. */
export function StartNotice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div className="start-notice" role="alert">
      <p>{text}</p>
      <button className="btn" type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
