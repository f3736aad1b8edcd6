import { useEffect, useState } from "react";
import type { IpcError } from "../ipc/contract";
import { call } from "../ipc/invoke";

const TITLES: Record<string, string> = {
  missingKey: "An API key is needed",
  invalidKey: "Your API key was not accepted",
  insufficientCredits: "Not enough credits",
  subscriptionRequired: "A paid plan is needed",
  rateLimited: "Too many requests",
  notFound: "Not found",
  invalidInput: "Please check what you entered",
  network: "No connection to the service",
  server: "The service had a problem",
  keychainLocked: "Your keychain is locked",
  keychainUnavailable: "No keychain found",
  storage: "Local data could not be saved",
};

export function errorTitle(kind: string): string {
  return TITLES[kind] ?? "Something went wrong";
}

/** Seconds left of a rate-limit wait, counting down once a second. */
export function useCountdown(ms: number | undefined): number {
  const [left, setLeft] = useState(() => Math.ceil((ms ?? 0) / 1000));
  useEffect(() => {
    if (!ms) return;
    const end = Date.now() + ms;
    const tick = () => setLeft(Math.max(0, Math.ceil((end - Date.now()) / 1000)));
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [ms]);
  return left;
}

/** `level`: the title's heading level where the panel sits (h1 when it is the whole page). */
export function ErrorPanel({ error, onRetry, level = 3 }: { error: IpcError; onRetry?: () => void; level?: 1 | 2 | 3 }) {
  const left = useCountdown(error.kind === "rateLimited" ? error.retryAfterMs : undefined);
  const action = error.action;
  const Title = `h${level}` as const;
  return (
    <div className="panel panel-error" role="alert">
      <Title>{errorTitle(error.kind)}</Title>
      <p>{error.message}</p>
      {error.kind === "rateLimited" && left > 0 && (
        <p className="muted" aria-live="polite">
          You can try again in {left} s.
        </p>
      )}
      <div className="row">
        {action && (
          <button className="btn btn-primary" type="button" onClick={() => void call("open_external", { url: action.url })}>
            {action.label}
          </button>
        )}
        {onRetry && (
          <button className="btn" type="button" onClick={onRetry} disabled={error.kind === "rateLimited" && left > 0}>
            Try again
          </button>
        )}
      </div>
    </div>
  );
}
