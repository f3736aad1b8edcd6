// A/B of two takes: both players stay in step (one is heard at a time; swapping with the "S" key
// or the button carries on from the same moment in the other take), and either can be marked as
// the preferred one.
import { useEffect, useId, useRef } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { AudioPlayer } from "./AudioPlayer";
import { isSwapKey, syncedTime, type AbState, type Slot } from "./abState";

export function AbCompare({
  ab,
  a,
  b,
  preferred,
  numbers,
  onSwap,
  onActive,
  onPrefer,
  onClose,
}: {
  ab: AbState;
  a: MediaItem;
  b: MediaItem;
  preferred: number[];
  numbers: ReadonlyMap<number, number>;
  onSwap: () => void;
  onActive: (slot: Slot) => void;
  onPrefer: (item: MediaItem) => void;
  onClose: () => void;
}) {
  const id = useId();
  const players = useRef<Record<Slot, HTMLAudioElement | null>>({ a: null, b: null });
  const activeRef = useRef<Slot>(ab.active);
  useEffect(() => {
    activeRef.current = ab.active;
  }, [ab.active]);

  const swap = () => {
    const from = players.current[activeRef.current];
    const to = players.current[activeRef.current === "a" ? "b" : "a"];
    if (from && to) {
      const playing = !from.paused;
      to.currentTime = syncedTime(from.currentTime, to.duration);
      from.pause();
      if (playing) void to.play().catch(() => undefined);
    }
    onSwap();
  };
  const swapRef = useRef(swap);
  useEffect(() => {
    swapRef.current = swap;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isSwapKey(e)) return;
      e.preventDefault();
      swapRef.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const played = (slot: Slot) => {
    // One take is heard at a time: starting one pauses the other at the same moment.
    const other = players.current[slot === "a" ? "b" : "a"];
    const self = players.current[slot];
    if (other && self && !other.paused) {
      other.pause();
    }
    if (other && self) other.currentTime = syncedTime(self.currentTime, other.duration);
    if (slot !== activeRef.current) onActive(slot);
  };

  const side = (slot: Slot, item: MediaItem) => {
    const heard = ab.active === slot;
    const isPreferred = preferred.includes(item.id);
    return (
      <div className="ab-side" data-active={heard} aria-label={`Take ${slot.toUpperCase()}`} role="group">
        <div className="take-head">
          <strong>
            {slot.toUpperCase()} · Take {numbers.get(item.id)}
          </strong>
          {heard && <span className="badge tone-badge" data-tone="info">Heard</span>}
          {isPreferred && (
            <span className="badge tone-badge" data-tone="success">
              <span aria-hidden="true">★</span> Preferred
            </span>
          )}
        </div>
        <p className="prompt-text">{item.prompt}</p>
        <AudioPlayer
          item={item}
          label={`take ${slot.toUpperCase()}`}
          audioRef={(el) => {
            players.current[slot] = el;
          }}
          onPlay={() => played(slot)}
        />
        <button className="btn" type="button" aria-pressed={isPreferred} onClick={() => onPrefer(item)}>
          {isPreferred ? `${slot.toUpperCase()} is preferred` : `Prefer ${slot.toUpperCase()}`}
        </button>
      </div>
    );
  };

  return (
    <section className="card studio-section ab" aria-labelledby={`${id}-title`}>
      <div className="section-head">
        <h2 id={`${id}-title`}>A/B comparison</h2>
        <div className="studio-actions">
          <button className="btn btn-primary" type="button" onClick={swap} aria-keyshortcuts="S">
            Switch to {ab.active === "a" ? "B" : "A"} (S)
          </button>
          <button className="btn" type="button" onClick={onClose}>
            Close A/B
          </button>
        </div>
      </div>
      <p className="muted" aria-live="polite">
        Now hearing {ab.active.toUpperCase()}. Press S to switch at the same moment.
      </p>
      <div className="ab-grid">
        {side("a", a)}
        {side("b", b)}
      </div>
    </section>
  );
}
