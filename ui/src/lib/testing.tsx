// Test helpers for the Specs and Plans screens: a fresh query client, the toaster, and a navigate spy.
import type { ReactElement, ReactNode } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppToaster } from "../components/Toasts";
import type { Settings } from "../ipc/contract";
import { keys } from "../ipc/hooks";
import { NavContext, type NavTarget } from "./nav";

/** The settings a screen under test sees: the built-in Sandbox connection in use. */
export const TEST_SETTINGS: Settings = {
  activeProfileId: "sandbox",
  theme: "system",
  specPollIntervalSecs: 12,
  defaultSpecDepth: "fast",
  notifications: true,
};

export function renderScreen(ui: ReactElement, navigate: (to: NavTarget) => void = () => undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
  // Screens key their data by the connection in use: it is known from the start, as in the app.
  client.setQueryData(keys.settings, TEST_SETTINGS);
  client.setQueryDefaults(keys.settings, { staleTime: Infinity });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={client}>
      <NavContext.Provider value={navigate}>
        {children}
        <AppToaster />
      </NavContext.Provider>
    </QueryClientProvider>
  );
  const result = render(wrap(ui));
  return { ...result, client, rerender: (next: ReactElement) => result.rerender(wrap(next)) };
}
