// Scenarios of the Gateway's media studios (images, speech and music, transcription, video):
// priced image, video, speech, music and transcription models; a library with images, takes and
// a finished video; saved files shown through a stand-in for the asset protocol (SVG images, a
// real WAV tone so the waveform is decoded, an undecodable MP3 and MP4); each call's ledger line
// with a request id; a transcription with timings; a video job held until the test releases
// "video-done"; a connection out of credits; and a transcription studio whose file dialog, takes
// and key fail, with a failed and a held video job. Open one with ?scenario=<name>.
import type { CallCharge } from "../../bindings/CallCharge";
import type { CatalogModel } from "../../bindings/CatalogModel";
import type { CatalogView } from "../../bindings/CatalogView";
import type { Job, MediaItem, ModelList } from "../../ipc/contract";
import { baseHandlers } from "../base";
import { model } from "../fixtures";
import { catalogView, charge, completeJob, findJob, requireKey, touch } from "../helpers";
import { defineScenario, ipcError, type MockContext } from "../registry";
import { MISSING_KEY, SANDBOX_ID, clone, type MockDb } from "../state";

export const IMAGE_MODELS_PRICED: CatalogModel[] = [
  model("openai/gpt-image-1", "image", ["text"], ["image"], { svc: { credits_per_image: 0.4 } }),
  model("google/imagen-4", "image", ["text"], ["image"], { svc: { credits_per_image: 0.6 } }),
  model("black-forest-labs/flux-pro", "image", ["text"], ["image"], { svc: { credits_per_image: 0.5 } }),
];
export const VIDEO_MODELS_PRICED: CatalogModel[] = [
  model("google/veo-3-fast", "video", ["text"], ["video"], { svc: { credits_per_second: 1.5 } }),
  model("openai/sora-2", "video", ["text"], ["video"], { svc: { credits_per_second: 2 } }),
];
export const AUDIO_MODELS: CatalogModel[] = [
  model("openai/speech-audio-mini", "audio", ["text"], ["audio"], { svc: { credits_per_1k_chars: 0.15 } as CatalogModel["svc"] }),
  model("openai/speech-audio", "audio", ["text"], ["audio"], { svc: { credits_per_1k_chars: 0.6 } as CatalogModel["svc"] }),
  model("google/lyria-3-clip-preview", "audio", ["text"], ["audio"], { svc: { credits_per_clip: 0.4 } as CatalogModel["svc"] }),
  model("google/lyria-3-pro-preview", "audio", ["text"], ["audio"], { svc: { credits_per_clip: 1.2 } as CatalogModel["svc"] }),
  model("openai/gpt-4o-transcribe", "text", ["audio"], ["text"], { svc: { credits_per_minute: 0.06 } as CatalogModel["svc"] }),
  model("openai/gpt-4o-mini-transcribe", "text", ["audio"], ["text"], { svc: { credits_per_minute: 0.03 } as CatalogModel["svc"] }),
];

export const TRANSCRIPT = "Welcome to the weekly update. Three features shipped. Next week: the billing page.";
export const SEGMENTS = [
  { start: 0, end: 2.4, text: "Welcome to the weekly update." },
  { start: 2.4, end: 4.1, text: "Three features shipped." },
  { start: 4.1, end: 65.25, text: "Next week: the billing page." },
];
const MEDIA_DIR = "/home/user/.local/share/dev.specdesk.app/media";

// ---- A stand-in for the asset protocol (the mock has no shell to serve files) ----

function toneWav(): string {
  const rate = 8000;
  const n = rate; // one second
  const bytes = new Uint8Array(44 + n * 2);
  const v = new DataView(bytes.buffer);
  const text = (at: number, s: string) => [...s].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF");
  v.setUint32(4, 36 + n * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  text(36, "data");
  v.setUint32(40, n * 2, true);
  for (let i = 0; i < n; i += 1) {
    // Three words: tones that swell and fade, so the waveform has a shape.
    const envelope = Math.abs(Math.sin((Math.PI * 3 * i) / n));
    v.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * envelope * 20000), true);
  }
  let bin = "";
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return `data:audio/wav;base64,${btoa(bin)}`;
}

