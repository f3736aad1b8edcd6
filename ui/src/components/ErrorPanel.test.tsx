import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
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
  it("counts down a busy service's Retry-After too (a balance that could not be checked)", () => {
    render(<ErrorPanel error={{ kind: "server", status: 503, message: "Your balance could not be checked just now. Try again in a moment.", retryAfterMs: 7000 }} onRetry={() => undefined} />);
    expect(screen.getByText("You can try again in 7 s.")).toBeTruthy();
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

  it("shows a failed raise of today's cap with its title and Try again, which raises it", async () => {
    let tries = 0;
    const raised: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd !== "raise_spend_cap_today") return null;
      tries += 1;
      raised.push(args);
      if (tries === 1) throw { kind: "storage", message: "Your settings could not be saved: the disk is full." };
      return { profileId: "sandbox", date: "2026-11-25", spent: 3.75, dailyCap: 3.75, raised: 1, limit: 4.75 };
    });
    let retried = 0;
    render(
      <ErrorPanel
        error={{ kind: "spendCap", message: "Today's spend cap is reached.", spendCap: { profileId: "sandbox", spent: 3.75, underWay: 0, limit: 3.75, estimate: 0.4 } }}
        onRetry={() => (retried += 1)}
        level={2}
      />,
    );
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Today's spend cap is reached");
    fireEvent.click(screen.getByRole("button", { name: "Raise today's cap" }));
    const failed = await screen.findByRole("heading", { level: 3, name: "Local data could not be saved" });
    const panel = failed.closest(".panel-error") as HTMLElement;
    expect(panel.textContent).toContain("Your settings could not be saved: the disk is full.");
    // The form stays for another amount; the failure's Try again raises again.
    expect(screen.getByLabelText("Raise by (credits)")).toBeTruthy();
    fireEvent.click(within(panel).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Today's cap is now 4.75 credits.")).toBeTruthy();
    expect(screen.queryByText("Local data could not be saved")).toBeNull();
    expect(raised).toEqual([
      { profileId: "sandbox", credits: 1 },
      { profileId: "sandbox", credits: 1 },
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(retried).toBe(1);
  });

  it("raises the cap from inside a studio's form without sending that form (button or Enter)", async () => {
    const raised: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd !== "raise_spend_cap_today") return null;
      raised.push(args);
      return { profileId: "sandbox", date: "2026-11-25", spent: 3.75, dailyCap: 3.75, raised: 2, limit: 5.75 };
    });
    let sent = 0;
    render(
      <form
        onSubmit={(e) => {
          e.preventDefault();
          sent += 1;
        }}
      >
        <ErrorPanel
          error={{ kind: "spendCap", message: "Today's spend cap is reached.", spendCap: { profileId: "sandbox", spent: 3.75, underWay: 0, limit: 3.75, estimate: 0.4 } }}
          onRetry={() => undefined}
        />
      </form>,
    );
    const amount = screen.getByLabelText("Raise by (credits)");
    fireEvent.change(amount, { target: { value: "2" } });
    fireEvent.keyDown(amount, { key: "Enter" });
    expect(await screen.findByText("Today's cap is now 5.75 credits.")).toBeTruthy();
    expect(raised).toEqual([{ profileId: "sandbox", credits: 2 }]);
    expect(sent).toBe(0);
    expect(screen.getByRole("button", { name: "Try again" }).getAttribute("type")).toBe("button");
  });
});
