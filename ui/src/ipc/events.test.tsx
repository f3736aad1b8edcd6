// useAppEvent: one subscription for the component's life, whatever its handler, so no event falls
// in a gap between two subscriptions or arrives twice; each reaches the latest render's handler,
// and none after the component is gone.
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, render } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import { useAppEvent } from "./events";

afterEach(() => {
  cleanup();
  clearMocks();
});

function Listener({ tag, seen }: { tag: string; seen: string[] }) {
  // A new handler on every render, as an inline arrow is.
  useAppEvent("credits-changed", (payload) => seen.push(`${tag}:${JSON.stringify(payload)}`));
  return null;
}

describe("useAppEvent", () => {
  it("keeps one subscription across re-renders and hands each event to the latest handler", async () => {
    mockIPC(() => null, { shouldMockEvents: true });
    const seen: string[] = [];
    const { rerender, unmount } = render(<Listener tag="first" seen={seen} />);
    await act(async () => {
      await Promise.resolve();
    });
    await act(async () => {
      await emit("credits-changed", { creditsRemaining: 10 });
    });
    rerender(<Listener tag="second" seen={seen} />);
    await act(async () => {
      await emit("credits-changed", { creditsRemaining: 9 });
    });
    rerender(<Listener tag="third" seen={seen} />);
    await act(async () => {
      await emit("credits-changed", { creditsRemaining: 8 });
    });
    // Each event exactly once (never twice from two subscriptions overlapping), to the handler of
    // the render it came after.
    expect(seen).toEqual(['first:{"creditsRemaining":10}', 'second:{"creditsRemaining":9}', 'third:{"creditsRemaining":8}']);
    unmount();
    await act(async () => {
      await emit("credits-changed", { creditsRemaining: 7 });
    });
    expect(seen).toHaveLength(3);
  });
});
