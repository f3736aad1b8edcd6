// One area's error boundary: a render error in a screen shows the error panel with "Reload this
// screen" instead of blanking the window; the frame, the navigation and the other areas go on.
import type { ReactNode } from "react";
import { ErrorBoundary, type FallbackProps } from "react-error-boundary";
import { TestTripwire } from "./TestTripwire";
import { retryFailedLoads } from "../lib/onDemand";

function ScreenError({ error, resetErrorBoundary, alone }: FallbackProps & { alone: boolean }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <div className="panel panel-error" role="alert">
      <h1>This screen stopped working</h1>
      <p>{`Something went wrong while showing it. Your work is saved. Reload the screen${alone ? "." : ", or open another area."}`}</p>
      <p className="muted">Details: {detail}</p>
      <div className="row">
        <button className="btn btn-primary" type="button" onClick={resetErrorBoundary}>
          Reload this screen
        </button>
      </div>
    </div>
  );
}

/**
 * `area` names the screen: moving to another area starts it afresh ("welcome": the first run's
 * screen, with no other area to open). `testHooks`: the app is the
 * end-to-end tests' build (`app_info`), which may make the screen fail on purpose (TestTripwire).
 */
export function ScreenBoundary({ area, testHooks = false, children }: { area: string; testHooks?: boolean; children: ReactNode }) {
  return (
    <ErrorBoundary
      fallbackRender={(props) => <ScreenError {...props} alone={area === "welcome"} />}
      resetKeys={[area]}
      // A screen whose code failed to load fetches it again when reloaded (lib/onDemand.ts).
      onReset={retryFailedLoads}
      onError={(e) => console.error(`The ${area} screen failed:`, e)}
    >
      {testHooks && <TestTripwire area={area} />}
      {children}
    </ErrorBoundary>
  );
}

/**
 * A part of the frame that is not a screen (the header, the toasts): if it fails to render,
 * `fallback` (else nothing) takes its place and the error is logged, so the screens and the
 * navigation go on.
 */
export function PartBoundary({ part, fallback = null, children }: { part: string; fallback?: ReactNode; children: ReactNode }) {
  return (
    <ErrorBoundary fallback={fallback} onError={(e) => console.error(`The ${part} failed:`, e)}>
      {children}
    </ErrorBoundary>
  );
}
