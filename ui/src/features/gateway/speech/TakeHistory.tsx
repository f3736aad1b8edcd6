// Every take of the library (speech and music), newest first, with its settings and cost: play
// it, put it in slot A or B for an A/B listen, show the file in its folder or delete it (Undo).
import { useId } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { MediaFacts } from "../shared/MediaFacts";
import type { AbState } from "./abState";
import { takeFacts } from "./speechModels";

export function TakeHistory({
  takes,
  current,
  ab,
  preferred,
  numbers,
  onPlay,
  onSlot,
  onReveal,
  onDelete,
  footer,
}: {
  takes: MediaItem[];
  current: number | null;
  ab: AbState;
  preferred: number[];
  /** Each take's number in the history ("Take 1": the connection's first; shared/media.ts). */
  numbers: ReadonlyMap<number, number>;
  onPlay: (item: MediaItem) => void;
  onSlot: (slot: "a" | "b", item: MediaItem) => void;
  onReveal: (item: MediaItem) => void;
  /** Deletes a take (with an Undo). */
  onDelete: (item: MediaItem, name: string) => void;
  /** Under the list: how many of how many (ListMore). */
  footer?: React.ReactNode;
}) {
  const id = useId();
  return (
    <section className="studio-section takes" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`} tabIndex={-1}>
          History of takes
        </h2>
        <span className="muted">Put two takes in A and B to compare them.</span>
      </div>
      {takes.length === 0 ? (
        <p className="empty">No takes yet. Each take is saved here with its settings and what it cost.</p>
      ) : (
        <ol className="take-list" aria-label="Takes">
          {takes.map((t) => {
            const slot = ab.a === t.id ? "A" : ab.b === t.id ? "B" : null;
            const n = numbers.get(t.id);
            return (
              <li key={t.id} className="take" data-current={current === t.id} aria-label={`Take ${n}`}>
                <div className="take-head">
                  <strong className="take-name">Take {n}</strong>
                  {slot && <span className="badge tone-badge" data-tone="info">In {slot}</span>}
                  {preferred.includes(t.id) && (
                    <span className="badge tone-badge" data-tone="success">
                      <span aria-hidden="true">★</span> Preferred
                    </span>
                  )}
                </div>
                <p className="prompt-text">{t.prompt}</p>
                <MediaFacts item={t} showPrompt={false} extra={takeFacts(t)} />
                <div className="studio-actions">
                  <button className="btn btn-small" type="button" onClick={() => onPlay(t)} aria-pressed={current === t.id}>
                    Listen<span className="visually-hidden"> to take {n}</span>
                  </button>
                  <button className="btn btn-small" type="button" onClick={() => onSlot("a", t)} aria-pressed={ab.a === t.id}>
                    Use as A<span className="visually-hidden"> (take {n})</span>
                  </button>
                  <button className="btn btn-small" type="button" onClick={() => onSlot("b", t)} aria-pressed={ab.b === t.id}>
                    Use as B<span className="visually-hidden"> (take {n})</span>
                  </button>
                  <button className="btn btn-small btn-ghost" type="button" onClick={() => onReveal(t)}>
                    Show in folder<span className="visually-hidden"> (take {n})</span>
                  </button>
                  <button className="btn btn-small btn-ghost" type="button" onClick={() => onDelete(t, `Take ${n}`)}>
                    Delete<span className="visually-hidden"> take {n}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {footer}
    </section>
  );
}
