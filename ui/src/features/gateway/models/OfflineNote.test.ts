import { describe, expect, it } from "vitest";
import { formatAgo } from "../../../lib/format";
import { offlineLine, offlineSince } from "./OfflineNote";

const NOW = Date.parse("2026-11-22T12:00:00Z");

describe("offline model lists", () => {
  it("say how old the kept copy is, in plain words", () => {
    expect(offlineLine("2026-11-22T10:00:00Z", NOW)).toBe("Offline — models as of 2 hours ago");
    expect(offlineLine(null, NOW)).toBe("Offline — models kept from an earlier visit");
    expect(formatAgo("2026-11-22T11:59:30Z", NOW)).toBe("just now");
    expect(formatAgo("2026-11-22T11:59:00Z", NOW)).toBe("1 minute ago");
    expect(formatAgo("2026-11-19T12:00:00Z", NOW)).toBe("3 days ago");
    expect(formatAgo("nope", NOW)).toBe("—");
  });

  it("name the oldest copy shown offline, and nothing when every list is live", () => {
    const live = { offline: false, cachedAt: "2026-11-22T11:00:00Z" };
    expect(offlineSince(live, undefined)).toBeUndefined();
    expect(offlineSince(live, { offline: true, cachedAt: "2026-11-22T09:00:00Z" }, { offline: true, cachedAt: "2026-11-22T10:00:00Z" })).toBe("2026-11-22T09:00:00Z");
    expect(offlineSince({ offline: true, cachedAt: null })).toBeNull();
  });
});
