// Short confirmations ("Saved to …", "Copied") shown in a polite live region at the bottom of the
// window. Errors use the app's error toasts (components/Toasts.tsx) instead.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import "./lib.css";

interface Notice {
  id: number;
  text: string;
}

const NoticeContext = createContext<(text: string) => void>(() => undefined);

export function useNotice(): (text: string) => void {
  return useContext(NoticeContext);
}

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const timers = useRef<number[]>([]);
  const dismiss = useCallback((id: number) => setNotices((n) => n.filter((x) => x.id !== id)), []);
  const show = useCallback(
    (text: string) => {
      const id = Date.now() + Math.random();
      setNotices((n) => [...n.slice(-2), { id, text }]);
      timers.current.push(window.setTimeout(() => dismiss(id), 6000));
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
            <button className="btn btn-ghost" type="button" onClick={() => dismiss(n.id)}>
              Dismiss
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}
