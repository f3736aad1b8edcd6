// Subscriptions to what the shell broadcasts (app events) and to the web view's own events (files
// dropped on the window). One hook each, typed by name; the handler is read through a ref, so a
// new handler never re-subscribes and no event falls in a gap between two subscriptions.
import { useEffect, useRef } from "react";
import { listen } from "@tauri-apps/api/event";
import { getCurrentWebview, type DragDropEvent } from "@tauri-apps/api/webview";
import type { AppEvents } from "./contract";

type Unlisten = () => void;

/**
 * Keeps `subscribe` attached while the component is shown (or `key` changes), handing each
 * payload to the latest `handler`. A subscription that resolves after the component went away is
 * undone at once; one that cannot be made (outside the app's web view) is skipped.
 */
export function useSubscription<T>(
  key: string,
  subscribe: (deliver: (payload: T) => void) => Promise<Unlisten>,
  handler: (payload: T) => void,
) {
  const latest = useRef(handler);
  const subscribeRef = useRef(subscribe);
  useEffect(() => {
    latest.current = handler;
    subscribeRef.current = subscribe;
  });
  useEffect(() => {
    let stop: Unlisten | undefined;
    let gone = false;
    const deliver = (payload: T) => {
      if (!gone) latest.current(payload);
    };
    try {
      subscribeRef
        .current(deliver)
        .then((unlisten) => {
          if (gone) unlisten();
          else stop = unlisten;
        })
        .catch(() => undefined);
    } catch {
      // Not inside the app's web view (unit tests, previews).
    }
    return () => {
      gone = true;
      stop?.();
    };
  }, [key]);
}

/** Calls `handler` with the payload of each `name` broadcast by the shell. */
export function useAppEvent<E extends keyof AppEvents>(name: E, handler: (payload: AppEvents[E]) => void) {
  useSubscription<AppEvents[E]>(name, (deliver) => listen<AppEvents[E]>(name, (e) => deliver(e.payload)), handler);
}

/**
 * Files dropped on the window while the component is shown (`key` names the subscription): each
 * drop's paths go to `onDrop` (Tauri's drag-drop event: paths, which Rust reads, not an HTML5
 * drop). `onDragging`, when given, hears whether files are dragged over the window (a highlight).
 */
export function useFileDrop(key: string, onDrop: (paths: string[]) => void, onDragging?: (dragging: boolean) => void): void {
  useSubscription<DragDropEvent>(
    key,
    (deliver) => getCurrentWebview().onDragDropEvent((event) => deliver(event.payload)),
    (p) => {
      if (p.type === "enter" || p.type === "over") onDragging?.(true);
      else if (p.type === "leave") onDragging?.(false);
      else if (p.type === "drop") {
        onDragging?.(false);
        if (p.paths.length) onDrop(p.paths);
      }
    },
  );
}
