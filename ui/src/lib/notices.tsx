// Short confirmations ("Saved to …", "Copied") shown in a polite live region at the bottom of the
// window. Errors use the app's error toasts (components/Toasts.tsx) instead.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import "./lib.css";

/** A button a notice offers (e.g. "Restore the earlier draft"); it dismisses the notice. */
export interface NoticeAction {
  label: string;
  run: () => void;
}

interface Notice {
  id: number;
  text: string;
  action?: NoticeAction;
}

type ShowNotice = (text: string, action?: NoticeAction) => void;

const NoticeContext = createContext<ShowNotice>(() => undefined);

export function useNotice(): ShowNotice {
  return useContext(NoticeContext);
}

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const timers = useRef<number[]>([]);
  const dismiss = useCallback((id: number) => setNotices((n) => n.filter((x) => x.id !== id)), []);
  const show = useCallback(
    (text: string, action?: NoticeAction) => {
      const id = Date.now() + Math.random();
      setNotices((n) => [...n.slice(-2), { id, text, action }]);
      // A notice with an action stays longer: there is something to do.
      timers.current.push(window.setTimeout(() => dismiss(id), action ? 15000 : 6000));
    },
    [dismiss],
  );
  useEffect(() => {
    const list = timers.current;
    return () => list.forEach((t) => window.clearTimeout(t));
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((n) => (
          <div key={n.id} className="notice">
            <span>{n.text}</span>
            {n.action && (
              <button
                className="btn"
                type="button"
                onClick={() => {
                  n.action?.run();
                  dismiss(n.id);
                }}
              >
                {n.action.label}
              </button>
            )}
            <button className="btn btn-ghost" type="button" onClick={() => dismiss(n.id)}>
              Dismiss
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}
