import { describe, expect, it } from "vitest";
import type { Activity } from "../../bindings/Activity";
import { stateLine } from "./ActivityCenter";
import { routeOf, runningLabel, runningOf, showsPlace } from "./places";

const entry = (over: Partial<Activity>): Activity => ({
  id: "call-1",
  kind: "image",
  title: "A kite",
  state: "running",
  startedAt: "2026-11-28T10:00:00.000Z",
  place: { kind: "studio", studio: "images" },
  ...over,
});

describe("an activity entry's place", () => {
  it("is the route that shows its item", () => {
    expect(routeOf({ kind: "conversation", id: 7 })).toEqual({ area: "gateway", studio: "chat", conversation: 7 });
    expect(routeOf({ kind: "studio", studio: "images", item: 3 })).toEqual({ area: "gateway", studio: "images", image: 3 });
    expect(routeOf({ kind: "studio", studio: "speech", item: 4 })).toEqual({ area: "gateway", studio: "speech", take: 4 });
    expect(routeOf({ kind: "studio", studio: "transcribe", item: 5 })).toEqual({ area: "gateway", studio: "transcribe" });
    expect(routeOf({ kind: "studio", studio: "video" })).toEqual({ area: "gateway", studio: "video" });
    expect(routeOf({ kind: "studio", studio: "nowhere" })).toEqual({ area: "gateway", studio: "chat" });
    expect(routeOf({ kind: "spec", specId: "abc" })).toEqual({ area: "specs", specId: "abc" });
    expect(routeOf({ kind: "spec" })).toEqual({ area: "specs" });
    expect(routeOf({ kind: "batch", batchId: "b1" })).toEqual({ area: "agents", batch: { batchId: "b1" } });
    expect(routeOf({ kind: "batch" })).toEqual({ area: "agents" });
  });
});

describe("what the activity center says", () => {
  it("counts what runs", () => {
    const list = [entry({}), entry({ id: "b", state: "done" }), entry({ id: "c" })];
    expect(runningOf(list).map((a) => a.id)).toEqual(["call-1", "c"]);
    expect(runningLabel(2)).toBe("2 running");
    expect(runningLabel(0)).toBe("Nothing running");
  });

  it("says each state with its time, step and charge", () => {
    const now = Date.parse("2026-11-28T10:01:05.000Z");
    expect(stateLine(entry({ statusText: "Writing the stories" }), now)).toBe("Running · 1 min 5 s · Writing the stories");
    expect(stateLine(entry({ kind: "spec", statusText: "Writing the stories", credits: 1.25 }), now)).toBe(
      "Running · 1 min 5 s · Writing the stories · 1.25 credits so far",
    );
    expect(stateLine(entry({ state: "done", credits: 0.4 }), now)).toBe("Done · 0.4 credits");
    expect(stateLine(entry({ state: "done" }), now)).toBe("Done");
    expect(stateLine(entry({ state: "failed" }), now)).toBe("Failed");
    expect(stateLine(entry({ state: "stopped" }), now)).toBe("Stopped");
  });
});

describe("showsPlace", () => {
  it("is the place itself or a view within it, never a neighbour whose id starts the same", () => {
    expect(showsPlace({ area: "specs", specId: "abc", tab: "human" }, { area: "specs", specId: "abc" })).toBe(true);
    expect(showsPlace({ area: "agents", batch: { batchId: "b1", task: 3 } }, { area: "agents", batch: { batchId: "b1" } })).toBe(true);
    expect(showsPlace({ area: "specs", specId: "abcd" }, { area: "specs", specId: "abc" })).toBe(false);
    expect(showsPlace({ area: "plans" }, { area: "specs" })).toBe(false);
    // A spec that failed before it was named: the Specs list itself, not any spec of it.
    expect(showsPlace({ area: "specs" }, { area: "specs" })).toBe(true);
    expect(showsPlace({ area: "specs", specId: "abc" }, { area: "specs" })).toBe(false);
  });
});
