import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import type { Batch } from "../../../bindings/Batch";
import type { Job } from "../../../ipc/contract";
import { renderScreen } from "../../../lib/testing";
import { BatchHistory, PROGRESS_REFRESH_MS } from "./BatchHistory";
import { CapacityGauge } from "./CapacityGauge";

function batch(k: number): Batch {
  return {
    id: `b${String(k).padStart(3, "0")}`,
    total: 2,
    completed: 2,
    results:
      k === 0
        ? [
            { url: "https://a.example", status: "SUCCESS", cost: 0.01, creditsUsed: 0.1, durationMs: 1 },
            { url: "https://b.example", status: "BLOCKED", cost: 0.01, creditsUsed: 0.1, durationMs: 1 },
          ]
        : [],
    totalCost: 0.02,
    totalCreditsUsed: 0.25,
    status: k === 1 ? "processing" : "completed",
    createdAt: new Date(Date.UTC(2026, 10, 22, 12 - k)).toISOString(),
  };
}
const ALL = Array.from({ length: 23 }, (_, k) => batch(k));

function ipc() {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  mockIPC(
    (cmd, raw) => {
      const a = (raw ?? {}) as { limit: number; skip: number; status?: string };
      calls.push({ cmd, args: raw as Record<string, unknown> });
      if (cmd === "list_batches") {
        const all = ALL.filter((b) => !a.status || b.status === a.status);
        return { batches: all.slice(a.skip, a.skip + a.limit), total: all.length, hasMore: a.skip + a.limit < all.length };
      }
      if (cmd === "agent_capacity")
        return { totalActive: 50, maxSandboxes: 50, perUserCap: 10, pending: 7, running: 50, claimed: 0, failed: 0, utilization: 1, oldestQueuedAgeMs: 8400, topUsers: [], workers: [] };
      return null;
    },
    { shouldMockEvents: true },
  );
  return calls;
}

const batchJob = (over: Partial<Job> = {}): Job => ({
  id: 4,
  kind: "batch",
  profileId: "sandbox",
  request: {},
  status: "submitted",
  result: null,
  createdAt: "2026-11-22T08:00:00Z",
  updatedAt: "2026-11-22T08:00:00Z",
  ...over,
});

afterEach(() => {
  cleanup();
  clearMocks();
});

describe("BatchHistory", () => {
  it("lists batches newest first in pages, with totals, a status filter and Open", async () => {
    const calls = ipc();
    const onOpen = vi.fn();
    renderScreen(<BatchHistory onOpen={onOpen} />);
    const table = await screen.findByRole("table", { name: "Batches, newest first" });
    expect(within(table).getAllByRole("row")).toHaveLength(11);
    expect(screen.getByText("Batches 1–10 of 23 · 20 tasks · 2.5 credits on this page")).toBeTruthy();
    expect(screen.getByText("Page 1 of 3")).toBeTruthy();
    const first = within(table).getAllByRole("row")[1] as HTMLElement;
    expect(within(first).getAllByRole("cell").slice(1, 6).map((c) => c.textContent)).toEqual(["b000", "Completed", "2 of 2", "1", "0.25"]);

    fireEvent.click(screen.getByRole("button", { name: "Next page" }));
    await screen.findByText("Page 2 of 3");
    expect(calls.filter((c) => c.cmd === "list_batches").map((c) => c.args)).toEqual([
      { limit: 10, skip: 0 },
      { limit: 10, skip: 10 },
    ]);

    fireEvent.change(screen.getByLabelText("Batches per page"), { target: { value: "25" } });
    await screen.findByText("Batches 1–23 of 23 · 46 tasks · 5.75 credits on this page");
    expect(screen.getByRole("button", { name: "Next page" })).toHaveProperty("disabled", true);

    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "processing" } });
    await screen.findByText("Batches 1–1 of 1 · 2 tasks · 0.25 credits on this page");
    expect(calls.filter((c) => c.cmd === "list_batches").at(-1)?.args).toEqual({ limit: 25, skip: 0, status: "processing" });
    fireEvent.click(screen.getByRole("button", { name: "Open batch b001" }));
    expect(onOpen).toHaveBeenCalledWith("b001");
  });
});

