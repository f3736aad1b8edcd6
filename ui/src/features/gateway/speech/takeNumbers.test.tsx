// Takes are numbered within their connection's history (issue 24): the first speech take of a new
// connection was titled "Take 2", its media library id (ids count every file of every kind and
// connection).
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { MediaItem } from "../../../ipc/contract";
import { renderScreen } from "../../../lib/testing";
import { historyNumbers } from "../shared/media";
import { takeLabel } from "../transcribe/TranscribeStudio";
import { SpeechStudio } from "./SpeechStudio";

afterEach(() => {
  cleanup();
  clearMocks();
});

const take = (id: number, prompt: string, over: Partial<MediaItem> = {}): MediaItem => ({
  id,
  kind: "audio",
  path: `/m/audio-${id}.wav`,
  prompt,
  model: "openai/speech-audio-mini",
  profileId: "sandbox",
  credits: 0.02,
  createdAt: "2026-11-21T10:00:00Z",
  ...over,
});

const recording = (id: number, seconds: number) => take(id, "", { model: "", settings: { source: "microphone", seconds } });

describe("historyNumbers", () => {
  it("numbers takes from the connection's oldest, and recordings apart", () => {
    const numbers = historyNumbers([take(9, "c"), recording(8, 12), take(5, "b"), recording(6, 3), take(2, "a")]);
    expect([2, 5, 9].map((id) => numbers.get(id))).toEqual([1, 2, 3]);
    expect([6, 8].map((id) => numbers.get(id))).toEqual([1, 2]);
  });

  it("the Transcription studio names a take and a recording by the same numbers", () => {
    const list = [take(7, "Welcome to the weekly update."), recording(4, 65)];
    const numbers = historyNumbers(list);
    expect(list.map((t) => takeLabel(t, numbers.get(t.id)))).toEqual(["Take 1: Welcome to the weekly update.", "Recording 1 (1:05)"]);
  });
});

describe("SpeechStudio", () => {
  it("titles the first take of a connection Take 1, whatever its id in the media library", async () => {
    // The library's file 1 is an image (or another connection's): this connection's first take is file 2.
    mockIPC((cmd) => {
      if (cmd === "gateway_models") return { list: { object: "list", data: [] }, cachedAt: "2026-11-22T09:00:00Z", offline: false };
      if (cmd === "list_media") return [take(2, "Hello team")];
      return null;
    });
    renderScreen(<SpeechStudio />);
    const history = await screen.findByRole("list", { name: "Takes" });
    const first = within(history).getByRole("listitem", { name: "Take 1" });
    expect(within(first).getByText("Take 1")).toBeTruthy();
    expect(within(first).getByRole("button", { name: "Listen to take 1" })).toBeTruthy();
    const player = screen.getByRole("region", { name: "Player" });
    expect(within(player).getByRole("heading", { level: 2 }).textContent).toBe("Take 1");
    await waitFor(() => expect(screen.queryByText(/Take 2/)).toBeNull());
  });
});
