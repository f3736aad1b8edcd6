import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { IpcError } from "../ipc/contract";
import { toIpcError } from "../ipc/invoke";
import { errorTitle } from "./ErrorPanel";

interface Toast {
  id: number;
  error: IpcError;
}

const ToastContext = createContext<(e: unknown) => void>(() => undefined);

/** Shows an error as a toast (for failures that are not tied to one form). */
export function useErrorToast() {
  return useContext(ToastContext);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const show = useCallback(
    (e: unknown) => {
      const id = Date.now() + Math.random();
      setToasts((t) => [...t.slice(-2), { id, error: toIpcError(e) }]);
      window.setTimeout(() => dismiss(id), 8000);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="assertive">
        {toasts.map((t) => (
          <div key={t.id} className="toast" role="alert">
            <strong>{errorTitle(t.error.kind)}</strong>
            <p>{t.error.message}</p>
            <button className="btn btn-ghost" type="button" onClick={() => dismiss(t.id)}>
              Dismiss
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
