// A take's player: the audio element, and a waveform drawn on a canvas from the decoded audio
// (the file fetched through the asset protocol and decoded with Web Audio; raw PCM16 read as
// samples). Where the audio cannot be fetched or decoded, it says so and still offers the player.
import { useEffect, useRef, useState } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { fileExtension, mediaSrc } from "../shared/media";
import { fetchMedia, mediaType } from "../shared/playable";
import { computePeaks, pcm16ToFloat, PCM_RATE, wavFromPcm16 } from "./waveform";

const BARS = 160;

interface Decoded {
  status: "loading" | "ready" | "failed";
  peaks: number[];
  /** What the audio element plays (a WAV made from raw PCM16, else the file itself). */
  playUrl: string | null;
  why?: string;
}

type AudioContextClass = typeof AudioContext;

async function decode(path: string): Promise<Decoded> {
  if (!mediaSrc(path)) return { status: "failed", peaks: [], playUrl: null, why: "This file cannot be opened in this window." };
  const pcm = fileExtension(path) === "pcm";
  // Played from its bytes (see ../shared/playable.ts), made before decoding detaches them.
  let playUrl: string | null = null;
  try {
    const bytes = await fetchMedia(path);
    if (!pcm) playUrl = URL.createObjectURL(new Blob([bytes], { type: mediaType(path) }));
    if (pcm) {
      const url = URL.createObjectURL(new Blob([wavFromPcm16(bytes, PCM_RATE)], { type: "audio/wav" }));
      return { status: "ready", peaks: computePeaks(pcm16ToFloat(bytes), BARS), playUrl: url };
    }
    const Ctx = (window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext) as
      | AudioContextClass
      | undefined;
    if (!Ctx) throw new Error("no Web Audio");
    const ctx = new Ctx();
    try {
      const buffer = await ctx.decodeAudioData(bytes);
      return { status: "ready", peaks: computePeaks(buffer.getChannelData(0), BARS), playUrl };
    } finally {
      void ctx.close();
    }
  } catch {
    return {
      status: "failed",
      peaks: [],
      playUrl,
      why: pcm
        ? "This raw PCM take could not be read, so it can neither be drawn nor played here."
        : "This audio could not be decoded, so its waveform cannot be drawn. It may still play.",
    };
  }
}

function draw(canvas: HTMLCanvasElement, peaks: number[], played: number) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || 72;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const style = getComputedStyle(canvas);
  const done = style.getPropertyValue("--accent").trim() || "#4338ca";
  const rest = style.getPropertyValue("--text-muted").trim() || "#555a70";
  const step = width / Math.max(1, peaks.length);
  const bar = Math.max(1, step * 0.6);
  peaks.forEach((p, i) => {
    const h = Math.max(2, p * (height - 4));
    ctx.fillStyle = (i + 0.5) / peaks.length <= played ? done : rest;
    ctx.fillRect(i * step + (step - bar) / 2, (height - h) / 2, bar, h);
  });
}

export function AudioPlayer({
  item,
  label,
  audioRef,
  onPlay,
}: {
  item: MediaItem;
  /** Names the player and its waveform ("Take 12", "Take A"). */
  label: string;
  audioRef?: (el: HTMLAudioElement | null) => void;
  onPlay?: () => void;
}) {
  const [decoded, setDecoded] = useState<Decoded>({ status: "loading", peaks: [], playUrl: null });
  const [played, setPlayed] = useState(0);
  const canvas = useRef<HTMLCanvasElement>(null);
  const audio = useRef<HTMLAudioElement | null>(null);

  useEffect(() => {
    let gone = false;
    let made: string | null = null;
    void decode(item.path).then((d) => {
      if (d.playUrl?.startsWith("blob:")) made = d.playUrl;
      if (gone) {
        if (made) URL.revokeObjectURL(made);
        return;
      }
      setDecoded(d);
    });
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [item.path]);

  useEffect(() => {
    if (canvas.current && decoded.peaks.length > 0) draw(canvas.current, decoded.peaks, played);
  }, [decoded.peaks, played]);

  const seek = (clientX: number) => {
    const el = audio.current;
    const box = canvas.current?.getBoundingClientRect();
    if (!el || !box || !Number.isFinite(el.duration) || box.width === 0) return;
    el.currentTime = Math.min(1, Math.max(0, (clientX - box.left) / box.width)) * el.duration;
  };

  return (
    <div className="audio-player">
      {decoded.status === "ready" ? (
        <canvas
          ref={canvas}
          className="waveform"
          role="img"
          aria-label={`Waveform of ${label}`}
          data-bars={decoded.peaks.length}
          onClick={(e) => seek(e.clientX)}
        />
      ) : decoded.status === "loading" ? (
        <p className="waveform-note muted">Drawing the waveform…</p>
      ) : (
        <p className="waveform-note" role="status">
          {decoded.why}
        </p>
      )}
      {decoded.playUrl && (
        <audio
          ref={(el) => {
            audio.current = el;
            audioRef?.(el);
          }}
          className="audio-element"
          controls
          preload="metadata"
          src={decoded.playUrl}
          aria-label={`Player of ${label}`}
          onPlay={onPlay}
          onTimeUpdate={(e) => {
            const el = e.currentTarget;
            setPlayed(Number.isFinite(el.duration) && el.duration > 0 ? el.currentTime / el.duration : 0);
          }}
        />
      )}
    </div>
  );
}
