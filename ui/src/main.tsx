import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App } from "./App";
import { preloadPlace } from "./features/shell/areas";
import { LAST_ROUTE_KEY, currentEntry, restoreLastRoute } from "./features/shell/history";
import { canonicalHash, routeOf } from "./features/shell/route";
import { restoreLastScroll } from "./features/shell/scrollMemory";
import { keys } from "./ipc/hooks";
import { call } from "./ipc/invoke";
import "./styles/app.css";

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

async function start() {
  // The screen tests' mock IPC (src/mock), only in `vite build --mode mock`: in any other mode
  // this branch is a constant false and the bundle holds no trace of the mock.
  if (import.meta.env.MODE === "mock") {
    const { installMock } = await import("./mock/install");
    installMock(window.location.search);
  }
  // The window opens on index.html without a hash (a relaunch): back to where the user was, and
  // scrolled as it was.
  if (restoreLastRoute()) restoreLastScroll(currentEntry(), window.location.hash);
  // What the first screen depends on (the welcome or the frame, in the user's theme) is asked for
  // before React renders.
  void queryClient.prefetchQuery({ queryKey: keys.appInfo, queryFn: () => call("app_info") });
  void queryClient.prefetchQuery({ queryKey: keys.settings, queryFn: () => call("get_settings") });
  // A relaunch reopens an area: its code is fetched while the app answers, and React starts once
  // it is loaded, so its first render shows the screen, never a fallback that React would then
  // hold for 300 ms (features/shell/areas.ts). The page shows index.html's start screen until
  // then. (The Specs list, where the welcome leads, is in the main script: nothing to fetch.)
  if (localStorage.getItem(LAST_ROUTE_KEY) !== null) await preloadPlace(routeOf(canonicalHash(window.location.hash)));
  const root = document.getElementById("root");
  if (root) {
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    );
  }
}

void start();
