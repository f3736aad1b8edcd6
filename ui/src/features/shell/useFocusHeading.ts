// After each navigation, the keyboard and screen-reader focus moves to the new screen's heading
// (its `h1`, made focusable with tabIndex=-1), as soon as it is rendered (a spec shows it once
// read). Never while the user is typing in a field: a screen that focuses a field of its own
// (the composer after "Edit and try again") keeps it, and so does a field the user clicked.
import { useEffect, type RefObject } from "react";
import { isTypingTarget } from "./shortcuts";
import { dispatchNewSpec, hasNewSpecRequest, takeNewSpecRequest } from "./newSpec";

/** How long a screen's heading is waited for. */
const WAIT_MS = 10_000;

/**
 * The screen's shown heading: an area whose code is loading leaves the previous screen in the
 * page, hidden, under its fallback (features/shell/areas.ts), and that heading does not count.
 */
export function shownHeading(container: HTMLElement): HTMLHeadingElement | null {
  // React hides it with an inline `display: none` on its outermost elements.
  for (const h1 of container.querySelectorAll("h1")) if (!h1.closest('[style*="display: none"]')) return h1;
  return null;
}

export function focusHeading(container: HTMLElement): boolean {
  const h1 = shownHeading(container);
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
      if (!shownHeading(main)) return false;
      // "New spec": the composer takes the focus, answering the event now or, when it has not
      // mounted yet, taking the request as it mounts.
      if (hasNewSpecRequest()) {
        if (dispatchNewSpec()) takeNewSpecRequest();
        return true;
      }
      return focusHeading(main);
    };
    if (arrive()) return;
    const observer = new MutationObserver(() => {
      if (arrive()) observer.disconnect();
    });
    // Attributes too: the hidden previous screen is shown again by a style change.
    observer.observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ["style"] });
    const timer = window.setTimeout(() => observer.disconnect(), WAIT_MS);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [container, place, enabled]);
}