function imageSvg(path: string): string {
  const hue = [...path].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  const name = path.split("/").pop() ?? path;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024"><rect width="1024" height="1024" fill="hsl(${hue} 60% 55%)"/><circle cx="512" cy="480" r="260" fill="hsl(${(hue + 120) % 360} 70% 70%)"/><text x="512" y="900" font-size="64" text-anchor="middle" fill="#fff">${name}</text></svg>`;
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

let wav: string | null = null;

/** What `convertFileSrc` gives in these scenarios: data addresses standing for the saved files. */
export function installAssetStandIn(): void {
  const w = window as unknown as { __TAURI_INTERNALS__?: Record<string, unknown> };
  w.__TAURI_INTERNALS__ = w.__TAURI_INTERNALS__ ?? {};
  w.__TAURI_INTERNALS__.convertFileSrc = (path: string) => {
    const ext = path.split(".").pop()?.toLowerCase() ?? "";
    if (ext === "png" || ext === "jpg" || ext === "webp") return imageSvg(path);
    if (ext === "wav") return (wav ??= toneWav());
    if (ext === "mp3") return "data:audio/mpeg;base64,AAAA";
    return "data:video/mp4;base64,AAAA";
  };
}

// ---- The library ----

function item(id: number, kind: MediaItem["kind"], ext: string, prompt: string, modelId: string, credits: number | undefined, at: string, jobId?: number): MediaItem {
  return {
    id,
    kind,
    path: `${MEDIA_DIR}/${kind}-${id}.${ext}`,
    prompt,
    model: modelId,
    profileId: SANDBOX_ID,
    ...(credits !== undefined ? { credits } : {}),
    ...(jobId !== undefined ? { jobId } : {}),
    createdAt: at,
  };
}

export const LIBRARY_IMAGES = [
  item(21, "image", "png", "A lighthouse at dusk, watercolour", "google/imagen-4", 0.6, "2026-11-21T16:00:00.000Z"),
  item(20, "image", "png", "A lighthouse at dawn, oil painting", "openai/gpt-image-1", 0.4, "2026-11-21T15:00:00.000Z"),
  item(19, "image", "png", "Logo for a bakery: a croissant and a sun", "black-forest-labs/flux-pro", 1, "2026-11-21T14:00:00.000Z"),
  item(18, "image", "png", "Logo for a bakery: a croissant and a sun", "black-forest-labs/flux-pro", undefined, "2026-11-21T14:00:00.000Z"),
];
export const LIBRARY_TAKES = [
  item(31, "audio", "wav", "Welcome to the weekly update.", "openai/speech-audio", 0.05, "2026-11-21T17:00:00.000Z"),
  item(30, "audio", "wav", "Welcome to the weekly update.", "openai/speech-audio-mini", 0.02, "2026-11-21T16:30:00.000Z"),
  item(29, "audio", "mp3", "Calm lo-fi piano, rainy evening", "google/lyria-3-clip-preview", 0.4, "2026-11-21T16:10:00.000Z"),
];

function videoJob(db: MockDb, id: number, status: Job["status"], prompt: string, extra: Partial<Job> = {}): Job {
  return {
    id,
    kind: "video",
    profileId: SANDBOX_ID,
    request: { model: "google/veo-3-fast", prompt, seconds: "4" },
    remoteId: `video_${id}`,
    status,
    result: null,
    createdAt: new Date(db.clock - 90_000).toISOString(),
    updatedAt: new Date(db.clock - 30_000).toISOString(),
    ...extra,
  };
}

function setupLibrary(db: MockDb): void {
  installAssetStandIn();
  db.media = [...LIBRARY_TAKES, ...LIBRARY_IMAGES, item(40, "video", "mp4", "A paper boat on a rainy street", "google/veo-3-fast", 6, "2026-11-21T13:00:00.000Z", 41), ...db.media];
  db.jobs = [
    // Followed by the runner since before the app restarted.
    videoJob(db, 42, "running", "Clouds over a mountain lake, time-lapse", { progress: "Rendering (40%)" }),
    videoJob(db, 41, "completed", "A paper boat on a rainy street", {
      progress: "Done",
      result: { videoId: "video_41", mediaId: 40, path: `${MEDIA_DIR}/video-40.mp4`, credits: 6, cost: 0.6 },
    }),
    ...db.jobs,
  ];
}

let requests = 0;
/** Gives the call just charged (the newest ledger line) a request id; `charge` with it. */
function withRequestId(db: MockDb, charge: CallCharge | null = null): CallCharge {
  requests += 1;
  const requestId = `req_${(0xa1b2c3 + requests).toString(16)}`;
  const line = db.ledger[0];
  if (line) line.requestId = requestId;
  return { ...charge, requestId };
}

function finishVideo(ctx: MockContext, jobId: number): void {
  const job = findJob(ctx.db, jobId);
  if (job.status !== "submitted" && job.status !== "running") return;
  completeJob(ctx.db, ctx, job);
  withRequestId(ctx.db);
  const saved = ctx.db.media.find((m) => m.jobId === job.id);
  job.progress = "Done";
  // As Rust's video follower writes it: the charging poll's request id and the balance after it.
  const charged = ctx.db.ledger[0];
  job.result = { videoId: job.remoteId, mediaId: saved?.id, path: saved?.path, credits: 6, cost: 0.6, requestId: charged?.requestId, balanceAfter: charged?.creditsRemaining };
  touch(ctx.db, ctx, job);
}

defineScenario(
  "gateway-media",
  {
    image_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(IMAGE_MODELS_PRICED) }),
    video_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(VIDEO_MODELS_PRICED) }),
    gateway_models: (a, ctx) => {
      const base = (baseHandlers.gateway_models(a, ctx) as CatalogView<ModelList>).list;
      return catalogView(ctx.db, { object: "list", data: [...base.data.filter((m) => !m.id.includes("transcribe")), ...clone(AUDIO_MODELS)] });
    },
    generate_images: async (a, ctx) => {
      const out = await baseHandlers.generate_images(a, ctx);
      return { ...out, charge: withRequestId(ctx.db, out.charge) };
    },
    speech: async (a, ctx) => {
      const { value: made, charge: charged } = await baseHandlers.speech(a, ctx);
      const music = a.request.model.includes("-preview");
      const ext = music ? "mp3" : a.request.response_format === "pcm16" ? "pcm" : "wav";
      const saved = ctx.db.media.find((m) => m.id === made.id);
      if (saved) saved.path = saved.path.replace(/\.wav$/, `.${ext}`);
      return { value: clone(saved ?? made), charge: withRequestId(ctx.db, charged) };
    },
    transcribe: ({ path, model }, ctx) => {
      requireKey(ctx.db);
      const charged = charge(ctx.db, ctx, "v1/audio/transcriptions", 0.07, model);
      const value = { text: path.endsWith(".mp3") ? "" : TRANSCRIPT, usage: { cost: 0.007 }, segments: SEGMENTS } as never;
      return { value, charge: withRequestId(ctx.db, charged) };
    },
    submit_video: async (a, ctx) => {
      const job = await baseHandlers.submit_video(a, ctx);
      const live = findJob(ctx.db, job.id);
      setTimeout(() => {
        live.status = "running";
        live.progress = "Rendering (20%)";
        touch(ctx.db, ctx, live);
      }, 0);
      void ctx.gate("video-done").then(() => finishVideo(ctx, job.id));
      return job;
    },
  },
  {
    description: "Media studios: priced models, a library of images, takes and videos, a video job held until released.",
    setup: (db) => {
      setupLibrary(db);
      db.dialog.open = "/home/user/Recordings/standup-notes.m4a";
    },
  },
);

