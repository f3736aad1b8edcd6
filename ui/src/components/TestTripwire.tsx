// Test builds only: the end-to-end tests prove each area's error boundary on the real app by
// making one screen fail to render. The app built with `--features e2e-hooks` says so in
// `app_info` (`testHooks`); only then does ScreenBoundary mount this, listening for the test
// event. A release build answers false, so nothing can make a screen fail on purpose there.
import { useState } from "react";
import { listen } from "@tauri-apps/api/event";
import { useSubscription } from "../ipc/events";

/** The test event: its payload names the area whose screen must fail (`"plans"`, …), or the
 * shell dialog (`"command palette"`, `"help sheet"`). */
export const BREAK_SCREEN_EVENT = "e2e://break-screen";

/** Renders nothing; throws while rendering once the test event named `area` (`what`: what
 * fails, for the message). */
export function TestTripwire({ area, what = `${area} screen` }: { area: string; what?: string }) {
  const [tripped, setTripped] = useState(false);
  useSubscription<string>(
    BREAK_SCREEN_EVENT,
    (deliver) => listen<string>(BREAK_SCREEN_EVENT, (e) => deliver(e.payload)),
    (named) => {
      if (named === area) setTripped(true);
    },
  );
  if (tripped) throw new Error(`The ${what} was made to fail by an end-to-end test (e2e-hooks build).`);
  return null;
}
