// The app's toasts, on sonner: one toaster (bottom right) inside the app's navigation context, so
// a toast's action can open Settings. Errors (useErrorToast) stay until dismissed and carry the
// error's actions; confirmations (lib/notices.tsx) go after a few seconds, never while the pointer
// is on them (sonner) or focus is inside them (ToastCard). Sonner's list is the one polite live
// region: a card adds no role of its own, so a screen reader announces each toast once.
import { useCallback, type ReactNode } from "react";
import { Toaster, toast } from "sonner";
// Sonner puts its stylesheet in at run time, which the app's content security policy refuses (the
// toasts then lost their place and showed list markers): it comes with the app's own CSS instead.
import "sonner/dist/styles.css";
import type { IpcError } from "../ipc/contract";
import { toIpcError } from "../ipc/invoke";
import { ErrorActions, errorTitle } from "./ErrorPanel";

type Tone = "error" | "info";

interface CardOptions {
  /** The same id replaces the toast instead of stacking a second one. */
  id: string;
  tone: Tone;
  /** How long it stays untouched, in ms; Infinity for "until dismissed". */
  duration: number;
  render: (id: string) => ReactNode;
  /** Called once the toast is gone (dismissed or timed out). */
  onGone?: () => void;
}

/** Shows (or replaces) a toast drawn by `render`, paused while focus is inside it. */
export function showCard({ id, tone, duration, render, onGone }: CardOptions) {
  const draw = (paused: boolean) =>
    toast.custom(
      () => (
        <div
          className={`toast-card toast-${tone}`}
          onFocus={() => duration !== Infinity && !paused && draw(true)}
          onBlur={(e) => {
            if (duration !== Infinity && paused && !e.currentTarget.contains(e.relatedTarget)) draw(false);
          }}
        >
          {render(id)}
          <button className="btn btn-ghost toast-dismiss" type="button" onClick={() => toast.dismiss(id)}>
            Dismiss
          </button>
        </div>
      ),
      { id, duration: paused ? Infinity : duration, unstyled: true, onDismiss: onGone, onAutoClose: onGone },
    );
  draw(false);
}

function ErrorToast({ error }: { error: IpcError }) {
  return (
    <>
      <strong>{errorTitle(error.kind)}</strong>
      <p>{error.message}</p>
      <ErrorActions error={error} />
    </>
  );
}

/** Shows an error as a toast (for failures that are not tied to one form). */
export function useErrorToast(): (e: unknown) => void {
  return useCallback((e: unknown) => {
    const error = toIpcError(e);
    showCard({
      id: `error:${error.kind}:${error.message}`,
      tone: "error",
      duration: Infinity,
      render: () => <ErrorToast error={error} />,
    });
  }, []);
}

/**
 * The one toaster: App renders it once, in the frame (inside its navigation context), or with the
 * first run's welcome before the frame is shown (features/shell/Welcome.tsx).
 */
export function AppToaster() {
  return <Toaster position="bottom-right" visibleToasts={4} containerAriaLabel="Messages" />;
}
