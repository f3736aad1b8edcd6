// The app-wide keys and mouse buttons: Ctrl/Cmd+K (the command palette), ? (the help sheet, when
// not typing), Alt+Left / Alt+Right and the mouse's back / forward buttons (history).
import { useEffect, useRef } from "react";

/** macOS shows ⌘ and ⌥ where the others show Ctrl and Alt. */
export function isMac(): boolean {
  const nav = typeof navigator === "undefined" ? undefined : navigator;
  return !!nav && /Mac|iPhone|iPad/.test(nav.platform || nav.userAgent);
}

const TEXT_INPUTS = new Set(["text", "search", "email", "url", "password", "number", "tel", "date", "datetime-local", "month", "time", "week"]);

/** True when keys typed in `el` are text for it (a text field, a text area, an editable region). */
export function isTypingTarget(el: Element | EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement) return TEXT_INPUTS.has(el.type);
  if (el.isContentEditable) return true;
  const role = el.getAttribute("role");
  return role === "textbox" || role === "combobox" || role === "searchbox";
}

export type ShortcutAction = "palette" | "help" | "back" | "forward";

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
}

/** What a key press asks of the app, if anything (`typing`: it was pressed in a text field). */
export function shortcutOf(e: KeyLike, typing: boolean, mac = isMac()): ShortcutAction | null {
  if (e.isComposing) return null;
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (mod && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") return "palette";
  if (e.key === "?" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) return "help";
  // On macOS, Option+Left/Right moves by word in a text field: it stays the field's.
  if (e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && !(mac && typing)) {
    if (e.key === "ArrowLeft") return "back";
    if (e.key === "ArrowRight") return "forward";
  }
  return null;
}

/** The mouse's back (3) and forward (4) buttons. */
export function mouseHistoryOf(button: number): "back" | "forward" | null {
  return button === 3 ? "back" : button === 4 ? "forward" : null;
}

export interface ShortcutHandlers {
  openPalette: () => void;
  openHelp: () => void;
  /** While a dialog is open, only Ctrl/Cmd+K is the app's (the dialog keeps the other keys). */
  dialogOpen: boolean;
}

/** Listens on the window for the app's shortcuts while mounted. */
export function useGlobalShortcuts(handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const action = shortcutOf(e, isTypingTarget(e.target));
      if (!action) return;
      const h = latest.current;
      if (action !== "palette" && h.dialogOpen) return;
      e.preventDefault();
      if (action === "palette") h.openPalette();
      else if (action === "help") h.openHelp();
      else if (action === "back") window.history.back();
      else window.history.forward();
    };
    // The engine may go back on its own at mouseup: cancelled there, done once here.
    const onMouse = (e: MouseEvent) => {
      const action = mouseHistoryOf(e.button);
      if (!action) return;
      e.preventDefault();
      if (e.type !== "mouseup" || latest.current.dialogOpen) return;
      if (action === "back") window.history.back();
      else window.history.forward();
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("mousedown", onMouse);
    window.addEventListener("mouseup", onMouse);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("mousedown", onMouse);
      window.removeEventListener("mouseup", onMouse);
    };
  }, []);
}