describe("BatchHistory offline", () => {
  it("lists the batches kept on this computer under the error, each opening its kept timeline", async () => {
    const finished = (id: number, remoteId: string, createdAt: string) =>
      batchJob({ id, remoteId, status: "completed", result: { id: remoteId, total: 3, completed: 3, results: [], totalCost: 0.03, totalCreditsUsed: 0.3, status: "completed", createdAt, completedAt: createdAt } });
    const calls: string[] = [];
    mockIPC((cmd, raw) => {
      calls.push(cmd);
      if (cmd === "list_batches") throw { kind: "network", message: "Specdesk could not reach the service. Check your connection, then try again." };
      if (cmd === "list_jobs") {
        expect(raw).toEqual({ kind: "batch", limit: 50 });
        // Newest first: one finished here, one still waiting to be sent (nothing kept), one finished.
        return [finished(9, "b009", "2026-11-22T09:00:00Z"), batchJob({ id: 8, status: "queued" }), finished(7, "b007", "2026-11-22T07:00:00Z")];
      }
      return null;
    });
    const onOpen = vi.fn();
    renderScreen(<BatchHistory onOpen={onOpen} />);
    await screen.findByText("Specdesk could not reach the service. Check your connection, then try again.");
    const kept = await screen.findByRole("region", { name: "Kept on this computer" });
    expect(within(kept).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      expect.stringContaining("b0093 of 3 tasksOpen"),
      expect.stringContaining("b0073 of 3 tasksOpen"),
    ]);
    fireEvent.click(within(kept).getByRole("button", { name: "Open batch b007" }));
    expect(onOpen).toHaveBeenCalledWith("b007");
    expect(calls.filter((c) => c === "list_jobs")).toHaveLength(1);
  });
});

describe("BatchHistory and the job runner's broadcasts", () => {
  it("refreshes at once when a batch is sent, named or finished, and its progress at most every 2 s", async () => {
    const calls = ipc();
    renderScreen(<BatchHistory onOpen={() => undefined} />);
    await screen.findByRole("table", { name: "Batches, newest first" });
    const lists = () => calls.filter((c) => c.cmd === "list_batches").length;
    expect(lists()).toBe(1);
    await act(() => emit("job-changed", batchJob()));
    await waitFor(() => expect(lists()).toBe(2));
    await act(() => emit("job-changed", batchJob({ status: "running", remoteId: "b001", progress: "0 of 2 tasks finished" })));
    await waitFor(() => expect(lists()).toBe(3));
    // A task finished, then another, then a third: one refresh for all of them, later.
    for (const n of [1, 2, 3]) await act(() => emit("job-changed", batchJob({ status: "running", remoteId: "b001", progress: `${n} of 4 tasks finished` })));
    expect(lists()).toBe(3);
    await waitFor(() => expect(lists()).toBe(4), { timeout: PROGRESS_REFRESH_MS + 1500 });
    await act(() => emit("job-changed", batchJob({ status: "completed", remoteId: "b001", progress: "4 of 4 tasks finished" })));
    await waitFor(() => expect(lists()).toBe(5));
  });
});

describe("CapacityGauge", () => {
  it("shows the gauge and what it means for the wait", async () => {
    ipc();
    renderScreen(<CapacityGauge />);
    expect(await screen.findByText("All workers are busy; a new task waits about 8 s to start.")).toBeTruthy();
    const meter = screen.getByRole("meter", { name: "Utilization" });
    expect(meter.getAttribute("aria-valuenow")).toBe("100");
    const facts = [...document.querySelectorAll(".capacity-facts .stat")].map((s) => s.textContent);
    expect(facts).toEqual(["In flight50 of 50", "Queued7", "Utilization100%", "Oldest queued8.4 s"]);
    await waitFor(() => expect(screen.getByText("You can run up to 10 tasks at once.")).toBeTruthy());
  });
});
