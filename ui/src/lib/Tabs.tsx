// Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs; only the
// active panel is mounted, so a heavy tab costs nothing until it is opened.
import { useRef, type KeyboardEvent, type ReactNode } from "react";
import "./lib.css";

export interface TabDef<T extends string> {
  id: T;
  label: string;
}

export function Tabs<T extends string>({
  idPrefix,
  label,
  tabs,
  active,
  onChange,
  children,
}: {
  idPrefix: string;
  label: string;
  tabs: TabDef<T>[];
  active: T;
  onChange: (id: T) => void;
  /** The active tab's content. */
  children: ReactNode;
}) {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const move = (e: KeyboardEvent, index: number) => {
    let next: number | null = null;
    if (e.key === "ArrowRight") next = (index + 1) % tabs.length;
    else if (e.key === "ArrowLeft") next = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = tabs.length - 1;
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onChange(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div className="tabs">
      <div className="tab-list" role="tablist" aria-label={label}>
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              if (el) refs.current.set(t.id, el);
              else refs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${t.id}`}
            aria-selected={t.id === active}
            aria-controls={`${idPrefix}-panel-${t.id}`}
            tabIndex={t.id === active ? 0 : -1}
            className="tab"
            onClick={() => onChange(t.id)}
            onKeyDown={(e) => move(e, i)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        className="tab-panel"
        role="tabpanel"
        id={`${idPrefix}-panel-${active}`}
        aria-labelledby={`${idPrefix}-tab-${active}`}
        tabIndex={0}
      >
        {children}
      </div>
    </div>
  );
}
