// The first usable screen is told to Rust once per launch, after its heading is rendered.
import { afterEach, describe, expect, it } from "vitest";
import { useRef, useState } from "react";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { FIRST_USABLE_MARK, useFirstUsable } from "./startup";

afterEach(() => {
  cleanup();
  clearMocks();
});

function Screen({ name }: { name: string }) {
  const ref = useRef<HTMLElement>(null);
  const [loaded, setLoaded] = useState(false);
  useFirstUsable(ref, name);
  return (
    <main ref={ref}>
      {loaded ? <h1>{name}</h1> : <p>Loading</p>}
      <button type="button" onClick={() => setLoaded(true)}>
        load
      </button>
    </main>
  );
}

describe("useFirstUsable", () => {
  it("marks and tells Rust once, when the heading arrives, and never for a later screen", async () => {
    const calls: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === "first_usable") calls.push(args);
      return null;
    });
    render(<Screen name="specs" />);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(calls).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "load" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ screen: "specs" });
    expect(performance.getEntriesByName(FIRST_USABLE_MARK, "mark")).toHaveLength(1);

    cleanup();
    render(<Screen name="plans" />);
    fireEvent.click(screen.getByRole("button", { name: "load" }));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(calls).toHaveLength(1);
  });
});
