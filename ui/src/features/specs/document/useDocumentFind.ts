// Find in a document as React state: Ctrl/Cmd+F opens it while the document is shown (the web
// views have no find bar of their own), the query searches as it is typed, Escape closes it
// and gives focus back to where it was.
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { DocumentFinder, NO_MATCHES, type FindStatus } from "./finder";

/** Typing pauses this long before a search (a 1 MB spec takes a few milliseconds per search). */
const SEARCH_DELAY_MS = 80;

function isMac(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** Whether a key press is the find shortcut: Cmd+F on macOS, Ctrl+F elsewhere. */
export function isFindShortcut(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">, mac = isMac()): boolean {
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  return mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "f";
}

export interface DocumentFind {
  open: boolean;
  query: string;
  status: FindStatus;
  /** Opens the bar (or focuses it again) and selects its text. */
  show: () => void;
  close: () => void;
  setQuery: (q: string) => void;
  next: () => void;
  previous: () => void;
}

/**
 * Find over the document in `rootRef`. `ready` is true once its HTML is in the DOM; `fallbackFocus`
 * takes focus on close when focus was nowhere in particular before the bar opened.
 */
export function useDocumentFind(
  rootRef: RefObject<HTMLElement | null>,
  ready: boolean,
  fallbackFocus: RefObject<HTMLElement | null>,
): { find: DocumentFind; inputRef: RefObject<HTMLInputElement | null> } {
  const [open, setOpen] = useState(false);
  const [query, setQueryState] = useState("");
  const [status, setStatus] = useState<FindStatus>(NO_MATCHES);
  const finderRef = useRef<DocumentFinder | null>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const queryRef = useRef("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // One finder while the bar is open over a rendered document.
  useEffect(() => {
    const root = rootRef.current;
    if (!open || !ready || !root) return;
    const finder = new DocumentFinder(root, setStatus);
    finderRef.current = finder;
    if (queryRef.current) finder.search(queryRef.current);
    return () => {
      clearTimeout(timer.current);
      finder.dispose();
      finderRef.current = null;
      setStatus(NO_MATCHES);
    };
  }, [open, ready, rootRef]);

  const show = useCallback(() => {
    const active = document.activeElement;
    if (active !== inputRef.current) returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null;
    setOpen(true);
    // The input exists once the bar is rendered: focus it on the next frame.
    requestAnimationFrame(() => {
      inputRef.current?.focus();
      inputRef.current?.select();
    });
  }, []);

  const close = useCallback(() => {
    setOpen(false);
    const back = returnFocus.current;
    returnFocus.current = null;
    const target = back && back.isConnected ? back : fallbackFocus.current;
    target?.focus();
  }, [fallbackFocus]);

  const setQuery = useCallback((q: string) => {
    setQueryState(q);
    queryRef.current = q;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => finderRef.current?.search(q), q.trim() ? SEARCH_DELAY_MS : 0);
  }, []);

  const next = useCallback(() => finderRef.current?.next(), []);
  const previous = useCallback(() => finderRef.current?.previous(), []);

  // Ctrl/Cmd+F while the document is shown: our find bar, not the web view's (it has none).
  useEffect(() => {
    if (!ready) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || !isFindShortcut(e)) return;
      // A dialog over the document keeps its keys.
      if (document.querySelector('[aria-modal="true"], dialog[open]')) return;
      e.preventDefault();
      show();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [ready, show]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return { find: { open, query, status, show, close, setQuery, next, previous }, inputRef };
}
