import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { PartBoundary } from "../../components/ScreenBoundary";
import { DialogBoundary } from "./DialogBoundary";
import { ShellDialogs } from "./Frame";

// The palette and help sheet of the frame, as they would fail at render.
vi.mock("./areas", () => ({
  CommandPalette: () => {
    throw new Error("palette sources are undefined");
  },
  HelpSheet: () => <p>Shortcuts</p>,
}));

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

afterEach(cleanup);

describe("the shell's boundaries outside the screens", () => {
  it("a dialog that fails says so in a dialog of its own, closes, and the screen under it stays", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    render(<Frame />);
    const dialog = screen.getByRole("dialog", { name: "The command palette stopped working" });
    expect(dialog.getAttribute("aria-describedby") && document.getElementById(dialog.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Something went wrong while showing it. Your work is saved. Close it and open it again.",
    );
    expect(document.activeElement?.textContent).toBe("Close");
    expect(screen.getByText("Details: palette sources are undefined")).toBeTruthy();
    expect(screen.getByText("Specs screen")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByText("Specs screen")).toBeTruthy();
    // Opened again, it is tried afresh (and fails the same way here).
    fireEvent.click(screen.getByRole("button", { name: "Open palette" }));
    expect(screen.getByRole("dialog", { name: "The command palette stopped working" })).toBeTruthy();
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
  it("the frame's palette failing shows its own error dialog, and the help sheet still opens", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const closed: string[] = [];
    const { rerender } = render(
      <>
        <h1>Specs</h1>
        <ShellDialogs dialog="palette" route={{ area: "specs" }} navigate={() => undefined} onClose={() => closed.push("palette")} />
      </>,
    );
    expect(await screen.findByRole("dialog", { name: "The command palette stopped working" })).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1, name: "Specs" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(closed).toEqual(["palette"]);
    rerender(
      <>
        <h1>Specs</h1>
        <ShellDialogs dialog="help" route={{ area: "specs" }} navigate={() => undefined} onClose={() => closed.push("help")} />
      </>,
    );
    expect(await screen.findByText("Shortcuts")).toBeTruthy();
    expect(screen.queryByRole("dialog", { name: "The command palette stopped working" })).toBeNull();
    quiet.mockRestore();
  });
});
