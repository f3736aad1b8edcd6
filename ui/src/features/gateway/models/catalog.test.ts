import { describe, expect, it } from "vitest";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { NO_FILTERS, catalogDate, filterModels, formatContext, isKind, labsOf, mergeCatalogs, priceLabel } from "./catalog";

const row = (id: string, extra: Partial<CatalogModel> = {}): CatalogModel => ({ id, lab: id.split("/")[0], type: "text", input: ["text"], output: ["text"], ...extra });

const PUBLIC = [
  row("anthropic/claude-sonnet-4.5", { created: 1_760_000_000, context_length: 200_000, input: ["text", "image"] }),
  row("openai/gpt-5-mini", { created: 1_770_000_000, context_length: 400_000 }),
  row("google/gemini-2.5-flash", { created: 1_750_000_000, context_length: 1_000_000, input: ["text", "image", "file"] }),
  row("openai/gpt-image-1", { type: "image", output: ["image"], created: 1_740_000_000 }),
];
const AUTHED = [
  row("openai/gpt-4o-mini-audio", { input: ["text", "audio"], output: ["text", "audio"], created: 1_765_000_000 }),
  row("openai/gpt-image-1", { type: "image", output: ["image"], svc: { credits_per_image: 0.4 } }),
];

describe("mergeCatalogs", () => {
  it("merges by id, keeps the public date and adds the authed price, newest first", () => {
    const all = mergeCatalogs(PUBLIC, AUTHED);
    expect(all.map((m) => m.id)).toEqual([
      "openai/gpt-5-mini",
      "openai/gpt-4o-mini-audio",
      "anthropic/claude-sonnet-4.5",
      "google/gemini-2.5-flash",
      "openai/gpt-image-1",
    ]);
    const image = all.find((m) => m.id === "openai/gpt-image-1");
    expect(image?.created).toBe(1_740_000_000);
    expect(image && priceLabel(image)).toBe("0.4 credits per image");
  });
});

describe("priceLabel", () => {
  const priced = (svc: Record<string, number>) => row("x/y", { svc: svc as CatalogModel["svc"] });
  it("words every price the catalogs give, and nothing for a row without one", () => {
    expect(priceLabel(priced({ credits_per_image: 1 }))).toBe("1 credit per image");
    expect(priceLabel(priced({ credits_per_second: 1.5 }))).toBe("1.5 credits per second");
    expect(priceLabel(priced({ credits_per_mtok_input: 3, credits_per_mtok_output: 15 }))).toBe("3 credits per 1M tokens read, 15 credits per 1M written");
    expect(priceLabel(priced({ credits_per_mtok_input: 0.2 }))).toBe("0.2 credits per 1M tokens read");
    expect(priceLabel(priced({ credits_per_mtok_output: 0.8 }))).toBe("0.8 credits per 1M tokens written");
    expect(priceLabel(priced({ credits_per_1k_chars: 0.15 }))).toBe("0.15 credits per 1,000 characters");
    expect(priceLabel(priced({ credits_per_clip: 0.4 }))).toBe("0.4 credits per clip");
    expect(priceLabel(priced({ credits_per_minute: 0.06 }))).toBe("0.06 credits per minute of audio");
    expect(priceLabel(row("x/y", {}))).toBe("");
    expect(priceLabel(priced({ credits_per_minute: -1 }))).toBe("");
  });
});

describe("filterModels", () => {
  const all = mergeCatalogs(PUBLIC, AUTHED);
  it("filters by lab, type, modality, context and words", () => {
    expect(filterModels(all, { ...NO_FILTERS, lab: "openai" }).map((m) => m.id)).toEqual(["openai/gpt-5-mini", "openai/gpt-4o-mini-audio", "openai/gpt-image-1"]);
    expect(filterModels(all, { ...NO_FILTERS, type: "image" }).map((m) => m.id)).toEqual(["openai/gpt-image-1"]);
    expect(filterModels(all, { ...NO_FILTERS, input: "image" }).map((m) => m.id)).toEqual(["anthropic/claude-sonnet-4.5", "google/gemini-2.5-flash"]);
    expect(filterModels(all, { ...NO_FILTERS, output: "audio" }).map((m) => m.id)).toEqual(["openai/gpt-4o-mini-audio"]);
    expect(filterModels(all, { ...NO_FILTERS, minContext: 400_000 }).map((m) => m.id)).toEqual(["openai/gpt-5-mini", "google/gemini-2.5-flash"]);
    expect(filterModels(all, { ...NO_FILTERS, search: "GPT mini" }).map((m) => m.id)).toEqual(["openai/gpt-5-mini", "openai/gpt-4o-mini-audio"]);
    expect(filterModels(all, { ...NO_FILTERS, lab: "anthropic", type: "image" })).toEqual([]);
  });

  it("counts labs, most models first", () => {
    expect(labsOf(all)).toEqual([
      { id: "openai", count: 3 },
      { id: "anthropic", count: 1 },
      { id: "google", count: 1 },
    ]);
  });

  it("offers chat pickers text models only", () => {
    expect(all.filter((m) => isKind(m, "text")).map((m) => m.id)).toEqual(["openai/gpt-5-mini", "anthropic/claude-sonnet-4.5", "google/gemini-2.5-flash"]);
  });
});

describe("formatting", () => {
  it("writes context lengths and catalog dates", () => {
    expect(formatContext(200_000)).toBe("200K");
    expect(formatContext(1_000_000)).toBe("1M");
    expect(formatContext(8192)).toBe("8,192");
    expect(formatContext(undefined)).toBe("—");
    expect(catalogDate(1_764_000_000)?.toISOString()).toBe("2025-11-24T16:00:00.000Z");
    expect(catalogDate("2026-11-20T10:00:00Z")?.toISOString()).toBe("2026-11-20T10:00:00.000Z");
    expect(catalogDate(null)).toBeNull();
  });
});
