import { describe, expect, it } from "vitest";
import type { NavTarget } from "../../lib/nav";
import { badLinkSentence, linkOf, linkRoute } from "./links";

const SPEC = "6741a0c3e4b0f1a2b3c4d5e6";

describe("specdesk:// links", () => {
  it("open the same places as the address, both ways", () => {
    const places: NavTarget[] = [
      { area: "specs", specId: SPEC },
      { area: "plans", target: { specId: SPEC } },
      { area: "agents", batch: { batchId: "6741a0c3e4b0f1a2b3c4d600", task: 3 } },
      { area: "gateway", studio: "chat", conversation: 12 },
    ];
    for (const place of places) expect(linkRoute(linkOf(place))).toEqual(place);
    expect(linkOf({ area: "specs", specId: SPEC })).toBe(`specdesk://specs/${SPEC}`);
    expect(linkOf({ area: "gateway", studio: "chat", conversation: 12 })).toBe("specdesk://gateway/chat?conversation=12");
    expect(linkRoute(` SPECDESK://agents/batches/b1?task=2 `)).toEqual({ area: "agents", batch: { batchId: "b1", task: 2 } });
  });

  it("name no place when malformed, unknown or of another scheme", () => {
    for (const bad of ["specdesk:%%", "specdesk://", "specdesk://nowhere", "specdesk://specs/a/b", "specdesk://gateway/chat?conversation=x", "https://specs/abc", "specs/abc", ""]) {
      expect(linkRoute(bad), bad).toBeNull();
    }
  });

  it("say in plain words that a link opens nothing", () => {
    expect(badLinkSentence("specdesk://nowhere")).toBe("This link does not lead to anything in Specdesk: “specdesk://nowhere”. Check that it was copied whole; nothing was opened.");
    expect(badLinkSentence(`specdesk://${"x".repeat(200)}`)).toMatch(/^This link does not lead to anything in Specdesk: “specdesk:\/\/x+…”\./);
  });
});
