import { describe, expect, it } from "vitest";
import type { Batch } from "../../bindings/Batch";
import type { MediaItem } from "../../bindings/MediaItem";
import { filterPalette, MAX_SPECS } from "./paletteCommands";
import { batchItems, conversationItems, mediaItems, modelItems, PLACE_ITEMS, planItems } from "./paletteKinds";

const day = (iso: string) => iso.slice(0, 10);
const media = (id: number, kind: MediaItem["kind"], prompt: string, settings?: MediaItem["settings"]): MediaItem => ({
  id,
  kind,
  path: `/m/${id}`,
  prompt,
  model: "m/one",
  profileId: "sandbox",
  createdAt: `2026-11-2${id}T10:00:00Z`,
  ...(settings ? { settings } : {}),
});
const batch = (id: string, total: number, status: string, urls: string[] = []): Batch => ({
  id,
  total,
  completed: total,
  results: urls.map((url) => ({ url, status: "SUCCESS", cost: 0, creditsUsed: 0, durationMs: 1 })),
  totalCost: 0,
  totalCreditsUsed: 0,
  status,
  createdAt: "2026-11-25T08:00:00Z",
});

describe("the palette's places", () => {
  it("goes to every studio and every section of Settings", () => {
    expect(PLACE_ITEMS.map((i) => [i.label, i.hint, i.run])).toEqual([
      ["Chat studio", "Gateway", { kind: "go", to: { area: "gateway", studio: "chat" } }],
      ["Images studio", "Gateway", { kind: "go", to: { area: "gateway", studio: "images" } }],
      ["Speech and music studio", "Gateway", { kind: "go", to: { area: "gateway", studio: "speech" } }],
      ["Transcription studio", "Gateway", { kind: "go", to: { area: "gateway", studio: "transcribe" } }],
      ["Video studio", "Gateway", { kind: "go", to: { area: "gateway", studio: "video" } }],
      ["Rerank studio", "Gateway", { kind: "go", to: { area: "gateway", studio: "rerank" } }],
      ["Models studio", "Gateway", { kind: "go", to: { area: "gateway", studio: "models" } }],
      ["Connections", "Settings", { kind: "go", to: { area: "settings", section: "connections" } }],
      ["Preferences", "Settings", { kind: "go", to: { area: "settings", section: "preferences" } }],
      ["Spending", "Settings", { kind: "go", to: { area: "settings", section: "spending" } }],
      ["Help and diagnostics", "Settings", { kind: "go", to: { area: "settings", section: "support" } }],
    ]);
    expect(filterPalette(PLACE_ITEMS, "cap").map((i) => i.label)).toEqual(["Spending"]);
    // Listed once the user types: the empty palette keeps to the areas, actions and specs.
    expect(filterPalette(PLACE_ITEMS, "  ")).toEqual([]);
  });

  it("lists the plans opened here, then one per completed spec", () => {
    const items = planItems(
      [{ projectId: "p1", profileId: "sandbox", name: "Tool library", openedAt: "2026-11-26T09:00:00Z" }],
      [
        { id: "s1", input: "A recipe box", status: "completed", created: "2026-11-20T09:00:00Z" },
        { id: "s2", input: "Still cooking", status: "processing", created: "2026-11-21T09:00:00Z" },
        { id: "s1", input: "A recipe box", status: "completed", created: "2026-11-20T09:00:00Z" },
      ],
      day,
    );
    expect(items.map((i) => [i.label, i.hint, i.run])).toEqual([
      ["Tool library", "opened 2026-11-26", { kind: "go", to: { area: "plans", target: { projectId: "p1" } } }],
      ["Plan of A recipe box", "2026-11-20", { kind: "go", to: { area: "plans", target: { specId: "s1" } } }],
    ]);
  });

  it("opens a conversation, a batch, an image, a take and a model at their routes", () => {
    expect(conversationItems([{ id: 4, profileId: "sandbox", title: "  ", createdAt: "x", updatedAt: "2026-11-24T10:00:00Z" }], day).map((i) => [i.label, i.hint, i.run])).toEqual([
      ["Untitled conversation", "2026-11-24", { kind: "go", to: { area: "gateway", studio: "chat", conversation: 4 } }],
    ]);
    const batches = batchItems([batch("b1", 1, "completed"), batch("b2", 1200, "processing", ["https://shop.example/cart"])], day);
    expect(batches.map((i) => [i.label, i.run])).toEqual([
      ["Batch of 1 task, finished", { kind: "go", to: { area: "agents", batch: { batchId: "b1" } } }],
      ["Batch of 1,200 tasks, running", { kind: "go", to: { area: "agents", batch: { batchId: "b2" } } }],
    ]);
    // Found by a task's address.
    expect(filterPalette(batches, "shop.example").map((i) => i.id)).toEqual(["batch-b2"]);
    const kept = mediaItems([media(1, "image", "A kite at dusk"), media(2, "audio", "Hello there"), media(3, "audio", "my voice", { source: "microphone" }), media(4, "video", "A wave")], day);
    expect(kept.map((i) => [i.label, i.run])).toEqual([
      ["Image: A kite at dusk", { kind: "go", to: { area: "gateway", studio: "images", image: 1 } }],
      ["Take: Hello there", { kind: "go", to: { area: "gateway", studio: "speech", take: 2 } }],
    ]);
    expect(modelItems([{ id: "a/one", name: "One", input: [], output: [] }, { id: "b/two", input: [], output: [] }]).map((i) => [i.label, i.hint, i.run])).toEqual([
      ["One", "a/one", { kind: "go", to: { area: "gateway", studio: "models", model: "a/one" } }],
      ["b/two", undefined, { kind: "go", to: { area: "gateway", studio: "models", model: "b/two" } }],
    ]);
  });

  it("lists at most MAX_SPECS of a long group, the newest first", () => {
    const many = conversationItems(
      Array.from({ length: MAX_SPECS + 5 }, (_, i) => ({ id: i + 1, profileId: "sandbox", title: `Chat ${i + 1}`, createdAt: "x", updatedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() })),
      day,
    );
    const shown = filterPalette(many, "chat");
    expect(shown).toHaveLength(MAX_SPECS);
    expect(shown[0]?.label).toBe(`Chat ${MAX_SPECS + 5}`);
  });
});
