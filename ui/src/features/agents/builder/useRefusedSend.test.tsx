import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, renderHook } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import type { Job } from "../../../ipc/contract";
import { useRefusedSend } from "./useRefusedSend";

const job = (id: number, over: Partial<Job> = {}): Job => ({
  id,
  kind: "batch",
  profileId: "sandbox",
  idempotencyKey: `key-${id}`,
  request: { tasks: [] },
  status: "queued",
  result: null,
  createdAt: "2026-11-27T01:00:00Z",
  updatedAt: "2026-11-27T01:00:00Z",
  ...over,
});
const NO_CREDITS = { kind: "insufficientCredits", message: "You do not have enough credits for this.", status: 402 } as const;
const sent = (jobId: number) => ({ jobId, rows: [], concurrency: "5" });
/** Lets the event subscription (a promise) settle. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));

afterEach(() => {
  cleanup();
  clearMocks();
});

describe("a sent batch's refusal", () => {
  it("comes back once, whether it came before the send's answer, with it, or after", async () => {
    mockIPC(() => null, { shouldMockEvents: true });
    const refused: number[] = [];
    const { result } = renderHook(() => useRefusedSend((s) => refused.push(s.jobId)));
    await settle();
    // Before the answer: kept until the builder watches job 7.
    await act(() => emit("job-changed", job(7, { status: "failed", error: NO_CREDITS })));
    act(() => result.current(sent(7), job(7)));
    // With the answer: job 8 had failed already.
    act(() => result.current(sent(8), job(8, { status: "failed", error: NO_CREDITS })));
    // After: job 9 fails later; said again, it is not handed back twice.
    act(() => result.current(sent(9), job(9)));
    await act(() => emit("job-changed", job(9, { status: "failed", error: NO_CREDITS })));
    await act(() => emit("job-changed", job(9, { status: "failed", error: NO_CREDITS })));
    expect(refused).toEqual([7, 8, 9]);
  });

  it("is watched no more once the service has the batch", async () => {
    mockIPC(() => null, { shouldMockEvents: true });
    const refused: number[] = [];
    const { result } = renderHook(() => useRefusedSend((s) => refused.push(s.jobId)));
    await settle();
    act(() => result.current(sent(4), job(4)));
    await act(() => emit("job-changed", job(4, { status: "running", remoteId: "batch_1" })));
    // A failure later (the batch ran) is not a refusal of what was sent.
    await act(() => emit("job-changed", job(4, { status: "failed", error: NO_CREDITS })));
    expect(refused).toEqual([]);
  });
});
