import { useEffect, useState } from "react";
import { ErrorKind, type KnownErrorKind } from "../ipc/contract";
import type { IpcError } from "../ipc/contract";
import { call } from "../ipc/invoke";
import { useNavigate } from "../lib/nav";

const TITLES: Record<KnownErrorKind, string> = {
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
  decode: "The answer could not be read",
  stream: "The connection broke off",
  cancelled: "Stopped",
  internal: "Something went wrong",
  failed: "It could not be finished",
};

/** Kinds the user fixes in Settings (a key to add or replace, a keychain to unlock). */
const SETTINGS_KINDS: ReadonlySet<string> = new Set<KnownErrorKind>([
  ErrorKind.missingKey,
  ErrorKind.invalidKey,
  ErrorKind.keychainLocked,
  ErrorKind.keychainUnavailable,
]);

export function errorTitle(kind: string): string {
  return (TITLES as Record<string, string>)[kind] ?? "Something went wrong";
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

/**
 * The next steps an error offers: its own action (Top up, Upgrade: opened in the browser), "Open
 * Settings" for a key or keychain problem, and "Try again" (after a rate limit's countdown).
 */
export function ErrorActions({ error, onRetry }: { error: IpcError; onRetry?: () => void }) {
  const navigate = useNavigate();
  const left = useCountdown(error.kind === ErrorKind.rateLimited ? error.retryAfterMs : undefined);
  const action = error.action;
  const waiting = error.kind === ErrorKind.rateLimited && left > 0;
  return (
    <>
      {waiting && (
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
        {SETTINGS_KINDS.has(error.kind) && (
          // Settings reads the keychain again, which asks the system to unlock it.
          <button className={action ? "btn" : "btn btn-primary"} type="button" onClick={() => navigate({ area: "settings" })}>
            {error.kind === ErrorKind.keychainLocked ? "Unlock your keychain" : "Open Settings"}
          </button>
        )}
        {onRetry && (
          <button className="btn" type="button" onClick={onRetry} disabled={waiting}>
            Try again
          </button>
        )}
      </div>
    </>
  );
}

/** `level`: the title's heading level where the panel sits (h1 when it is the whole page). */
export function ErrorPanel({ error, onRetry, level = 3 }: { error: IpcError; onRetry?: () => void; level?: 1 | 2 | 3 }) {
  const Title = `h${level}` as const;
  return (
    <div className="panel panel-error" role="alert">
      <Title>{errorTitle(error.kind)}</Title>
      <p>{error.message}</p>
      <ErrorActions error={error} onRetry={onRetry} />
    </div>
  );
}
