// `specdesk://` links: the app's routes under its own scheme (`specdesk://specs/<id>` is
// `#/specs/<id>`), so a link opens exactly what the address would (route.ts reads both). Opened
// by Rust from a second launch's arguments, a cold start's, or macOS's events (src-tauri's
// deep_links.rs); a link that names no place is said in plain words and opens nothing.
import { useEffect } from "react";
import { useAppEvent } from "../../ipc/events";
import { call } from "../../ipc/invoke";
import type { Navigate, NavTarget } from "../../lib/nav";
import { formatRoute, parseRoute } from "./route";

const SCHEME = /^specdesk:\/\//i;

/** The place a link names; null when it names none (malformed, unknown, another scheme). */
export function linkRoute(link: string): NavTarget | null {
  const text = link.trim();
  if (!SCHEME.test(text)) return null;
  return parseRoute(`#/${text.replace(SCHEME, "")}`);
}

/** The link of a place. */
export function linkOf(to: NavTarget): string {
  return `specdesk://${formatRoute(to).replace(/^#\//, "")}`;
}

/** What the user is told of a link that opens nothing. */
export function badLinkSentence(link: string): string {
  const shown = link.length > 120 ? `${link.slice(0, 119)}…` : link;
  return `This link does not lead to anything in Specdesk: “${shown}”. Check that it was copied whole; nothing was opened.`;
}

/** Opens the links Rust hands over: this launch's own once, then each one opened while it runs. */
export function useDeepLinks(active: boolean, navigate: Navigate, tell: (sentence: string) => void): void {
  const open = (link: string) => {
    const to = linkRoute(link);
    if (to) navigate(to);
    else tell(badLinkSentence(link));
  };
  useAppEvent("deep-link", open);
  useEffect(() => {
    if (!active) return;
    call("take_deep_link")
      .then((link) => link && open(link))
      .catch(() => undefined);
    // Once, when the frame is first shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);
}
