// Links that leave the app: they open in the system browser through `open_external`, never by
// navigating the web view. `ExternalLink` is a real link for assistive technology and the status
// bar, with the navigation itself always prevented.
import type { MouseEvent, ReactNode } from "react";
import { call } from "../ipc/invoke";
import { useErrorToast } from "../components/Toasts";
import "./lib.css";

/** Whether a URL is an absolute http(s) address (the only kind `open_external` opens). */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
  } catch {
    return false;
  }
}

export function useOpenExternal(): (url: string) => void {
  const toast = useErrorToast();
  return (url: string) => {
    call("open_external", { url }).catch(toast);
  };
}

/**
 * A click handler for rendered HTML: a link marked `data-external` opens in the system browser,
 * a `#anchor` link scrolls to its heading inside `root`, and any other link does nothing.
 */
export function handleRenderedLinkClick(
  e: MouseEvent<HTMLElement>,
  open: (url: string) => void,
  scrollTo: (id: string) => void,
): void {
  const target = e.target as Element | null;
  const a = target?.closest?.("a");
  if (!a) return;
  e.preventDefault();
  const href = a.getAttribute("href") ?? "";
  if (a.hasAttribute("data-external") && isWebUrl(href)) {
    open(href);
  } else if (href.startsWith("#") && href.length > 1) {
    const raw = href.slice(1);
    let id = raw;
    try {
      id = decodeURIComponent(raw);
    } catch {
      // A stray "%" in a heading's link: use it as written.
    }
    scrollTo(id);
  }
}

export function ExternalLink({
  href,
  children,
  className,
  label,
}: {
  href: string;
  children: ReactNode;
  className?: string;
  /** An accessible name when the visible text alone is not enough. */
  label?: string;
}) {
  const open = useOpenExternal();
  const stop = (e: MouseEvent) => {
    e.preventDefault();
  };
  return (
    <a
      href={href}
      className={className}
      aria-label={label}
      rel="noreferrer"
      onClick={(e) => {
        e.preventDefault();
        open(href);
      }}
      onAuxClick={stop}
    >
      {children}
      <span aria-hidden="true" className="external-mark">
        {" "}
        ↗
      </span>
    </a>
  );
}
