import { describe, expect, it } from "vitest";
import type { NavTarget } from "../../lib/nav";
import { canonicalHash, formatRoute, parseRoute, placeOf, routeOf } from "./route";

const SPEC = "6741a0c3e4b0f1a2b3c4d5e6";
const PROJECT = "6741a0c3e4b0f1a2b3c4d5aa";

describe("formatRoute", () => {
  it("writes every place", () => {
    expect(formatRoute({ area: "specs" })).toBe("#/specs");
    expect(formatRoute({ area: "specs", specId: SPEC })).toBe("#/specs/6741a0c3e4b0f1a2b3c4d5e6");
    expect(formatRoute({ area: "plans" })).toBe("#/plans");
    expect(formatRoute({ area: "plans", target: { specId: SPEC } })).toBe("#/plans?specId=6741a0c3e4b0f1a2b3c4d5e6");
    expect(formatRoute({ area: "plans", target: { projectId: PROJECT } })).toBe("#/plans?projectId=6741a0c3e4b0f1a2b3c4d5aa");
    expect(formatRoute({ area: "agents" })).toBe("#/agents");
    expect(formatRoute({ area: "agents", acceptance: { specId: SPEC } })).toBe("#/agents/acceptance?specId=6741a0c3e4b0f1a2b3c4d5e6");
    expect(formatRoute({ area: "agents", acceptance: { specId: SPEC, url: "http://localhost:3000/a b?x=1&y=2" } })).toBe(
      "#/agents/acceptance?specId=6741a0c3e4b0f1a2b3c4d5e6&url=http%3A%2F%2Flocalhost%3A3000%2Fa+b%3Fx%3D1%26y%3D2",
    );
    expect(formatRoute({ area: "gateway" })).toBe("#/gateway");
    expect(formatRoute({ area: "settings" })).toBe("#/settings");
  });

  it("writes a spec's tab and a plan's view, leaving out the defaults", () => {
    expect(formatRoute({ area: "specs", specId: SPEC, tab: "human" })).toBe(`#/specs/${SPEC}?tab=human`);
    expect(formatRoute({ area: "specs", specId: SPEC, tab: "overview" })).toBe(`#/specs/${SPEC}`);
    expect(formatRoute({ area: "specs", tab: "human" })).toBe("#/specs");
    expect(formatRoute({ area: "plans", target: { specId: SPEC }, filter: "status:in_progress", feature: "f-2" })).toBe(
      `#/plans?specId=${SPEC}&filter=status%3Ain_progress&feature=f-2`,
    );
    expect(formatRoute({ area: "plans", target: { specId: SPEC }, filter: "all" })).toBe(`#/plans?specId=${SPEC}`);
    expect(formatRoute({ area: "plans", filter: "suggested", feature: "f-2" })).toBe("#/plans");
  });

  it("treats an empty plan target as the Plans area", () => {
    expect(formatRoute({ area: "plans", target: {} })).toBe("#/plans");
    expect(formatRoute({ area: "specs", specId: "" })).toBe("#/specs");
  });
});

