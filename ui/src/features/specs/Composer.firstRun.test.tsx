// The composer's first-run shortcuts: example ideas one click away, Ctrl/Cmd+Enter to send (Enter
// alone is a newline, and nothing is sent while an input method composes), and "New spec" (the
// window event) focusing the description.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { renderScreen } from "../../lib/testing";
import { dispatchNewSpec } from "../shell/newSpec";
import { Composer, EXAMPLE_IDEAS, isSendShortcut, useComposerDraft } from "./Composer";

type Call = { cmd: string; args: Record<string, unknown> };

function ipc() {
  const calls: Call[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "get_settings") {
      return { activeProfileId: "sandbox", theme: "system", specPollIntervalSecs: 12, defaultSpecDepth: "fast", notifications: true };
    }
    if (cmd === "credits_balance") return { profileId: "sandbox", creditsRemaining: 1000, at: "2026-11-22T08:00:00Z" };
    if (cmd === "submit_spec") {
      return {
        id: 7,
        kind: "spec",
        profileId: "sandbox",
        request: { depth: "fast", input: (a.draft as { input: string }).input, docUrls: [] },
        status: "submitted",
        result: null,
        createdAt: "2026-11-22T08:00:00.000Z",
        updatedAt: "2026-11-22T08:00:00.000Z",
      };
    }
    if (cmd.startsWith("plugin:")) return 1;
    return null;
  });
  return calls;
}

function Harness() {
  const [draft, setDraft] = useComposerDraft();
  return <Composer draft={draft} onChange={setDraft} />;
}

const HABITS = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";
const description = () => screen.getByLabelText("What do you want to build?") as HTMLTextAreaElement;
const sent = (calls: Call[]) => calls.filter((c) => c.cmd === "submit_spec").map((c) => c.args.draft);

beforeEach(() => {
  window.localStorage.clear();
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  clearMocks();
});

describe("example ideas", () => {
  it("offers three ideas while the description is empty; one click fills it and focuses it", () => {
    ipc();
    renderScreen(<Harness />);
    const group = screen.getByRole("group", { name: "Or start from an example:" });
    expect(within(group).getAllByRole("button").map((b) => b.textContent)).toEqual([
      "A habit tracker for small teams",
      "Bookings for a climbing gym",
      "A shared shopping list",
    ]);
    expect(EXAMPLE_IDEAS[0]?.text).toBe(HABITS);

    fireEvent.click(within(group).getByRole("button", { name: "A habit tracker for small teams" }));
    expect(description().value).toBe(HABITS);
    expect(document.activeElement).toBe(description());
    // Gone once there is a description: an idea never replaces what the user wrote.
    expect(screen.queryByRole("group", { name: "Or start from an example:" })).toBeNull();
    fireEvent.change(description(), { target: { value: "" } });
    expect(screen.getByRole("group", { name: "Or start from an example:" })).toBeTruthy();
  });

  it("fills each idea's own text", () => {
    ipc();
    renderScreen(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Bookings for a climbing gym" }));
    expect(description().value).toBe(
      "A booking app for a climbing gym: members reserve time slots, staff set the capacity of each slot, and everyone gets a reminder the day before.",
    );
  });
});

describe("sending from the keyboard", () => {
  it("Ctrl+Enter sends the draft", async () => {
    const calls = ipc();
    renderScreen(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "A habit tracker for small teams" }));
    fireEvent.keyDown(description(), { key: "Enter", code: "Enter", ctrlKey: true });
    await waitFor(() => expect(sent(calls)).toEqual([{ depth: "fast", input: HABITS, docUrls: [] }]));
    expect(await screen.findByText("Your spec is being generated. It keeps going even if you close Specdesk.")).toBeTruthy();
    await waitFor(() => expect(description().value).toBe(""));
  });

  it("Cmd+Enter sends too, from any field of the form", async () => {
    const calls = ipc();
    renderScreen(<Harness />);
    fireEvent.change(description(), { target: { value: "A volunteer rota" } });
    fireEvent.keyDown(screen.getByLabelText("Documentation links (optional)"), { key: "Enter", metaKey: true });
    await waitFor(() => expect(sent(calls)).toEqual([{ depth: "fast", input: "A volunteer rota", docUrls: [] }]));
  });

  it("Enter alone, Shift+Enter and Alt+Enter never send", async () => {
    const calls = ipc();
    renderScreen(<Harness />);
    fireEvent.change(description(), { target: { value: "A volunteer rota" } });
    fireEvent.keyDown(description(), { key: "Enter" });
    fireEvent.keyDown(description(), { key: "Enter", shiftKey: true });
    fireEvent.keyDown(description(), { key: "Enter", ctrlKey: true, altKey: true });
    fireEvent.keyDown(description(), { key: "Enter", ctrlKey: true, shiftKey: true });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(sent(calls)).toEqual([]);
  });

  it("never sends while an input method is composing (isComposing, or keyCode 229)", async () => {
    const calls = ipc();
    renderScreen(<Harness />);
    fireEvent.change(description(), { target: { value: "日本語のアプリ" } });
    fireEvent.keyDown(description(), { key: "Enter", ctrlKey: true, isComposing: true });
    fireEvent.keyDown(description(), { key: "Enter", ctrlKey: true, keyCode: 229 });
    fireEvent.keyDown(description(), { key: "Enter", isComposing: true });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(sent(calls)).toEqual([]);
    // Once the composition ends, Ctrl+Enter sends.
    fireEvent.keyDown(description(), { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(sent(calls)).toEqual([{ depth: "fast", input: "日本語のアプリ", docUrls: [] }]));
  });

  it("Ctrl+Enter on an empty draft checks it like Generate, and sends nothing", async () => {
    const calls = ipc();
    renderScreen(<Harness />);
    fireEvent.keyDown(description(), { key: "Enter", ctrlKey: true });
    expect(await screen.findByText("Describe what you want to build, or attach a file that describes it.")).toBeTruthy();
    expect(sent(calls)).toEqual([]);
  });

  it("isSendShortcut: the rule itself", () => {
    const k = { ctrlKey: false, metaKey: false };
    expect(isSendShortcut({ ...k, key: "Enter", ctrlKey: true })).toBe(true);
    expect(isSendShortcut({ ...k, key: "Enter", metaKey: true })).toBe(true);
    expect(isSendShortcut({ ...k, key: "Enter" })).toBe(false);
    expect(isSendShortcut({ ...k, key: "a", ctrlKey: true })).toBe(false);
    expect(isSendShortcut({ ...k, key: "Enter", ctrlKey: true, isComposing: true })).toBe(false);
    expect(isSendShortcut({ ...k, key: "Enter", metaKey: true, keyCode: 229 })).toBe(false);
    expect(isSendShortcut({ ...k, key: "Enter", ctrlKey: true, shiftKey: true })).toBe(false);
    expect(isSendShortcut({ ...k, key: "Enter", ctrlKey: true, altKey: true })).toBe(false);
  });
});

describe("New spec", () => {
  it("the window event focuses the description and is answered (preventDefault)", () => {
    ipc();
    renderScreen(<Harness />);
    expect(document.activeElement).not.toBe(description());
    let answered = false;
    act(() => {
      answered = dispatchNewSpec();
    });
    expect(answered).toBe(true);
    expect(document.activeElement).toBe(description());
  });

  it("is not answered once the composer is gone", () => {
    ipc();
    const { unmount } = renderScreen(<Harness />);
    unmount();
    expect(dispatchNewSpec()).toBe(false);
  });
});
