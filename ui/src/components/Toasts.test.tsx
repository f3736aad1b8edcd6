import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { toast } from "sonner";
import { useErrorToast } from "./Toasts";
import { useNotice } from "../lib/notices";
import { renderScreen } from "../lib/testing";
import type { NavTarget } from "../lib/nav";

afterEach(() => {
  act(() => toast.dismiss());
  cleanup();
  vi.useRealTimers();
});

const MISSING = { kind: "missingKey", message: "Add an API key for Work in Settings, then try again." };

/** Two buttons that raise the toasts under test, as a screen would. */
function Probe({ onUndo = () => undefined }: { onUndo?: () => void }) {
  const showError = useErrorToast();
  const showNotice = useNotice();
  return (
    <>
      <button type="button" onClick={() => showError(MISSING)}>
        Fail
      </button>
      <button type="button" onClick={() => showNotice("The draft was cleared.", { label: "Undo", run: onUndo })}>
        Clear
      </button>
    </>
  );
}

function press(name: string) {
  fireEvent.click(screen.getByRole("button", { name }));
}

/** Fake clocks, animation frames included (sonner removes a dismissed toast on the next frame). */
function fakeTimers() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date", "requestAnimationFrame", "cancelAnimationFrame"] });
}

/** Lets `ms` pass (sonner renders a new toast on the next tick). */
function tick(ms: number) {
  act(() => void vi.advanceTimersByTime(ms));
}

/** The toaster's live region: sonner's one `aria-live` section. */
function region(): HTMLElement {
  const live = document.querySelector<HTMLElement>("section[aria-live]");
  if (!live) throw new Error("no toaster region");
  return live;
}

describe("toasts", () => {
  it("shows an error once, in the one polite region, with its action, until dismissed", async () => {
    fakeTimers();
    const went: NavTarget[] = [];
    renderScreen(<Probe />, (to) => went.push(to));
    press("Fail");
    press("Fail");
    tick(0);
    expect(region().getAttribute("aria-live")).toBe("polite");
    expect(screen.getAllByText(MISSING.message)).toHaveLength(1);
    expect(screen.getByText("An API key is needed")).toBeTruthy();
    // No role of its own: the region announces it, once.
    expect(region().querySelectorAll("[role=alert], [role=status], [aria-live]")).toHaveLength(0);
    tick(120_000);
    expect(screen.getAllByText(MISSING.message)).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Open Settings" }));
    expect(went).toEqual([{ area: "settings" }]);
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    tick(1000);
    tick(1000);
    expect(screen.queryByText(MISSING.message)).toBeNull();
  });

  it("keeps a notice while focus is inside it, then lets it go", () => {
    fakeTimers();
    let undone = 0;
    renderScreen(<Probe onUndo={() => (undone += 1)} />);
    press("Clear");
    tick(0);
    const undo = screen.getByRole("button", { name: "Undo" });
    act(() => undo.focus());
    tick(60_000);
    expect(screen.getByText("The draft was cleared.")).toBeTruthy();
    act(() => undo.blur());
    tick(14_000);
    expect(screen.getByText("The draft was cleared.")).toBeTruthy();
    tick(2_000);
    tick(1_000);
    expect(screen.queryByText("The draft was cleared.")).toBeNull();
    expect(undone).toBe(0);
  });

  it("runs a notice's action and dismisses it", () => {
    fakeTimers();
    let undone = 0;
    renderScreen(<Probe onUndo={() => (undone += 1)} />);
    press("Clear");
    tick(0);
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    tick(1000);
    tick(1000);
    expect(undone).toBe(1);
    expect(screen.queryByText("The draft was cleared.")).toBeNull();
  });
});
