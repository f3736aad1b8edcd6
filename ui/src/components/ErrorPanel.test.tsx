import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { ErrorPanel } from "./ErrorPanel";
import { renderScreen } from "../lib/testing";

afterEach(() => {
  cleanup();
  clearMocks();
});

describe("ErrorPanel", () => {
  it("shows the plain message and opens the action in the system browser", async () => {
    const opened: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === "open_external") opened.push(args);
      return null;
    });
    render(
      <ErrorPanel
        error={{
          kind: "insufficientCredits",
          message: "You have run out of credits. Top up your balance, then try again.",
          action: { label: "Top up", url: "https://example.com/topup" },
        }}
      />,
    );
    expect(screen.getByRole("alert").textContent).toContain("Not enough credits");
    expect(screen.getByText("You have run out of credits. Top up your balance, then try again.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Top up" }));
    await Promise.resolve();
    expect(opened).toEqual([{ url: "https://example.com/topup" }]);
  });

  it("counts down a rate-limit wait and holds the retry until it ends", () => {
    render(<ErrorPanel error={{ kind: "rateLimited", message: "Too many requests.", retryAfterMs: 30000 }} onRetry={() => undefined} />);
    expect(screen.getByText("You can try again in 30 s.")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Try again" }) as HTMLButtonElement).disabled).toBe(true);
  });
  it("sends key and keychain problems to Settings, named for what to do there", () => {
    const went: unknown[] = [];
    renderScreen(
      <>
        <ErrorPanel error={{ kind: "keychainLocked", message: "Your keychain is locked." }} />
        <ErrorPanel error={{ kind: "invalidKey", message: "The service did not accept your API key." }} />
      </>,
      (to) => went.push(to),
    );
    fireEvent.click(screen.getByRole("button", { name: "Unlock your keychain" }));
    fireEvent.click(screen.getByRole("button", { name: "Open Settings" }));
    expect(went).toEqual([{ area: "settings" }, { area: "settings" }]);
  });
});
