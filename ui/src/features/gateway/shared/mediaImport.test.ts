import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { IpcError, MediaItem } from "../../../ipc/contract";
import { createDb, type MockDb } from "../../../mock/base";
import { mediaHandlers } from "../../../mock/media";
import type { MockContext } from "../../../mock/registry";
import { importLocalMedia } from "./mediaImport";
import { rememberSettings, settingsOf } from "./settingsMemory";

let db: MockDb;
let calls: string[];
let failing: string | null;

const item = (id: number, kind: MediaItem["kind"], profileId = "sandbox"): MediaItem => ({ id, kind, path: `/m/${id}`, prompt: "p", model: "m", profileId, createdAt: "" });
const list = (kind: MediaItem["kind"]) => db.media.filter((m) => m.kind === kind && m.profileId === "sandbox");

// The library is the mock's (src/mock/media.ts), so these also hold it to Rust's rules.
beforeEach(() => {
  localStorage.clear();
  db = createDb();
  db.media = [item(30, "audio"), item(31, "audio"), item(5, "image"), item(40, "audio", "p_work")];
  calls = [];
  failing = null;
  mockIPC((cmd, args) => {
    calls.push(cmd);
    if (cmd === failing) throw { kind: "storage", message: "The disk is full." } satisfies IpcError;
    return (mediaHandlers as Record<string, (a: unknown, ctx: MockContext) => unknown>)[cmd]?.(args, { db } as MockContext);
  });
});
afterEach(() => clearMocks());

describe("media settings and preferred takes an earlier version kept in localStorage", () => {
  it("are written to the library once for the listed files, then read from the library", async () => {
    localStorage.setItem("specdesk.media.settings.v1", JSON.stringify({ 30: { voice: "coral", format: "wav" }, 5: { size: "1024x1024", count: 1 }, 40: { format: "mp3" } }));
    localStorage.setItem("specdesk.speech.preferred.v1", JSON.stringify([31, 40]));

    expect(await importLocalMedia(list("audio"))).toBe(true);
    expect(calls).toEqual(["set_media_settings", "set_media_preferred"]);
    expect(settingsOf(db.media[0] as MediaItem)).toEqual({ voice: "coral", format: "wav" });
    expect(db.media.filter((m) => m.preferred).map((m) => m.id)).toEqual([31]);
    // The image waits for the images' list; take 40 is another connection's and waits for it.
    expect(JSON.parse(localStorage.getItem("specdesk.media.settings.v1") ?? "")).toEqual({ 5: { size: "1024x1024", count: 1 }, 40: { format: "mp3" } });
    expect(JSON.parse(localStorage.getItem("specdesk.speech.preferred.v1") ?? "")).toEqual([40]);

    calls = [];
    expect(await importLocalMedia(list("audio"))).toBe(false);
    expect(calls).toEqual([]);
    expect(await importLocalMedia(list("image"))).toBe(true);
    expect(settingsOf(db.media[2] as MediaItem)).toEqual({ size: "1024x1024", count: 1 });
  });

  it("stay here when the write fails for a reason that may pass", async () => {
    localStorage.setItem("specdesk.media.settings.v1", JSON.stringify({ 30: { voice: "coral" } }));
    failing = "set_media_settings";
    expect(await importLocalMedia(list("audio"))).toBe(false);
    expect(localStorage.getItem("specdesk.media.settings.v1")).not.toBeNull();
    failing = null;
    expect(await importLocalMedia(list("audio"))).toBe(true);
    expect(localStorage.getItem("specdesk.media.settings.v1")).toBeNull();
  });

  it("a new file's settings go straight to the library", async () => {
    await rememberSettings([31], { voice: "sage", format: "pcm16" });
    expect(settingsOf(db.media[1] as MediaItem)).toEqual({ voice: "sage", format: "pcm16" });
    await expect(rememberSettings([40], { voice: "sage" })).rejects.toMatchObject({ ipc: { kind: "notFound" } });
  });
});
