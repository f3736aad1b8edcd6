// Test helpers for the Specs and Plans screens: a fresh query client, the toast and notice
// providers, and a navigate spy.
import type { ReactElement, ReactNode } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ToastProvider } from "../components/Toasts";
import { NavContext, type NavTarget } from "./nav";
import { NoticeProvider } from "./notices";

export function renderScreen(ui: ReactElement, navigate: (to: NavTarget) => void = () => undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={client}>
      <ToastProvider>
        <NoticeProvider>
          <NavContext.Provider value={navigate}>{children}</NavContext.Provider>
        </NoticeProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
  const result = render(wrap(ui));
  return { ...result, client, rerender: (next: ReactElement) => result.rerender(wrap(next)) };
}
