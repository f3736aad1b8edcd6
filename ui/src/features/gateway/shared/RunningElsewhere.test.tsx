// A call that ran on while the user was away is shown on return, from the app's activity list.
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Activity } from "../../../bindings/Activity";
import { renderScreen } from "../../../lib/testing";
import { RunningElsewhere } from "./RunningElsewhere";

afterEach(() => {
  cleanup();
  clearMocks();
});

/** The app's activity list is `list`; resolves the count of its reads. */
function activity(list: Activity[]) {
  const read = { count: 0 };
  mockIPC((cmd) => {
    if (cmd === "activity") {
      read.count += 1;
      return list;
    }
    if (cmd === "get_settings") return { activeProfileId: "sandbox", theme: "system", specPollIntervalSecs: 12, defaultSpecDepth: "fast", notifications: true, notify: { specs: true, batches: true, videos: true } };
    return null;
  });
  return read;
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
    const read = activity([entry({})]);
    renderScreen(<RunningElsewhere kinds={["image"]} busy />);
    // The list was read (and holds a running image): still nothing is said.
    await waitFor(() => expect(read.count).toBeGreaterThan(0));
    await act(async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    });
    expect(screen.queryByRole("list", { name: "Still running" })).toBeNull();
  });
});