/** More images than a page of the gallery holds (MEDIA_PAGE is 500): 520 over the library's own. */
export const MANY_IMAGES = 520;

defineScenario(
  "gateway-media-many",
  {
    image_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(IMAGE_MODELS_PRICED) }),
    video_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(VIDEO_MODELS_PRICED) }),
    gateway_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(AUDIO_MODELS) }),
  },
  {
    description: "The media library of gateway-media with 520 more images, for the gallery's pages.",
    setup: (db) => {
      setupLibrary(db);
      const many = Array.from({ length: MANY_IMAGES }, (_, k) =>
        item(1000 + MANY_IMAGES - k, "image", "png", `A harbour study number ${MANY_IMAGES - k}`, "openai/gpt-image-1", 0.4, "2026-11-22T10:00:00.000Z"),
      );
      db.media = [...many, ...db.media];
    },
  },
);

const BROKE = ipcError("insufficientCredits", "You have run out of credits. Top up to keep generating.", {
  status: 402,
  action: { label: "Top up", url: "https://example.com/topup" },
});

defineScenario(
  "gateway-media-broke",
  {
    image_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(IMAGE_MODELS_PRICED) }),
    video_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(VIDEO_MODELS_PRICED) }),
    gateway_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(AUDIO_MODELS) }),
    generate_images: () => {
      throw BROKE;
    },
    speech: () => {
      throw BROKE;
    },
    submit_video: () => {
      throw BROKE;
    },
  },
  {
    description: "Media studios on a connection with no credits left: every call is refused with Top up.",
    setup: (db) => {
      setupLibrary(db);
      db.credits[SANDBOX_ID] = 0;
    },
  },
);

