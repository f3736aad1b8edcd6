// The welcome's two ways out: "Explore the Sandbox" asks for a new spec (the Specs composer takes
// the focus once shown), "Add my API key" does not. Rendered as App renders the first run
// (FirstRunScreen), with nothing the frame would add: a failure is told by the screen's own toaster.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { renderBeforeFrame } from "../../lib/testing";
import { takeNewSpecRequest } from "./newSpec";
import { FirstRunScreen } from "./Welcome";

afterEach(() => {
  cleanup();
  clearMocks();
  takeNewSpecRequest();
});

function ipc(finish: () => unknown = () => null) {
  const calls: string[] = [];
  mockIPC((cmd) => {
    calls.push(cmd);
    if (cmd === "finish_welcome") return finish();
    if (cmd === "app_info") return { firstRun: false };
    if (cmd.startsWith("plugin:")) return 1;
    return null;
  });
  return calls;
}

describe("Welcome", () => {
  it("Explore the Sandbox dismisses the welcome and asks for a new spec (the composer's description)", async () => {
    const calls = ipc();
    const onDone = vi.fn();
    renderBeforeFrame(<FirstRunScreen onDone={onDone} />);
    fireEvent.click(screen.getByRole("button", { name: "Explore the Sandbox" }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(false));
    expect(calls.filter((c) => c === "finish_welcome")).toHaveLength(1);
    expect(takeNewSpecRequest()).toBe(true);
    expect(takeNewSpecRequest()).toBe(false);
  });

  it("Add my API key asks for nothing", async () => {
    ipc();
    const onDone = vi.fn();
    renderBeforeFrame(<FirstRunScreen onDone={onDone} />);
    fireEvent.click(screen.getByRole("button", { name: "Add my API key" }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(true));
    expect(takeNewSpecRequest()).toBe(false);
  });

  it("a failed dismissal leaves no request behind", async () => {
    ipc(() => {
      throw { kind: "storage", message: "Specdesk could not save its settings." };
    });
    const onDone = vi.fn();
    renderBeforeFrame(<FirstRunScreen onDone={onDone} />);
    fireEvent.click(screen.getByRole("button", { name: "Explore the Sandbox" }));
    const told = await screen.findByText("Specdesk could not save its settings.");
    expect(told.closest(".toast-card")).toBeTruthy(); // a toast of the screen's toaster
    expect(onDone).not.toHaveBeenCalled();
    expect(takeNewSpecRequest()).toBe(false);
  });
});
