// The mock's answers for the media library's rows (crates/core library/media.rs): listed per
// connection, deleted, and what the studios keep with a file: the settings it was made with and
// the take preferred in an A/B. As in Rust, another connection's files are not found.
import { ipcError, type Handler } from "./registry";
import type { MediaItem } from "../ipc/contract";
import { clone, nextId, now } from "./state";

type MediaCommand = "list_media" | "count_media" | "delete_media" | "restore_media" | "set_media_settings" | "set_media_preferred" | "save_recording";

/** Files deleted while their Undo is offered (as Rust keeps them hidden until the next start). */
const deleted = new Map<number, MediaItem>();

const GONE = "That file is no longer in the library.";

export const mediaHandlers: { [C in MediaCommand]: Handler<C> } = {
  list_media: ({ kind, limit, offset }, { db }) =>
    clone(db.media.filter((m) => m.profileId === db.settings.activeProfileId && (!kind || m.kind === kind)).slice(offset, offset + limit)),
  count_media: ({ kind }, { db }) => db.media.filter((m) => m.profileId === db.settings.activeProfileId && (!kind || m.kind === kind)).length,
  // The mock's IPC has no headers: the recording's rate, and so its length, are not known here.
  save_recording: (bytes, { db }) => {
    if (!bytes.length) {
      throw ipcError("invalidInput", "The recording is empty: it was stopped before any sound arrived. Record again, a little longer.", { field: "recording" });
    }
    const id = nextId(db);
    const item = {
      id,
      kind: "audio" as const,
      path: `/home/user/.local/share/specdesk/media/recording-${id}.wav`,
      prompt: "Recording from the microphone",
      model: "microphone",
      profileId: db.settings.activeProfileId,
      createdAt: now(db),
      settings: { source: "microphone" },
    };
    db.media.unshift(item);
    return clone(item);
  },
  delete_media: ({ id }, { db }) => {
    const item = db.media.find((m) => m.id === id && m.profileId === db.settings.activeProfileId);
    if (!item) throw ipcError("notFound", GONE);
    deleted.set(id, item);
    db.media = db.media.filter((m) => m.id !== id);
    return null;
  },
  restore_media: ({ id }, { db }) => {
    const item = deleted.get(id);
    if (!item) throw ipcError("notFound", "That file can no longer be restored: it was deleted for good.");
    deleted.delete(id);
    db.media = [...db.media, item].sort((a, b) => b.id - a.id);
    return clone(item);
  },
  set_media_settings: ({ ids, settings }, { db }) => {
    const ok = !!settings && typeof settings === "object" && !Array.isArray(settings) && Object.values(settings).every((v) => typeof v === "string" || typeof v === "number");
    if (!ok) throw ipcError("invalidInput", "A file's settings are names with a text or a number each.", { field: "settings" });
    const mine = db.media.filter((m) => ids.includes(m.id) && m.profileId === db.settings.activeProfileId);
    if (!mine.length && ids.length) throw ipcError("notFound", GONE);
    for (const m of mine) m.settings = clone(settings);
    return null;
  },
  set_media_preferred: ({ id, preferred, over }, { db }) => {
    const mine = (x: number | undefined) => db.media.find((m) => m.id === x && m.profileId === db.settings.activeProfileId);
    const take = mine(id);
    if (!take) throw ipcError("notFound", GONE);
    // Rust sends `preferred` only when true.
    if (preferred) take.preferred = true;
    else delete take.preferred;
    const other = preferred && over !== id ? mine(over) : undefined;
    if (other) delete other.preferred;
    return null;
  },
};
