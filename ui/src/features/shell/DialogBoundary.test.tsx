import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { PartBoundary } from "../../components/ScreenBoundary";
import { DialogBoundary } from "./DialogBoundary";

function Broken(): never {
  throw new Error("palette sources are undefined");
}

function Frame() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p>Specs screen</p>
      <button type="button" onClick={() => setOpen(true)}>
        Open palette
      </button>
      {open && (
        <DialogBoundary name="command palette" onClose={() => setOpen(false)}>
          <Broken />
        </DialogBoundary>
      )}
    </>
  );
}

describe("the shell's boundaries outside the screens", () => {
  it("a dialog that fails says so in a dialog of its own, closes, and the screen under it stays", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    render(<Frame />);
    const alert = screen.getByRole("alert");
    expect(alert.querySelector("h2")?.textContent).toBe("The command palette stopped working");
    expect(screen.getByText("Details: palette sources are undefined")).toBeTruthy();
    expect(screen.getByText("Specs screen")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByText("Specs screen")).toBeTruthy();
    // Opened again, it is tried afresh (and fails the same way here).
    fireEvent.click(screen.getByRole("button", { name: "Open palette" }));
    expect(screen.getByRole("alert").querySelector("h2")?.textContent).toBe("The command palette stopped working");
    quiet.mockRestore();
  });

  it("a part of the frame that fails (the toasts) is left out, and its neighbours render", () => {
    const logged: unknown[] = [];
    const quiet = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args[0]));
    render(
      <>
        <p>Navigation</p>
        <PartBoundary part="toasts">
          <Broken />
        </PartBoundary>
      </>,
    );
    expect(screen.getByText("Navigation")).toBeTruthy();
    expect(logged).toContain("The toasts failed:");
    quiet.mockRestore();
  });
});
