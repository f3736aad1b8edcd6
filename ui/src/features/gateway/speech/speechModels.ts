// Speech and music as the spec names them: speech models (a fast one whose id ends `-audio-mini`,
// a higher-quality one ending `-audio`), music models (ids containing `3-clip-preview` and
// `3-pro-preview`, which ignore the voice and answer MP3), the eight voices, and the formats.
import type { CatalogModel } from "../../../bindings/CatalogModel";
import type { MediaItem } from "../../../ipc/contract";
import { fileExtension } from "../shared/media";
import { settingsOf } from "../shared/settingsMemory";

export type AudioMode = "speech" | "music";

export const VOICES = ["alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse"] as const;

/** Formats a speech model answers: WAV (24 kHz mono, the default) or raw 16-bit samples. */
export const SPEECH_FORMATS = [
  { id: "wav", label: "WAV (24 kHz mono)" },
  { id: "pcm16", label: "PCM16 (raw samples)" },
] as const;

export function modeOf(modelId: string): AudioMode | null {
  if (modelId.includes("3-clip-preview") || modelId.includes("3-pro-preview")) return "music";
  if (modelId.endsWith("-audio-mini") || modelId.endsWith("-audio")) return "speech";
  return null;
}

/** "Speech · fast", "Speech · quality", "Music · clip", "Music · pro". */
export function modelKindLabel(modelId: string): string {
  if (modelId.includes("3-clip-preview")) return "Music · clip";
  if (modelId.includes("3-pro-preview")) return "Music · pro";
  if (modelId.endsWith("-audio-mini")) return "Speech · fast";
  if (modelId.endsWith("-audio")) return "Speech · quality";
  return "Audio";
}

/** The catalog's models of one mode, fast before quality and clip before pro. */
export function audioModels(models: CatalogModel[], mode: AudioMode): CatalogModel[] {
  const rank = (id: string) => (id.endsWith("-audio-mini") || id.includes("3-clip-preview") ? 0 : 1);
  return models.filter((m) => modeOf(m.id) === mode).sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

/** The format of a saved take, from what was asked or its file. */
export function takeFormat(item: MediaItem): string {
  const asked = settingsOf(item)?.format;
  if (typeof asked === "string") return asked;
  const ext = fileExtension(item.path);
  return ext === "pcm" ? "pcm16" : ext || "—";
}

/** The settings of a take shown in the history: kind, voice, format, instructions. */
export function takeFacts(item: MediaItem): { label: string; value: string }[] {
  const s = settingsOf(item) ?? {};
  const music = modeOf(item.model) === "music";
  return [
    { label: "Kind", value: modelKindLabel(item.model) },
    ...(!music && typeof s.voice === "string" ? [{ label: "Voice", value: s.voice }] : []),
    { label: "Format", value: takeFormat(item) },
    ...(typeof s.instructions === "string" && s.instructions ? [{ label: "Delivery", value: s.instructions }] : []),
  ];
}
