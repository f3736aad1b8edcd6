// A transcript's exports: plain text, and SubRip (.srt) when the answer gives timings. The
// service's answer is documented with `text` only; timed segments (`segments[]` of `start`,
// `end`, `text` in seconds, the common verbose shape) are used when they are there.
import type { Transcription } from "../../../ipc/contract";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { slugify } from "../../../lib/format";

export interface Segment {
  start: number;
  end: number;
  text: string;
}

/** The timed segments of an answer, or [] when it has none (or any is malformed). */
export function segmentsOf(t: Transcription): Segment[] {
  const raw = (t as { segments?: unknown }).segments;
  if (!Array.isArray(raw)) return [];
  const out: Segment[] = [];
  for (const s of raw) {
    if (!s || typeof s !== "object") return [];
    const { start, end, text } = s as Record<string, unknown>;
    if (typeof start !== "number" || typeof end !== "number" || typeof text !== "string" || end < start || start < 0) return [];
    out.push({ start, end, text });
  }
  return out;
}

/** "00:01:02,345". */
export function srtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const rest = ms % 1000;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(h)}:${two(m)}:${two(s)},${String(rest).padStart(3, "0")}`;
}

/** SubRip: numbered cues, blank line between, CRLF-free, ending with a newline. */
export function toSrt(segments: Segment[]): string {
  return segments
    .filter((s) => s.text.trim())
    .map((s, i) => `${i + 1}\n${srtTime(s.start)} --> ${srtTime(s.end)}\n${s.text.trim()}\n`)
    .join("\n");
}

/** "standup-notes-transcript.txt" from the audio's file name. */
export function transcriptFileName(source: string, ext: "txt" | "srt"): string {
  const base = (source.split(/[\\/]/).pop() ?? source).replace(/\.[^.]+$/, "");
  return `${slugify(base, "audio")}-transcript.${ext}`;
}

/** Models that turn audio into text: ids naming transcription, or audio in and text out only. */
export function transcriptionModels(models: CatalogModel[]): CatalogModel[] {
  return models.filter(
    (m) => m.id.includes("transcribe") || (m.input.includes("audio") && m.output.includes("text") && !m.output.includes("audio")),
  );
}
