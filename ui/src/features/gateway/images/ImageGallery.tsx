// Every image of the library, newest first, searchable by prompt: each with its prompt, model,
// size, cost and date; opened full size, picked for a side-by-side comparison, or sent back to
// the form to try the same prompt on another model.
import { useId, useState } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { plural } from "../../../lib/format";
import { MediaFacts } from "../shared/MediaFacts";
import { settingsOf } from "../shared/settingsMemory";
import { MediaImage } from "./MediaImage";
import { GalleryGrid } from "./GalleryGrid";

/** The image's size as Rust read it, else the size it was asked for, else the size it loaded at. */
export function sizeText(item: MediaItem, loaded?: string): string {
  if (item.width && item.height) return `${item.width} × ${item.height}`;
  const asked = settingsOf(item)?.size;
  const size = typeof asked === "string" ? asked : loaded;
  return size ? size.replace("x", " × ") : "—";
}

function GalleryCard({
  item,
  position,
  size,
  selected,
  onOpen,
  onToggle,
  onSamePrompt,
}: {
  item: MediaItem;
  /** Its place in the list (from 1) and the list's length: the grid renders a few rows only. */
  position: number;
  size: number;
  selected: boolean;
  onOpen: (opener: HTMLElement) => void;
  onToggle: () => void;
  onSamePrompt: () => void;
}) {
  const [loaded, setLoaded] = useState<string>();
  const id = useId();
  return (
    <div className="gallery-card" role="listitem" aria-posinset={position} aria-setsize={size} data-selected={selected}>
      <button className="gallery-thumb" type="button" data-media-id={item.id} aria-describedby={`${id}-prompt`} onClick={(e) => onOpen(e.currentTarget)}>
        <MediaImage item={item} alt={`Open image ${item.id}`} thumb onSize={setLoaded} />
      </button>
      <p className="prompt-text gallery-prompt" id={`${id}-prompt`}>
        {item.prompt}
      </p>
      <MediaFacts item={item} showPrompt={false} extra={[{ label: "Size", value: sizeText(item, loaded) }]} />
      <div className="gallery-card-actions">
        <label className="check">
          <input type="checkbox" checked={selected} onChange={onToggle} />
          Compare<span className="visually-hidden"> image {item.id}</span>
        </label>
        <button className="btn btn-ghost btn-small" type="button" onClick={onSamePrompt}>
          Same prompt on another model
        </button>
      </div>
    </div>
  );
}

export function ImageGallery({
  total,
  items,
  query,
  onQuery,
  selected,
  onToggle,
  onOpen,
  onSamePrompt,
  onCompare,
  onClearSelection,
  open,
  more,
  onMore,
}: {
  /** Images in the library (before the search). */
  total: number;
  /** Images matching the search. */
  items: MediaItem[];
  query: string;
  onQuery: (q: string) => void;
  selected: number[];
  onToggle: (id: number) => void;
  onOpen: (index: number, opener: HTMLElement) => void;
  onSamePrompt: (item: MediaItem) => void;
  onCompare: () => void;
  onClearSelection: () => void;
  /** The image open in the viewer (its index in `items`). */
  open?: number;
  /** Some images are not read yet: `onMore` reads the next page (as the grid nears its end). */
  more: boolean;
  onMore: () => void;
}) {
  const id = useId();
  const comparable = selected.length === 2 || selected.length === 4;
  return (
    <section className="studio-section gallery" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`}>Gallery</h2>
        <span className="muted" aria-live="polite">
          {query.trim() ? `${plural(items.length, "image")} of ${total} match` : plural(total, "image")}
        </span>
      </div>
      <div className="row gallery-tools">
        <div className="field grow">
          <label htmlFor={`${id}-search`}>Search by prompt</label>
          <input id={`${id}-search`} className="input" type="search" value={query} onChange={(e) => onQuery(e.target.value)} placeholder="lighthouse watercolour" />
        </div>
        <div className="compare-bar" role="group" aria-label="Compare images">
          <span className="muted">{selected.length === 0 ? "Pick 2 or 4 images to compare" : `${selected.length} picked`}</span>
          <button className="btn" type="button" disabled={!comparable} onClick={onCompare}>
            Compare side by side
          </button>
          {selected.length > 0 && (
            <button className="btn btn-ghost" type="button" onClick={onClearSelection}>
              Clear
            </button>
          )}
        </div>
      </div>
      {total === 0 ? (
        <p className="empty">No images yet. Generated images are saved here with their prompt, model and cost.</p>
      ) : items.length === 0 ? (
        <p className="empty">No image prompt contains “{query.trim()}”.</p>
      ) : (
        <GalleryGrid
          count={items.length}
          keyOf={(i) => items[i]?.id ?? i}
          keep={open}
          more={more}
          onMore={onMore}
          renderCard={(i) => {
            const item = items[i];
            return item ? (
              <GalleryCard
                key={item.id}
                item={item}
                position={i + 1}
                size={items.length}
                selected={selected.includes(item.id)}
                onOpen={(opener) => onOpen(i, opener)}
                onToggle={() => onToggle(item.id)}
                onSamePrompt={() => onSamePrompt(item)}
              />
            ) : null;
          }}
        />
      )}
    </section>
  );
}
