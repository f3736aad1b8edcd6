// "New spec" from anywhere (the command palette): the Specs area opens and its composer is asked
// to focus its first field through a window event, so the shell never reaches into the screen.
//
// The composer's side (features/specs, not here): listen to NEW_SPEC_EVENT on the window, focus
// the first field and call `event.preventDefault()` to say it did. Unanswered, the Specs heading
// gets the focus as after any navigation.
import type { NavTarget } from "../../lib/nav";

export const NEW_SPEC_EVENT = "specdesk:new-spec";

let pending = false;

/** Sends the event now; true when a listener took the focus (it called preventDefault). */
export function dispatchNewSpec(): boolean {
  const event = new CustomEvent(NEW_SPEC_EVENT, { cancelable: true });
  return !window.dispatchEvent(event);
}

/**
 * Opens the Specs area for a new spec. `onSpecsList`: the list is already shown (no navigation
 * happens, so the event is sent at once); else it is sent once the area is shown
 * (`takeNewSpecRequest`, called by the focus-on-navigation effect).
 */
export function requestNewSpec(navigate: (to: NavTarget) => void, onSpecsList: boolean): boolean {
  if (onSpecsList) return dispatchNewSpec();
  pending = true;
  navigate({ area: "specs" });
  return false;
}

/** Whether a "New spec" waits for the Specs area (without taking it). */
export function hasNewSpecRequest(): boolean {
  return pending;
}

/** True (once) when a "New spec" waits for the Specs area to be shown. */
export function takeNewSpecRequest(): boolean {
  const was = pending;
  pending = false;
  return was;
}
