import { describe, expect, it } from "vitest";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { imagePriceLine, priceOf, speechPriceLine, transcriptionPriceLine, UNPRICED, usd, videoPriceLine } from "./price";

const m = (svc: Record<string, number> | undefined): CatalogModel => ({ id: "lab/x", input: [], output: [], svc: svc as CatalogModel["svc"] });

describe("price lines", () => {
  it("images: per image and for the count", () => {
    expect(imagePriceLine(m({ credits_per_image: 0.4 }), 1)).toBe("0.4 credits per image · 1 image: 0.4 credits");
    expect(imagePriceLine(m({ credits_per_image: 0.4 }), 3)).toBe("0.4 credits per image · 3 images: 1.2 credits");
    expect(imagePriceLine(m(undefined), 2)).toBe(UNPRICED);
  });
  it("video: per second, charged when done", () => {
    expect(videoPriceLine(m({ credits_per_second: 1.5 }), 4)).toBe("1.5 credits per second · 4 s: 6 credits, charged when the video is done");
    expect(videoPriceLine(m({ credits_per_second: 1 }), 1)).toBe("1 credit per second · 1 s: 1 credit, charged when the video is done");
    expect(videoPriceLine(undefined, 4)).toBe(`${UNPRICED} Videos are charged when they are done.`);
  });
  it("speech by characters, music by clip, transcription by minute", () => {
    expect(speechPriceLine(m({ credits_per_1k_chars: 0.15 }), 2000)).toBe("0.15 credits per 1,000 characters · 2,000 characters: about 0.3 credits");
    // A short text costs a fraction of a thousandth: shown as it is, never rounded to 0.
    expect(speechPriceLine(m({ credits_per_1k_chars: 0.15 }), 10)).toBe("0.15 credits per 1,000 characters · 10 characters: about 0.0015 credits");
    expect(speechPriceLine(m({ credits_per_clip: 0.4 }), 50)).toBe("0.4 credits per clip");
    expect(transcriptionPriceLine(m({ credits_per_minute: 0.06 }))).toBe("0.06 credits per minute of audio");
    expect(transcriptionPriceLine(m({}))).toBe(UNPRICED);
  });
  it("reads only finite, non-negative numbers", () => {
    expect(priceOf(m({ credits_per_image: -1 }), "credits_per_image")).toBeUndefined();
    expect(priceOf({ id: "a", input: [], output: [], svc: { credits_per_image: "3" } as never }, "credits_per_image")).toBeUndefined();
    expect(usd(0.007)).toBe("$0.007");
    expect(usd(0.6)).toBe("$0.60");
  });
});