/** What choose_file refuses for a file not on this computer (src-tauri `local_path`). */
export const NOT_LOCAL = "That file is not on this computer. Copy it to a folder here and choose it again.";
export const TAKES_UNREADABLE = "The media library on this computer could not be read. Try again in a moment.";
/** Gate the test releases when the takes can be listed again (scenario "gateway-media-faults"). */
export const TAKES_BACK = "takes-back";

/** Why video job 44 of "gateway-media-faults" failed (job 43 is held: no API key). */
export const VIDEO_FAILED = ipcError("server", "The video service stopped rendering this video before it was done.", { status: 500 });

// Per page: the first file picked is refused; the takes cannot be listed until TAKES_BACK.
let picks = 0;
let takesBack = false;

defineScenario(
  "gateway-media-faults",
  {
    gateway_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(AUDIO_MODELS) }),
    choose_file: (a, ctx) => {
      picks += 1;
      if (picks === 1) throw ipcError("invalidInput", NOT_LOCAL, { field: "file" });
      return baseHandlers.choose_file(a, ctx);
    },
    list_media: (a, ctx) => {
      void ctx.gate(TAKES_BACK).then(() => {
        takesBack = true;
      });
      if (!takesBack) throw ipcError("internal", TAKES_UNREADABLE);
      return baseHandlers.list_media(a, ctx);
    },
    transcribe: () => {
      throw ipcError("missingKey", MISSING_KEY);
    },
  },
  {
    description:
      "The transcription studio with a refused file, takes that cannot be listed (until released) and no API key; a failed video job and one held for want of a key.",
    setup: (db) => {
      picks = 0;
      takesBack = false;
      setupLibrary(db);
      db.dialog.open = "/home/user/Recordings/standup-notes.m4a";
      db.jobs = [
        videoJob(db, 44, "failed", "A fox running through fresh snow", { error: VIDEO_FAILED }),
        videoJob(db, 43, "running", "Northern lights over a fjord", { progress: "Rendering (10%)", error: ipcError("missingKey", MISSING_KEY) }),
        ...db.jobs,
      ];
    },
  },
);

defineScenario(
  "gateway-media-empty",
  {
    image_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(IMAGE_MODELS_PRICED) }),
    gateway_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(AUDIO_MODELS) }),
  },
  {
    description: "Media studios with an empty library and no asset protocol at all.",
    setup: (db) => {
      db.media = [];
    },
  },
);

defineScenario(
  "gateway-media-offline",
  {
    image_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(IMAGE_MODELS_PRICED) }),
    video_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(VIDEO_MODELS_PRICED) }),
    gateway_models: (a, ctx) => {
      const base = (baseHandlers.gateway_models(a, ctx) as CatalogView<ModelList>).list;
      return catalogView(ctx.db, { object: "list", data: [...base.data.filter((m) => !m.id.includes("transcribe")), ...clone(AUDIO_MODELS)] });
    },
  },
  {
    description: "The service cannot be reached: every model list is the copy kept on this computer two hours ago.",
    setup: (db) => {
      setupLibrary(db);
      db.catalogsKeptAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    },
  },
);
