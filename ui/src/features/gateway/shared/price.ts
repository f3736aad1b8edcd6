// Prices of the priced catalogs (`svc` of a model row), as one plain line shown BEFORE a call.
// The contract names no price keys; `credits_per_image` and `credits_per_second` are the ones the
// bindings name (image and video lists), and the others (`credits_per_mtok_input`/`_output`,
// `credits_per_1k_chars`, `credits_per_clip`, `credits_per_minute`) are the Sandbox's, which arrive
// in the same object and are read by name here; a key not known shows as "not listed".
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { formatCreditsWord as credits } from "../../../lib/format";

export type PriceKey =
  | "credits_per_mtok_input"
  | "credits_per_mtok_output"
  | "credits_per_image"
  | "credits_per_second"
  | "credits_per_1k_chars"
  | "credits_per_clip"
  | "credits_per_minute";

/** One price of a model row, when the catalog gives it as a number. */
export function priceOf(model: CatalogModel | undefined, key: PriceKey): number | undefined {
  const svc = model?.svc as Record<string, unknown> | undefined;
  const v = svc?.[key];
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/** An amount in USD as the service reports `usage.cost`: "$0.002". */
export function usd(n: number): string {
  return `$${new Intl.NumberFormat("en-US", { maximumFractionDigits: 4, minimumFractionDigits: 2 }).format(n)}`;
}

export const UNPRICED = "This model's price is not listed; the charge shows after the call.";

/** "0.4 credits per image · 3 images: 1.2 credits". */
export function imagePriceLine(model: CatalogModel | undefined, count: number): string {
  const each = priceOf(model, "credits_per_image");
  if (each === undefined) return UNPRICED;
  const n = Math.max(1, Math.floor(count));
  return `${credits(each)} per image · ${n} ${n === 1 ? "image" : "images"}: ${credits(each * n)}`;
}

/** "1.5 credits per second · 4 s: 6 credits, charged when the video is done". */
export function videoPriceLine(model: CatalogModel | undefined, seconds: number): string {
  const each = priceOf(model, "credits_per_second");
  if (each === undefined) return `${UNPRICED} Videos are charged when they are done.`;
  const s = Math.max(1, Math.floor(seconds));
  return `${credits(each)} per second · ${s} s: ${credits(each * s)}, charged when the video is done`;
}

/** Speech by characters, music by clip. */
export function speechPriceLine(model: CatalogModel | undefined, characters: number): string {
  const perClip = priceOf(model, "credits_per_clip");
  if (perClip !== undefined) return `${credits(perClip)} per clip`;
  const perK = priceOf(model, "credits_per_1k_chars");
  if (perK === undefined) return UNPRICED;
  const chars = Math.max(0, Math.floor(characters));
  return `${credits(perK)} per 1,000 characters · ${new Intl.NumberFormat("en-US").format(chars)} ${
    chars === 1 ? "character" : "characters"
  }: about ${credits((perK * chars) / 1000)}`;
}

/** "0.06 credits per minute of audio". */
export function transcriptionPriceLine(model: CatalogModel | undefined): string {
  const perMinute = priceOf(model, "credits_per_minute");
  return perMinute === undefined ? UNPRICED : `${credits(perMinute)} per minute of audio`;
}
