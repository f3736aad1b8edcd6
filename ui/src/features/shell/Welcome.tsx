import { useRef } from "react";
import { call } from "../../ipc/invoke";
import { useQueryClient } from "@tanstack/react-query";
import { keys } from "../../ipc/hooks";
import { PartBoundary, ScreenBoundary } from "../../components/ScreenBoundary";
import { AppToaster, useErrorToast } from "../../components/Toasts";
import { useFirstUsable } from "../../lib/startup";
import { requestNewSpec, takeNewSpecRequest } from "./newSpec";

/**
 * The first run's screen as App shows it, before the frame: the welcome, and a toaster of its own
 * (the frame's is not mounted yet), so a failure to finish the welcome is told.
 */
export function FirstRunScreen({ onDone }: { onDone: (goToSettings: boolean) => void }) {
  return (
    <>
      <ScreenBoundary area="welcome">
        <Welcome onDone={onDone} />
      </ScreenBoundary>
      <PartBoundary part="toasts">
        <AppToaster />
      </PartBoundary>
    </>
  );
}

// The first screen of a first run. "Explore the Sandbox" lands on the Specs composer with the focus
// in its description (a "New spec" request, answered once Specs is on screen), so a first spec is
// an example idea and Generate away. A failure to finish it is a toast (FirstRunScreen's toaster).
export function Welcome({ onDone }: { onDone: (goToSettings: boolean) => void }) {
  const qc = useQueryClient();
  const toast = useErrorToast();
  // The card, its heading and both buttons are rendered together: the first usable screen of a
  // first run (lib/startup.ts).
  const mainRef = useRef<HTMLElement>(null);
  useFirstUsable(mainRef, "welcome");
  const finish = async (goToSettings: boolean) => {
    // Asked for before the frame shows: the frame appears as soon as app_info says the welcome
    // was seen, possibly before onDone navigates, and its first arrival on Specs answers it.
    // Navigating is left to onDone.
    if (!goToSettings) requestNewSpec(() => undefined, false);
    try {
      await call("finish_welcome");
      await qc.invalidateQueries({ queryKey: keys.appInfo });
      onDone(goToSettings);
    } catch (e) {
      if (!goToSettings) takeNewSpecRequest();
      toast(e);
    }
  };
  return (
    <main className="welcome" aria-labelledby="welcome-title" ref={mainRef}>
      <div className="card">
        <h1 id="welcome-title">Welcome to Specdesk</h1>
        <p>
          Turn an idea into a project spec, follow your project's plan, run browser agents and try AI
          models — all from one app.
        </p>
        <div className="panel panel-info">
          <h2>You are on the Sandbox</h2>
          <p>
            Specdesk starts on a built-in <strong>Sandbox</strong>: a simulated service that runs on this
            computer. Nothing you do leaves your machine, and its credits are not real money, so explore
            freely.
          </p>
        </div>
        <h2>When you are ready for the real service</h2>
        <p>
          Open <strong>Settings → Connections</strong>, add a connection with the service address and paste
          your API key. Your key is kept in your system keychain, never in Specdesk's files.
        </p>
        <div className="row">
          <button className="btn btn-primary" type="button" onClick={() => void finish(false)}>
            Explore the Sandbox
          </button>
          <button className="btn" type="button" onClick={() => void finish(true)}>
            Add my API key
          </button>
        </div>
      </div>
    </main>
  );
}
