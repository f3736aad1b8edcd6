import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useAppInfo, useSettings, useSettingsEvents } from "./ipc/hooks";
import { ErrorPanel } from "./components/ErrorPanel";
import { PartBoundary } from "./components/ScreenBoundary";
import { AppToaster } from "./components/Toasts";
import { toIpcError } from "./ipc/invoke";
import { AppHeader, AreaScreen, ShellDialogs, Sidebar, StartNotice, type Dialog, type LastPlaces, type Screen } from "./features/shell/Frame";
import { FirstRunScreen } from "./features/shell/Welcome";
import { Recovery } from "./features/shell/Recovery";
import { prefetchAreas } from "./features/shell/areas";
import { useHashRoute } from "./features/shell/history";
import { placeOf } from "./features/shell/route";
import { useDeepLinks } from "./features/shell/links";
import { useJobNotices } from "./features/activity/useJobNotices";
import { showCard } from "./components/Toasts";
import { useScrollMemory } from "./features/shell/scrollMemory";
import { useGlobalShortcuts } from "./features/shell/shortcuts";
import { useFocusHeading } from "./features/shell/useFocusHeading";
import { onFirstUsable, useFirstUsable } from "./lib/startup";
import { NavContext, RouteContext } from "./lib/nav";

export function App() {
  const info = useAppInfo();
  // The start notice (a damaged settings file set aside) is given by the first app_info only:
  // kept here until the user dismisses it.
  const [startNotice, setStartNotice] = useState<string | null>(null);
  const [seenNotice, setSeenNotice] = useState<string | undefined>(undefined);
  const givenNotice = info.data?.notice;
  if (givenNotice && givenNotice !== seenNotice) {
    setSeenNotice(givenNotice);
    setStartNotice(givenNotice);
  }
  const settings = useSettings();
  useSettingsEvents();
  // The screen and what it shows live in the URL hash (features/shell/history.ts): a spec (else
  // the Specs list), a plan (else the picker), an acceptance run of a spec (else the batches).
  // navigate() pushes a history entry, so Back and Forward walk through them.
  const { route, hash, entry, navigate } = useHashRoute();
  const screen: Screen = route.area;
  // The areas' buttons reopen the place last shown in them (Frame.tsx, areaPlace).
  const last = useRef<LastPlaces>({});
  useEffect(() => {
    last.current[route.area] = route;
  }, [route]);
  const mainRef = useRef<HTMLElement>(null);
  const frameShown = !!info.data && !info.data.firstRun;
  // specdesk:// links (features/shell/links.ts): the launch's own, then each opened while running.
  useDeepLinks(frameShown, navigate, (sentence) =>
    showCard({ id: "deep-link", tone: "error", duration: 15000, render: () => <span role="alert">{sentence}</span> }),
  );
  // A long job that ended is told on every screen, and opened from its notice (or a desktop one).
  useJobNotices(route, navigate);
  // Each history entry keeps its scroll position (Back returns to it; a new place starts at the top).
  useScrollMemory(mainRef, entry, hash, frameShown);
  const [dialog, setDialog] = useState<Dialog>(null);
  useGlobalShortcuts({
    openPalette: () => frameShown && setDialog((d) => (d === "palette" ? null : "palette")),
    openHelp: () => frameShown && setDialog("help"),
    dialogOpen: dialog !== null,
  });
  // Each new place moves the focus to its heading (not a field the user is typing in).
  useFocusHeading(mainRef, placeOf(route), frameShown);
  useFirstUsable(mainRef, screen, frameShown); // a relaunch's first usable screen (lib/startup.ts)
  // The other areas' code is fetched once the first screen is usable (features/shell/areas.ts).
  useEffect(() => onFirstUsable(prefetchAreas), []);

  const theme = settings.data?.theme ?? "system";
  // Before the browser paints, so no screen is ever painted in the other theme first.
  useLayoutEffect(() => {
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

  // The start screen of index.html, kept until the app answers (no blank flash in between).
  // Until the settings are read too, so the first screen is painted in the user's theme (a
  // settings error goes on with the system's theme).
  if (info.isPending || settings.isPending) {
    return (
      <div className="boot" role="status">
        <span className="boot-mark" aria-hidden="true" />
        <span className="boot-name">Specdesk</span>
        <span className="boot-text">Starting…</span>
      </div>
    );
  }
  if (info.isError) {
    return (
      <main className="welcome">
        <ErrorPanel error={toIpcError(info.error)} onRetry={() => void info.refetch()} level={1} />
      </main>
    );
  }
  // The app could not start (a locked library, a read-only data folder…): the recovery window.
  if (info.data.startProblem) return <Recovery problem={info.data.startProblem} />;
  const notice = startNotice ? <StartNotice text={startNotice} onDismiss={() => setStartNotice(null)} /> : null;
  if (info.data.firstRun) {
    return (
      <>
        {notice}
        <FirstRunScreen onDone={(toSettings) => navigate(toSettings ? { area: "settings" } : { area: "specs" })} />
      </>
    );
  }

  // The whole frame navigates (the header's activity center opens items too).
  return (
    <NavContext.Provider value={navigate}>
      <RouteContext.Provider value={route}>
        <div className="app">
          <AppHeader connection={settings.data?.activeProfileId} />
          <Sidebar screen={screen} navigate={navigate} last={last} />
          <main className="main" ref={mainRef}>
            {notice}
            <AreaScreen route={route} testHooks={info.data.testHooks} />
            <PartBoundary part="toasts">
              <AppToaster />
            </PartBoundary>
            <ShellDialogs dialog={dialog} route={route} navigate={navigate} onClose={() => setDialog(null)} testHooks={info.data.testHooks} />
          </main>
        </div>
      </RouteContext.Provider>
    </NavContext.Provider>
  );
}
