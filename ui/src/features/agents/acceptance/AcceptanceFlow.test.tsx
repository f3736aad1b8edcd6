import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Channel } from "@tauri-apps/api/core";
import type { BatchEvent } from "../../../bindings/BatchEvent";
import type { SpecStatusResponse } from "../../../bindings/SpecStatusResponse";
import type { BrowserTask } from "../../../ipc/contract";
import { renderScreen } from "../../../lib/testing";
import { taskProblems } from "../../../mock/helpers";
import { AgentsScreen } from "../AgentsScreen";
import { DRAFT_STORAGE_KEY } from "../builder/model";
import { resetDraftMemory } from "../builder/useBuilderDraft";
import { loadRuns } from "./model";

const SPEC_ID = "6741a0c3e4b0f1a2b3c4d5f9";
const BATCH = "6750000000000000000000b1";
const SCOPE = {
  title: "Book Club Shelf",
  executiveSummary: "",
  coreFunctionalities: [],
  techStack: [],
  techStackGrouped: {},
  milestones: [
    {
      milestoneNumber: 1,
      description: "Accounts",
      stories: [
        { id: "1.1", title: "Sign in", acceptanceCriteria: ["The home page shows a Sign in button", "A wrong password shows an error message"], subTasks: [] },
        { id: "1.2", title: "Borrow a book", acceptanceCriteria: ["A borrowed book shows who has it"], subTasks: [] },
      ],
    },
  ],
};
const SPEC: SpecStatusResponse = { _id: SPEC_ID, specId: SPEC_ID, endpoint: "fast_spec", status: "completed", created: "2026-11-22T08:00:00Z", humanSpecJson: SCOPE };
const JOB = {
  id: 77,
  kind: "batch",
  profileId: "sandbox",
  idempotencyKey: "idem-77",
  request: {},
  remoteId: BATCH,
  status: "submitted",
  result: null,
  createdAt: "2026-11-22T08:00:00Z",
  updatedAt: "2026-11-22T08:00:00Z",
};

let channel: Channel<BatchEvent[]> | null = null;
let calls: { cmd: string; args: Record<string, unknown> }[] = [];

function ipc() {
  calls = [];
  channel = null;
  mockIPC((cmd, raw) => {
    const args = (raw ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args });
    if (cmd === "get_spec") return { spec: SPEC, offline: false, hasHumanMarkdown: true, hasAgentMarkdown: true };
    if (cmd === "credits_balance") return { profileId: "sandbox", creditsRemaining: 1000, at: "2026-11-22T08:00:00Z" };
    if (cmd === "check_tasks") return taskProblems(args.tasks as BrowserTask[], args.concurrency as number | undefined);
    if (cmd === "submit_batch") return JOB;
    if (cmd === "get_batch") return { id: BATCH, total: 2, completed: 0, results: [], totalCost: 0, totalCreditsUsed: 0, status: "processing", createdAt: "2026-11-22T08:00:00Z" };
    if (cmd === "watch_batch") {
      channel = args.onEvent as Channel<BatchEvent[]>;
      return new Promise(() => undefined);
    }
    if (cmd.startsWith("plugin:")) return 1;
    return null;
  });
}

beforeEach(() => {
  window.localStorage.clear();
  resetDraftMemory();
});
afterEach(() => {
  cleanup();
  clearMocks();
  resetDraftMemory();
});

describe("an acceptance run in the Browser agents area", () => {
  it("prefills the builder with one task per criterion, runs what the user kept, and keeps the verdicts", async () => {
    ipc();
    // The user's own batch draft is left as it is.
    const mine = { id: "r1", url: "https://shop.example", instruction: "Read the price", inputs: [], output: "", successCondition: "", timeoutMs: "", maxSteps: "", maxDurationSeconds: "", mode: "" };
    window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ version: 1, concurrency: "3", rows: [mine] }));
    renderScreen(<AgentsScreen acceptance={{ specId: SPEC_ID, url: "http://localhost:3000" }} />);
    await screen.findByRole("heading", { level: 2, name: "Check the stories of Book Club Shelf" });
    expect(screen.getByText(/^3 acceptance criteria in 2 stories\./)).toBeTruthy();
    const instructions = [1, 2, 3].map((n) => (screen.getByLabelText(`Task ${n} instruction`) as HTMLTextAreaElement).value);
    expect(instructions).toEqual([
      "Check this on the page: The home page shows a Sign in button (story: Sign in)",
      "Check this on the page: A wrong password shows an error message (story: Sign in)",
      "Check this on the page: A borrowed book shows who has it (story: Borrow a book)",
    ]);
    // The user deletes the second task before running: that criterion is left out of the run.
    fireEvent.click(screen.getByRole("button", { name: "Delete task 2" }));
    const run = () => screen.getByRole("button", { name: "Run 2 tasks" }) as HTMLButtonElement;
    await waitFor(() => expect(run().disabled).toBe(false));
    fireEvent.click(run());
    await waitFor(() => expect(channel).not.toBeNull());
    const sent = calls.find((c) => c.cmd === "submit_batch")?.args.tasks as BrowserTask[];
    expect(sent.map((t) => t.instruction)).toEqual([instructions[0], instructions[2]]);
    expect(JSON.parse(window.localStorage.getItem(DRAFT_STORAGE_KEY) ?? "null")).toEqual({ version: 1, concurrency: "3", rows: [mine] });

    // Each Channel message is applied on the next animation frame (useBatchWatch).
    await act(async () => {
      channel?.onmessage([
        { type: "taskResult", result: { taskIndex: 0, status: "SUCCESS", data: { passed: true, evidence: "A Sign in button at the top" } } },
        { type: "taskResult", result: { taskIndex: 1, status: "SUCCESS", data: { passed: false, evidence: "Only a Borrowed label" } } },
      ]);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    });
    expect(screen.getByRole("status").textContent).toBe("Running: 1 of 2 criteria pass · 1 fails");
    await act(async () => {
      channel?.onmessage([{ type: "done", batch: { id: BATCH, total: 2, completed: 2, results: [], totalCost: 0, totalCreditsUsed: 0.2, status: "completed", createdAt: "2026-11-22T08:00:00Z" } }]);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    });
    await waitFor(() => expect(loadRuns(SPEC_ID)[0]?.finished).toBe(true));
    expect(screen.getByRole("status").textContent).toBe("1 of 2 criteria pass · 1 fails");
    const stories = [...document.querySelectorAll(".acceptance-story h3")].map((h) => h.textContent);
    expect(stories).toEqual(["1.1 Sign inPasses · 1 of 1 criterion passes", "1.2 Borrow a bookFails · 0 of 1 criterion passes"]);
    const kept = loadRuns(SPEC_ID)[0];
    expect(kept).toMatchObject({
      id: BATCH,
      batchId: BATCH,
      jobId: 77,
      url: "http://localhost:3000",
      total: 2,
      tasks: ["0.0#0", "0.1#0"],
      criteria: {
        "0.0#0": { passed: true, evidence: "A Sign in button at the top", status: "SUCCESS" },
        "0.1#0": { passed: false, evidence: "Only a Borrowed label", status: "SUCCESS" },
      },
    });
  });
});
