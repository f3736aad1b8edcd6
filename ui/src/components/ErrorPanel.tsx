import { useEffect, useId, useState } from "react";
import { ErrorKind, type KnownErrorKind } from "../ipc/contract";
import type { IpcError, SpendCapDetail } from "../ipc/contract";
import { call, toIpcError } from "../ipc/invoke";
import { formatCredits } from "../lib/format";
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
  spendCap: "Today's spend cap is reached",
  unconfirmed: "Not known to have reached the service",
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

/** Credits to raise today's cap by so a call of `estimate` fits beside the calls still running
 * (`underWay`): what passes the cap, rounded up to a whole credit (at least 1). A call of unknown
 * cost (estimate 0) needs the cap above what is committed, not at it: a whole credit more. */
export function suggestedRaise(d: Pick<SpendCapDetail, "spent" | "underWay" | "limit" | "estimate">): number {
  const over = Math.round((d.spent + d.underWay + d.estimate - d.limit) * 1e6) / 1e6;
  return Math.max(1, d.estimate > 0 ? Math.ceil(over) : Math.floor(over) + 1);
}

/** A heading level for a panel's title (h1 when it is the whole page). */
export type PanelLevel = 1 | 2 | 3 | 4;

/** "Raise today's cap" for a `spendCap` error: by how many credits (suggested, editable), then the
 * caller's "Try again". A raise that fails shows in its own panel (title, words, Try again). */
function RaiseCap({ detail, onRetry, level }: { detail: SpendCapDetail; onRetry?: () => void; level: PanelLevel }) {
  const id = useId();
  const [credits, setCredits] = useState(String(suggestedRaise(detail)));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);
  const value = Number(credits);
  const invalid = !credits.trim() || !Number.isFinite(value) || value <= 0;
  const raise = async () => {
    if (invalid) {
      setProblem("Enter a number of credits above 0.");
      return;
    }
    setBusy(true);
    setProblem(null);
    setFailure(null);
    try {
      const today = await call("raise_spend_cap_today", { profileId: detail.profileId, credits: value });
      setDone(`Today's cap is now ${formatCredits(today.limit ?? value)} credits.`);
    } catch (err) {
      setFailure(toIpcError(err));
    } finally {
      setBusy(false);
    }
  };
  if (done) {
    return (
      <div className="row">
        <span role="status">{done}</span>
        {onRetry && (
          <button className="btn btn-primary" type="button" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    );
  }
  return (
    <>
      {/* A group, not a form: the panel often sits inside the studio's own form (Images, Video),
          where a nested form's submit would also send the studio's form (and the call again). */}
      <div className="row" role="group" aria-label="Raise today's cap">
        <label htmlFor={`${id}-credits`}>Raise by (credits)</label>
        <input
          id={`${id}-credits`}
          className="input"
          type="number"
          min={1}
          step="any"
          inputMode="decimal"
          value={credits}
          onChange={(e) => setCredits(e.target.value)}
          onKeyDown={(e) => {
            // Enter raises the cap (and never submits a form the panel sits in).
            if (e.key !== "Enter" || e.nativeEvent.isComposing) return;
            e.preventDefault();
            void raise();
          }}
          aria-invalid={!!problem}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
        <button className="btn btn-primary" type="button" disabled={busy} onClick={() => void raise()}>
          {busy ? "Raising…" : "Raise today's cap"}
        </button>
        {problem && (
          <span className="error-text" id={`${id}-problem`} role="alert">
            {problem}
          </span>
        )}
      </div>
      {failure && <ErrorPanel error={failure} onRetry={busy ? undefined : () => void raise()} level={Math.min(level + 1, 4) as PanelLevel} />}
    </>
  );
}

/**
 * The next steps an error offers: its own action (Top up, Upgrade: opened in the browser), "Open
 * Settings" for a key or keychain problem, and "Try again" (after the countdown of a rate limit
 * or of a busy service's `Retry-After`).
 */
export function ErrorActions({ error, onRetry, level = 3 }: { error: IpcError; onRetry?: () => void; level?: PanelLevel }) {
  const navigate = useNavigate();
  // The service's `Retry-After` is waited out with a countdown: a rate limit, and a service busy
  // for a moment (a balance that could not be checked, 503).
  const timed = error.kind === ErrorKind.rateLimited || error.kind === ErrorKind.server;
  const left = useCountdown(timed ? error.retryAfterMs : undefined);
  const action = error.action;
  const waiting = timed && left > 0;
  if (error.kind === ErrorKind.spendCap && error.spendCap) {
    return <RaiseCap detail={error.spendCap} onRetry={onRetry} level={level} />;
  }
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
export function ErrorPanel({ error, onRetry, level = 3 }: { error: IpcError; onRetry?: () => void; level?: PanelLevel }) {
  const Title = `h${level}` as const;
  return (
    <div className="panel panel-error" role="alert">
      <Title>{errorTitle(error.kind)}</Title>
      <p>{error.message}</p>
      <ErrorActions error={error} onRetry={onRetry} level={level} />
    </div>
  );
}
