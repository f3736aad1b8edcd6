// A call that ran on while the user was away is shown on return, from the app's activity list.
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Activity } from "../../../bindings/Activity";
import { renderScreen } from "../../../lib/testing";
import { RunningElsewhere } from "./RunningElsewhere";

afterEach(() => {
  cleanup();
  clearMocks();
});

function activity(list: Activity[]) {
  mockIPC((cmd) => {
    if (cmd === "activity") return list;
    if (cmd === "get_settings") return { activeProfileId: "sandbox", theme: "system", specPollIntervalSecs: 12, defaultSpecDepth: "fast", notifications: true, notify: { specs: true, batches: true, videos: true } };
    return null;
  });
}

const entry = (over: Partial<Activity>): Activity => ({
  id: "call-1",
  kind: "image",
  title: "A paper boat on a pond",
  state: "running",
  startedAt: new Date(Date.now() - 12_000).toISOString(),
  place: { kind: "studio", studio: "images" },
  ...over,
});

describe("RunningElsewhere", () => {
  it("lists the studio's kinds still running, with their elapsed time, and nothing else", async () => {
    activity([entry({}), entry({ id: "call-2", kind: "speech", title: "Hello team" }), entry({ id: "call-3", state: "done" })]);
    renderScreen(<RunningElsewhere kinds={["image"]} busy={false} />);
    const list = await screen.findByRole("list", { name: "Still running" });
    expect(list.textContent).toBe("Image “A paper boat on a pond”: generating · 12 s");
  });

  it("says nothing while the studio's own form waits on a call", async () => {
    activity([entry({})]);
    renderScreen(<RunningElsewhere kinds={["image"]} busy />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole("list", { name: "Still running" })).toBeNull();
  });
});
