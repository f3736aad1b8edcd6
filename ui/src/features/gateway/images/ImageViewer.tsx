// One image full size in a modal dialog: Left and Right go through the gallery (as searched),
// Escape closes and focus goes back to where it was; show the file in its folder, try the prompt
// on another model, or delete it.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { MediaFacts } from "../shared/MediaFacts";
import { MediaImage } from "./MediaImage";
import { sizeText } from "./ImageGallery";
import { SaveCopyButton } from "../shared/SaveCopyButton";

export function ImageViewer({
  items,
  index,
  onIndex,
  onClose,
  onReveal,
  onSamePrompt,
  onDelete,
}: {
  items: MediaItem[];
  index: number;
  onIndex: (i: number) => void;
  onClose: () => void;
  onReveal: (item: MediaItem) => void;
  onSamePrompt: (item: MediaItem) => void;
  onDelete: (item: MediaItem) => void;
}) {
  const id = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<Record<number, string>>({});
  const item = items[index];
  useEffect(() => {
    dialog.current?.focus();
  }, []);
  if (!item) return null;
  const go = (delta: number) => {
    if (items.length === 0) return;
    onIndex((index + delta + items.length) % items.length);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      onClose();
    } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const el = e.target as HTMLElement;
      if (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA") return;
      e.preventDefault();
      go(e.key === "ArrowLeft" ? -1 : 1);
    } else if (e.key === "Tab") {
      // Focus stays inside the dialog while it is open.
      const focusable = dialog.current?.querySelectorAll<HTMLElement>("button:not(:disabled)");
      if (!focusable || focusable.length === 0) return;
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (e.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
        e.preventDefault();
        last?.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first?.focus();
      }
    }
  };
  return (
    <div className="viewer-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialog}
        className="viewer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-keys`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="viewer-head">
          <h2 id={`${id}-title`}>
            Image {index + 1} of {items.length}
          </h2>
          <p id={`${id}-keys`} className="muted viewer-keys">
            Left and Right arrows: previous and next. Escape: close.
          </p>
          <button className="btn" type="button" onClick={onClose}>
            Close
          </button>
        </div>
        <div className="viewer-body">
          <div className="viewer-image">
            <MediaImage key={item.id} item={item} alt={item.prompt} onSize={(s) => setLoaded((m) => ({ ...m, [item.id]: s }))} />
          </div>
          <div className="viewer-side">
            <MediaFacts item={item} extra={[{ label: "Size", value: sizeText(item, loaded[item.id]) }]} />
            <div className="studio-actions">
              <button className="btn" type="button" onClick={() => go(-1)} disabled={items.length < 2}>
                Previous
              </button>
              <button className="btn" type="button" onClick={() => go(1)} disabled={items.length < 2}>
                Next
              </button>
            </div>
            <div className="studio-actions">
              <SaveCopyButton id={item.id} />
              <button className="btn" type="button" onClick={() => onReveal(item)}>
                Show in folder
              </button>
              <button className="btn" type="button" onClick={() => onSamePrompt(item)}>
                Same prompt on another model
              </button>
              {/* Deleted at once: the notice that says so has Undo. */}
              <button className="btn btn-ghost btn-danger" type="button" onClick={() => onDelete(item)}>
                Delete
              </button>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
