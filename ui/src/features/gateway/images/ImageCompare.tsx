// Two or four images side by side, each with its prompt, model and cost.
import { useEffect, useId, useRef } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { MediaFacts } from "../shared/MediaFacts";
import { MediaImage } from "./MediaImage";

export function ImageCompare({ items, onClose }: { items: MediaItem[]; onClose: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section className="studio-section compare card" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Comparing {items.length} images
        </h2>
        <button className="btn" type="button" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <ul className="compare-grid" data-count={items.length} aria-label="Compared images">
        {items.map((item, i) => (
          <li key={item.id} className="compare-cell">
            <MediaImage item={item} alt={`Compared image ${i + 1}: ${item.prompt}`} />
            <MediaFacts item={item} />
          </li>
        ))}
      </ul>
    </section>
  );
}
