import { useEffect, useState } from "react";
import { useAppInfo, useProfiles, useSettings } from "./ipc/hooks";
import { CreditMeter } from "./components/CreditMeter";
import { ErrorPanel } from "./components/ErrorPanel";
import { toIpcError } from "./ipc/invoke";
import { Welcome } from "./features/shell/Welcome";
import { AreaFrame, type Area } from "./features/areas/AreaFrame";
import { SettingsScreen } from "./features/settings/SettingsScreen";

type Screen = Area | "settings";

const NAV: { id: Screen; label: string }[] = [
  { id: "specs", label: "Specs" },
  { id: "plans", label: "Plans" },
  { id: "agents", label: "Browser agents" },
  { id: "gateway", label: "Gateway" },
];

function ActiveProfile() {
  const profiles = useProfiles();
  const active = profiles.data?.find((p) => p.active);
  if (!active) return null;
  return (
    <span className="row">
      <span>{active.name}</span>
      {active.builtIn && <span className="badge badge-sandbox">Sandbox — offline, simulated</span>}
    </span>
  );
}

export function App() {
  const info = useAppInfo();
  const settings = useSettings();
  const [screen, setScreen] = useState<Screen>("specs");

  const theme = settings.data?.theme ?? "system";
  useEffect(() => {
    const root = document.documentElement;
    if (theme !== "system") {
      root.setAttribute("data-theme", theme);
      return;
    }
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const apply = () => root.setAttribute("data-theme", media.matches ? "dark" : "light");
    apply();
    media.addEventListener("change", apply);
    return () => media.removeEventListener("change", apply);
  }, [theme]);

  if (info.isPending) return <p className="visually-hidden">Loading Specdesk…</p>;
  if (info.isError) {
    return (
      <main className="welcome">
        <ErrorPanel error={toIpcError(info.error)} onRetry={() => void info.refetch()} />
      </main>
    );
  }
  if (info.data.firstRun) {
    return <Welcome onDone={(toSettings) => setScreen(toSettings ? "settings" : "specs")} />;
  }

  return (
    <div className="app">
      <header className="app-header">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Specdesk
        </span>
        <div className="header-right">
          <ActiveProfile />
          <CreditMeter />
        </div>
      </header>
      <nav className="sidebar" aria-label="Areas">
        {NAV.map((n) => (
          <button
            key={n.id}
            type="button"
            className="nav-item"
            aria-current={screen === n.id ? "page" : undefined}
            onClick={() => setScreen(n.id)}
          >
            {n.label}
          </button>
        ))}
        <div className="nav-spacer" />
        <button
          type="button"
          className="nav-item"
          aria-current={screen === "settings" ? "page" : undefined}
          onClick={() => setScreen("settings")}
        >
          Settings
        </button>
      </nav>
      <main className="main">{screen === "settings" ? <SettingsScreen /> : <AreaFrame area={screen} />}</main>
    </div>
  );
}
