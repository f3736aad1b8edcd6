import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Channel } from "@tauri-apps/api/core";
import type { Job, JobEvent } from "../../ipc/contract";
import { renderScreen } from "../../lib/testing";
import { Generations, jobElapsedSeconds, jobTitle } from "./Generations";

afterEach(() => {
  cleanup();
  clearMocks();
});

const T0 = "2026-11-22T08:00:00.000Z";

function job(over: Partial<Job>): Job {
  return {
    id: 1,
    kind: "spec",
    profileId: "sandbox",
    request: { depth: "fast", input: "A habit tracker with streaks", docUrls: [] },
    status: "running",
    result: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

describe("Generations", () => {
  it("follows an unfinished job live: progress, credits so far, then a link to the spec", async () => {
    let channel: Channel<JobEvent> | undefined;
    const followed: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === "list_jobs") return [job({ id: 4, createdAt: new Date(Date.now() - 65_000).toISOString(), updatedAt: new Date().toISOString() })];
      if (cmd === "follow_job") {
        const a = args as { jobId: number; onEvent: Channel<JobEvent> };
        followed.push(a.jobId);
        channel = a.onEvent;
        return new Promise(() => undefined);
      }
      if (cmd.startsWith("plugin:")) return 1;
      return null;
    });
    const navigate = vi.fn();
    renderScreen(<Generations onRefill={() => undefined} />, navigate);
    const row = await screen.findByRole("listitem", { name: "A habit tracker with streaks" });
    expect(within(row).getByText("Generating")).toBeTruthy();
    expect(within(row).getByText("Elapsed")).toBeTruthy();
    expect(within(row).getByText(/^1:0[5-7]$/)).toBeTruthy();
    await waitFor(() => expect(followed).toEqual([4]));

    const later = new Date(Date.now() + 1000).toISOString();
    act(() => {
      channel?.onmessage({
        type: "update",
        job: job({ id: 4, progress: "Drafting milestones (2 of 5)", result: { status: "processing", creditsUsed: 3.2 }, updatedAt: later }),
      });
    });
    expect(within(row).getByText("Drafting milestones (2 of 5)")).toBeTruthy();
    expect(within(row).getByText("Credits used so far")).toBeTruthy();
    expect(within(row).getByText("3.2 credits")).toBeTruthy();

    act(() => {
      channel?.onmessage({
        type: "done",
        job: job({
          id: 4,
          status: "completed",
          remoteId: "6650f1c2a9b3e4d5f6a7b8d0",
          result: { status: "completed", creditsUsed: 7.5, totalHumanHours: 14 },
          updatedAt: new Date(Date.parse(T0) + 125_000).toISOString(),
          createdAt: T0,
        }),
      });
    });
    expect(within(row).getByText("Completed")).toBeTruthy();
    expect(within(row).getByText("Took")).toBeTruthy();
    expect(within(row).getByText("2:05")).toBeTruthy();
    expect(within(row).getByText("7.5 credits")).toBeTruthy();
    expect(within(row).getByText("14 h")).toBeTruthy();
    fireEvent.click(within(row).getByRole("button", { name: "Open spec" }));
    expect(navigate).toHaveBeenCalledWith({ area: "specs", specId: "6650f1c2a9b3e4d5f6a7b8d0" });
  });

  it("shows a failed job's error and refills the composer from its request", async () => {
    mockIPC((cmd) => {
      if (cmd === "list_jobs") {
        return [
          job({
            id: 9,
            status: "failed",
            error: { kind: "failed", message: "The spec could not be generated: the model returned no milestones." },
            request: { depth: "deep", input: "A recipe app", currentContext: "Next.js app", docUrls: ["https://nextjs.org/docs"], fileName: "brief.pdf", fileSize: 1200 },
          }),
        ];
      }
      if (cmd.startsWith("plugin:")) return 1;
      return null;
    });
    const onRefill = vi.fn();
    renderScreen(<Generations onRefill={onRefill} />);
    expect(await screen.findByText("The spec could not be generated: the model returned no milestones.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Edit and try again" }));
    expect(onRefill).toHaveBeenCalledWith({
      description: "A recipe app",
      existing: true,
      context: "Next.js app",
      docUrls: "https://nextjs.org/docs",
      depth: "deep",
      file: null,
      missingFileName: "brief.pdf",
    });
  });

  it("says why an unfinished job is on hold with its next step, and drops it once the job moves on", async () => {
    let channel: Channel<JobEvent> | undefined;
    const held = "No API key is saved for this connection. Add one in Settings.";
    mockIPC((cmd, args) => {
      if (cmd === "list_jobs") return [job({ id: 5, status: "queued", error: { kind: "missingKey", message: held } })];
      if (cmd === "follow_job") {
        channel = (args as { onEvent: Channel<JobEvent> }).onEvent;
        return new Promise(() => undefined);
      }
      if (cmd.startsWith("plugin:")) return 1;
      return null;
    });
    const navigate = vi.fn();
    renderScreen(<Generations onRefill={() => undefined} />, navigate);
    const row = await screen.findByRole("listitem", { name: "A habit tracker with streaks" });
    expect(within(row).getByRole("status").querySelector("p")?.textContent).toBe(`On hold: ${held}`);
    fireEvent.click(within(row).getByRole("button", { name: "Open Settings" }));
    expect(navigate).toHaveBeenCalledWith({ area: "settings" });
    await waitFor(() => expect(channel).toBeDefined());
    act(() => {
      channel?.onmessage({ type: "update", job: job({ id: 5, status: "running", progress: "Drafting milestones (1 of 5)" }) });
    });
    expect(within(row).queryByText(/^On hold/)).toBeNull();
    expect(within(row).getByText("Drafting milestones (1 of 5)")).toBeTruthy();
  });

  it("offers a failed job's own action after a restart (the ledger keeps the whole error)", async () => {
    const calls: [string, unknown][] = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === "list_jobs") {
        return [
          job({
            id: 3,
            status: "failed",
            error: {
              kind: "insufficientCredits",
              status: 402,
              message: "You have 0 credits left and this needs about 5. Top up your balance, then try again.",
              action: { label: "Top up", url: "https://example.com/topup" },
            },
          }),
        ];
      }
      if (cmd.startsWith("plugin:")) return 1;
      return null;
    });
    renderScreen(<Generations onRefill={() => undefined} />);
    const row = await screen.findByRole("listitem", { name: "A habit tracker with streaks" });
    expect(within(row).getByRole("alert").querySelector("p")?.textContent).toBe(
      "You have 0 credits left and this needs about 5. Top up your balance, then try again.",
    );
    fireEvent.click(within(row).getByRole("button", { name: "Top up" }));
    expect(calls).toContainEqual(["open_external", { url: "https://example.com/topup" }]);
  });

  it("measures elapsed time and names jobs", () => {
    const now = Date.parse(T0) + 42_000;
    expect(jobElapsedSeconds(job({}), now)).toBe(42);
    expect(jobElapsedSeconds(job({ status: "failed", updatedAt: "2026-11-22T08:01:30.000Z" }), now)).toBe(90);
    expect(jobTitle(job({ request: { depth: "fast", input: "", fileName: "brief.md" } }))).toBe("From the file brief.md");
    expect(jobTitle(job({ id: 3, request: null }))).toBe("Spec job 3");
  });
});
