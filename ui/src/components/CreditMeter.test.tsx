// The header's balance (issue 24): read again when a job ends (a batch resumed after a relaunch
// is charged by the service while it runs, with no `credits-changed` from this app), and a small
// charge beside it reads as what it was, never "−0".
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import type { Job } from "../ipc/contract";
import { renderScreen } from "../lib/testing";
import { CreditMeter } from "./CreditMeter";

afterEach(() => {
  cleanup();
  clearMocks();
});

/** The service's balance, read by each `credits_balance`; the reads are counted. */
function service(start: number) {
  const state = { balance: start, reads: 0 };
  mockIPC(
    (cmd) => {
      if (cmd === "credits_balance") {
        state.reads += 1;
        return { profileId: "sandbox", creditsRemaining: state.balance, at: "2026-11-22T08:00:00Z" };
      }
      return null;
    },
    { shouldMockEvents: true },
  );
  return state;
}

const batch = (over: Partial<Job>): Job => ({
  id: 12,
  kind: "batch",
  profileId: "sandbox",
  request: {},
  remoteId: "b001",
  status: "running",
  progress: "3 of 4 tasks finished",
  result: null,
  createdAt: "2026-11-22T08:00:00Z",
  updatedAt: "2026-11-22T08:00:30Z",
  ...over,
});

async function shown(balance: string) {
  await waitFor(() => expect(screen.getByLabelText(`Credits remaining: ${balance}`)).toBeTruthy());
}

/** Lets the event subscriptions (asynchronous) settle. */
async function settle() {
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });
}

describe("CreditMeter", () => {
  for (const status of ["completed", "failed", "cancelled"] as const) {
    it(`reads the balance again when a job ends (${status}), not while it runs`, async () => {
      const svc = service(100);
      renderScreen(<CreditMeter />);
      await shown("100");
      await settle();
      expect(svc.reads).toBe(1);

      // The resumed batch runs; the service charges it, which this app is not told of.
      svc.balance = 96.8;
      await act(() => emit("job-changed", batch({ status: "running" })));
      await settle();
      expect(svc.reads).toBe(1);
      await shown("100");

      await act(() => emit("job-changed", batch({ status, progress: "4 of 4 tasks finished" })));
      await shown("96.8");
      expect(svc.reads).toBe(2);
    });
  }

  it("a job of another connection that ends leaves this one's balance as read", async () => {
    const svc = service(100);
    renderScreen(<CreditMeter />);
    await shown("100");
    await settle();
    svc.balance = 90;
    await act(() => emit("job-changed", batch({ status: "completed", profileId: "p_other" })));
    await settle();
    expect(svc.reads).toBe(1);
    await shown("100");
  });

  it("shows a charge under 0.005 credits beside the balance as it is, not −0", async () => {
    service(10000);
    renderScreen(<CreditMeter />);
    await shown("10,000");
    await settle();
    await act(() => emit("credits-changed", { profileId: "sandbox", creditsRemaining: 9999.996, at: "2026-11-22T08:01:00Z" }));
    await shown("9,999.996");
    expect(document.querySelector(".credits-delta")?.textContent).toBe("−0.004");
    await act(() => emit("credits-changed", { profileId: "sandbox", creditsRemaining: 9999.9956, at: "2026-11-22T08:02:00Z" }));
    // The balance keeps three decimals; the charge beside it is exact.
    await waitFor(() => expect(document.querySelector(".credits-delta")?.textContent).toBe("−0.0004"));
    await shown("9,999.996");
  });
});
