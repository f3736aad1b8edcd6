// A modal dialog of the shell (the command palette, the help sheet): a native <dialog> shown
// with showModal (the rest of the window inert, on top of everything), Tab and Shift+Tab kept
// inside, Escape closes, and the focus goes back where it was when it closes.
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  /** The id of the element naming the dialog (its heading). */
  labelledBy: string;
  /** The id of the element describing it, when there is one. */
  describedBy?: string;
  className?: string;
  onClose: () => void;
  /** What gets the focus when it opens (else the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
}

export function Modal({ labelledBy, describedBy, className, onClose, initialFocus, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const before = document.activeElement;
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", ""); // jsdom
    }
    const first = initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    // Closed by the engine itself (a close request it handled): the app's state follows.
    // (The event comes a task later: a dialog shown again since then is not closed.)
    const onNativeClose = () => {
      if (!dialog.open) close.current();
    };
    dialog.addEventListener("close", onNativeClose);
    return () => {
      dialog.removeEventListener("close", onNativeClose);
      if (dialog.open && typeof dialog.close === "function") dialog.close();
      // Back where the user was, if it is still there (a new screen takes it otherwise).
      if (before instanceof HTMLElement && before.isConnected && before !== document.body) before.focus({ preventScroll: true });
    };
  }, [initialFocus]);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== "Tab") return;
    const dialog = ref.current;
    if (!dialog) return;
    const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : at === items.length - 1 || at < 0 ? 0 : at + 1;
    e.preventDefault();
    items[next]?.focus();
  };

  return (
    <dialog
      ref={ref}
      className={`modal${className ? ` ${className}` : ""}`}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onMouseDown={(e) => {
        // A press on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {children}
    </dialog>
  );
}