describe("parseRoute", () => {
  const places: NavTarget[] = [
    { area: "specs" },
    { area: "specs", specId: SPEC },
    { area: "specs", specId: SPEC, tab: "human" },
    { area: "specs", specId: SPEC, tab: "graphs" },
    { area: "specs", list: "q=recipe+box&status=failed" },
    { area: "specs", list: "q=c%5C%2B%5C%2B+%26+%23rust%3F&pattern=1&depth=deep&status=completed&size=10&page=3&sort=-hours&archived=1" },
    { area: "plans" },
    { area: "plans", target: { specId: SPEC }, filter: "status:blocked" },
    { area: "plans", target: { projectId: PROJECT }, filter: "suggested", feature: "f-3" },
    { area: "plans", target: { specId: SPEC }, feature: "f-1" },
    { area: "plans", target: { specId: SPEC } },
    { area: "plans", target: { projectId: PROJECT } },
    { area: "agents" },
    { area: "agents", acceptance: { specId: SPEC } },
    { area: "agents", acceptance: { specId: SPEC, url: "http://localhost:3000/a b?x=1&y=2" } },
    { area: "agents", acceptance: { specId: SPEC, run: "job-12" } },
    { area: "agents", batch: { batchId: "batch_7f3a" } },
    { area: "agents", batch: { batchId: "batch_7f3a", task: 12 } },
    { area: "agents", batch: { batchId: "batch_7f3a", task: 1000, step: 3 } },
    { area: "agents", batch: { batchId: "batch_7f3a", status: "failed" } },
    { area: "agents", batch: { batchId: "batch_7f3a", status: "CAPTCHA_FAILED", q: "cart & checkout?", task: 40, step: 2 } },
    { area: "agents", batch: { batchId: "batch_7f3a", q: "shop.example/item" } },
    { area: "gateway" },
    { area: "gateway", studio: "images" },
    { area: "gateway", studio: "rerank" },
    { area: "gateway", studio: "chat", conversation: 42 },
    { area: "gateway", studio: "models", model: "anthropic/claude-sonnet-4.5" },
    { area: "gateway", studio: "models", model: "openai/gpt-4o:latest@2026" },
    { area: "gateway", studio: "images", image: 7 },
    { area: "gateway", studio: "speech", take: 3 },
    { area: "settings" },
    { area: "settings", section: "spending" },
    { area: "settings", section: "support" },
  ];
  for (const place of places) {
    it(`reads back ${formatRoute(place)}`, () => {
      expect(parseRoute(formatRoute(place))).toEqual(place);
    });
  }

  it("reads a hash without its # and with one trailing slash", () => {
    expect(parseRoute("/gateway")).toEqual({ area: "gateway" });
    expect(parseRoute("#/specs/")).toEqual({ area: "specs" });
    expect(parseRoute(`#/specs/${SPEC}/`)).toEqual({ area: "specs", specId: SPEC });
    expect(parseRoute("#/plans/?projectId=6741A0C3E4B0F1A2B3C4D5AA")).toEqual({ area: "plans", target: { projectId: "6741A0C3E4B0F1A2B3C4D5AA" } });
    expect(parseRoute("#/agents/acceptance?url=https%3A%2F%2Fapp.example.com&specId=abc")).toEqual({
      area: "agents",
      acceptance: { specId: "abc", url: "https://app.example.com" },
    });
  });

  it("reads a view only with its place, and only known values", () => {
    expect(parseRoute(`#/specs/${SPEC}?tab=overview`)).toEqual({ area: "specs", specId: SPEC, tab: "overview" });
    expect(canonicalHash(`#/specs/${SPEC}?tab=overview`)).toBe(`#/specs/${SPEC}`);
    expect(parseRoute(`#/specs/${SPEC}?tab=secret`)).toBeNull();
    expect(parseRoute(`#/specs/${SPEC}?tab=human&tab=agent`)).toBeNull();
    expect(parseRoute("#/plans?filter=suggested")).toBeNull();
    expect(parseRoute(`#/plans?specId=${SPEC}&projectId=${PROJECT}`)).toBeNull();
    expect(parseRoute(`#/plans?specId=${SPEC}&feature=a%20b`)).toBeNull();
    expect(parseRoute(`#/plans?specId=${SPEC}&filter=all`)).toEqual({ area: "plans", target: { specId: SPEC } });
  });

  it("names no place for unknown or malformed hashes", () => {
    for (const bad of [
      "",
      "#",
      "#/",
      "#specs",
      "#/unknown",
      "#/Specs",
      "#/specs/a/b",
      "#/specs/%E0%A4%A",
      "#/specs/has%20space",
      `#/specs/${"a".repeat(65)}`,
      "#/plans?specId=123",
      "#/plans?projectId=zz41a0c3e4b0f1a2b3c4d5aa",
      `#/plans?specId=${SPEC}&projectId=${PROJECT}`,
      `#/plans?specId=${SPEC}&specId=${SPEC}`,
      `#/plans?other=${SPEC}`,
      "#/plans?specId",
      `#/plans/${SPEC}`,
      "#/agents?specId=abc",
      "#/agents/acceptance",
      "#/agents/acceptance?url=http%3A%2F%2Fa",
      "#/agents/acceptance?specId=abc&url=",
      "#/agents/other?specId=abc",
      "#/settings?tab=keys",
      "#/settings/keys",
      "#/settings/spending/more",
      "#/settings/Spending",
      "#/agents/batches",
      "#/agents/batches/has%20space",
      "#/agents/batches/b1/more",
      "#/agents/batches/b1?task=0",
      "#/agents/batches/b1?task=-1",
      "#/agents/batches/b1?task=01",
      "#/agents/batches/b1?task=2.5",
      "#/agents/batches/b1?step=2",
      "#/agents/batches/b1?task=2&other=1",
      "#/agents/batches/b1?status=bogus",
      "#/agents/batches/b1?status=",
      "#/agents/batches/b1?q=",
      "#/agents/batches/b1?q=%20",
      `#/agents/batches/b1?q=${"x".repeat(201)}`,
      "#/agents/acceptance?specId=abc&run=job-1&url=http%3A%2F%2Fa",
      "#/agents/acceptance?specId=abc&run=a%20b",
      "#/gateway?conversation=4",
      "#/gateway/Chat",
      "#/gateway/painting",
      "#/gateway/chat/4",
      "#/gateway/chat?conversation=0",
      "#/gateway/chat?conversation=abc",
      "#/gateway/chat?model=a",
      "#/gateway/images?take=2",
      "#/gateway/video?image=2",
      "#/gateway/models?model=has%20space",
      `#/gateway/models?model=${"m".repeat(201)}`,
      "#/__proto__",
      "#/toString",
    ]) {
      expect(parseRoute(bad), bad).toBeNull();
    }
  });
});

