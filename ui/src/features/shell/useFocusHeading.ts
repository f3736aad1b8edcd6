// After each navigation, the keyboard and screen-reader focus moves to the new screen's heading
// (its `h1`, made focusable with tabIndex=-1), as soon as it is rendered (a spec shows it once
// read). Never while the user is typing in a field: a screen that focuses a field of its own
// (the composer after "Edit and try again") keeps it, and so does a field the user clicked.
import { useEffect, type RefObject } from "react";
import { isTypingTarget } from "./shortcuts";
import { dispatchNewSpec, takeNewSpecRequest } from "./newSpec";

/** How long a screen's heading is waited for. */
const WAIT_MS = 10_000;

export function focusHeading(container: HTMLElement): boolean {
  const h1 = container.querySelector("h1");
  if (!h1) return false;
  if (isTypingTarget(document.activeElement)) return true;
  if (!h1.hasAttribute("tabindex")) h1.tabIndex = -1;
  h1.focus({ preventScroll: true });
  return true;
}

/** `place`: the route's hash; each new value is a navigation (the first one, the app's start). */
export function useFocusHeading(container: RefObject<HTMLElement | null>, place: string, enabled = true): void {
  useEffect(() => {
    const main = container.current;
    if (!main || !enabled) return;
    const arrive = () => {
      if (!main.querySelector("h1")) return false;
      // "New spec": the composer takes the focus when it answers the event.
      if (takeNewSpecRequest() && dispatchNewSpec()) return true;
      return focusHeading(main);
    };
    if (arrive()) return;
    const observer = new MutationObserver(() => {
      if (arrive()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const timer = window.setTimeout(() => observer.disconnect(), WAIT_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [container, place, enabled]);
}
