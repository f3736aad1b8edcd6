// Test helpers for the screens: a fresh query client, and for a screen of the frame the toaster
// and the navigation context the frame gives it (with a navigate spy).
import { useState, type ReactElement, type ReactNode } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppToaster } from "../components/Toasts";
import type { Settings } from "../ipc/contract";
import { keys } from "../ipc/hooks";
import { NavContext, RouteContext, type NavOptions, type NavTarget } from "./nav";

/** The settings a screen under test sees: the built-in Sandbox connection in use. */
export const TEST_SETTINGS: Settings = {
  activeProfileId: "sandbox",
  theme: "system",
  specPollIntervalSecs: 12,
  defaultSpecDepth: "fast",
  notifications: true,
  notify: { specs: true, batches: true, videos: true },
};

function testClient(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
  // Screens key their data by the connection in use: it is known from the start, as in the app.
  client.setQueryData(keys.settings, TEST_SETTINGS);
  client.setQueryDefaults(keys.settings, { staleTime: Infinity });
  return client;
}

function mount(ui: ReactElement, wrap: (children: ReactNode) => ReactNode) {
  const client = testClient();
  const withClient = (children: ReactNode) => <QueryClientProvider client={client}>{wrap(children)}</QueryClientProvider>;
  const result = render(withClient(ui));
  return { ...result, client, rerender: (next: ReactElement) => result.rerender(withClient(next)) };
}

/**
 * A screen of the frame, as App mounts it: in the navigation context, with the frame's toaster
 * beside it (App.tsx). What App shows before the frame goes through `renderBeforeFrame`.
 */
export function renderScreen(ui: ReactElement, navigate: (to: NavTarget) => void = () => undefined) {
  return mount(ui, (children) => (
    <NavContext.Provider value={navigate}>
      {children}
      <AppToaster />
    </NavContext.Provider>
  ));
}

/**
 * What App shows before the frame (the first run's welcome), with nothing the frame would add: no
 * toaster and no navigation context, only what `ui` mounts itself.
 */
export function renderBeforeFrame(ui: ReactElement) {
  return mount(ui, (children) => children);
}

/** A route held as App holds it: `navigate` moves it (and is told to `spy`), and the screen is
 * drawn from it as the frame draws it from the address. */
function Routed({ start, draw, spy }: { start: NavTarget; draw: (route: NavTarget) => ReactElement; spy: (to: NavTarget, options?: NavOptions) => void }) {
  const [route, setRoute] = useState(start);
  const navigate = (to: NavTarget, options?: NavOptions) => {
    spy(to, options);
    setRoute(to);
  };
  return (
    <NavContext.Provider value={navigate}>
      <RouteContext.Provider value={route}>{draw(route)}</RouteContext.Provider>
      <AppToaster />
    </NavContext.Provider>
  );
}

/** A screen that reads what it shows from its route, from `start` on (as the frame mounts it). */
export function renderRouted(start: NavTarget, draw: (route: NavTarget) => ReactElement, spy: (to: NavTarget, options?: NavOptions) => void = () => undefined) {
  return mount(<Routed start={start} draw={draw} spy={spy} />, (children) => children);
}