describe("the library's list in the address", () => {
  it("writes the list after #/specs, only without a spec, and leaves the defaults out", () => {
    expect(formatRoute({ area: "specs", list: "status=failed&q=recipe" })).toBe("#/specs?q=recipe&status=failed");
    expect(formatRoute({ area: "specs", list: "" })).toBe("#/specs");
    expect(formatRoute({ area: "specs", list: "size=25&page=1" })).toBe("#/specs");
    expect(formatRoute({ area: "specs", specId: SPEC, list: "q=recipe" })).toBe(`#/specs/${SPEC}`);
  });

  it("reads the list leniently: unknown or unusable parameters are dropped, the rest kept", () => {
    expect(parseRoute("#/specs?q=recipe&x=1&tab=human")).toEqual({ area: "specs", list: "q=recipe" });
    expect(parseRoute("#/specs?status=secret&size=7&page=0&sort=price")).toEqual({ area: "specs" });
    expect(parseRoute("#/specs?q=%E0%A4%A&page=2")).toEqual({ area: "specs", list: "q=%EF%BF%BD%25A&page=2" });
    expect(parseRoute("#/specs?x=1")).toEqual({ area: "specs" });
    expect(parseRoute("#/specs?tab=human")).toEqual({ area: "specs" });
    expect(canonicalHash("#/specs/?page=2&q=a+b")).toBe("#/specs?q=a+b&page=2");
    expect(canonicalHash("#/specs?pattern=1&q=(recipe")).toBe("#/specs?pattern=1");
  });

  it("is a view of the Specs area, not another place", () => {
    expect(placeOf({ area: "specs", list: "q=recipe&page=2" })).toBe("#/specs");
  });
});

describe("routeOf and canonicalHash", () => {
  it("fall back to the Specs area", () => {
    expect(routeOf("#/nowhere")).toEqual({ area: "specs" });
    expect(routeOf("")).toEqual({ area: "specs" });
    expect(canonicalHash("")).toBe("#/specs");
    expect(canonicalHash("#/plans?specId=nope")).toBe("#/specs");
  });

  it("write each place one way", () => {
    expect(canonicalHash("#/gateway/chat")).toBe("#/gateway");
    expect(canonicalHash("#/gateway/chat/")).toBe("#/gateway");
    expect(canonicalHash("#/agents/batches/b1?step=2&task=5")).toBe("#/agents/batches/b1?task=5&step=2");
    expect(formatRoute({ area: "agents", batch: { batchId: "b1", step: 2 } })).toBe("#/agents/batches/b1");
    expect(formatRoute({ area: "agents", batch: { batchId: "" } })).toBe("#/agents");
    expect(formatRoute({ area: "gateway", studio: "video", image: 3 })).toBe("#/gateway/video");
    expect(formatRoute({ area: "gateway", studio: "chat", take: 3 })).toBe("#/gateway");
    expect(canonicalHash("#/specs/")).toBe("#/specs");
    expect(canonicalHash("/settings")).toBe("#/settings");
    expect(canonicalHash("#/agents/acceptance?url=https%3A%2F%2Fapp.example.com&specId=abc")).toBe(
      "#/agents/acceptance?specId=abc&url=https%3A%2F%2Fapp.example.com",
    );
  });
});

describe("placeOf", () => {
  it("is the place without its view", () => {
    expect(placeOf({ area: "specs", specId: SPEC, tab: "agent" })).toBe(`#/specs/${SPEC}`);
    expect(placeOf({ area: "plans", target: { specId: SPEC }, filter: "suggested", feature: "f-1" })).toBe(`#/plans?specId=${SPEC}`);
    expect(placeOf({ area: "gateway" })).toBe("#/gateway");
    // A studio, a batch, a run and a section are views of their area: the focus stays where the
    // user is (on the tab, the list) instead of going to the area's heading.
    expect(placeOf({ area: "gateway", studio: "models", model: "a/b" })).toBe("#/gateway");
    expect(placeOf({ area: "agents", batch: { batchId: "b1", task: 2 } })).toBe("#/agents");
    expect(placeOf({ area: "agents", acceptance: { specId: SPEC, run: "r1" } })).toBe(`#/agents/acceptance?specId=${SPEC}`);
    expect(placeOf({ area: "settings", section: "spending" })).toBe("#/settings");
  });
});
