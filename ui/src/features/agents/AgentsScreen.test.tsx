import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import { renderScreen } from "../../lib/testing";
import { taskProblems } from "../../mock/helpers";
import type { CapacitySnapshot } from "../../bindings/CapacitySnapshot";
import type { BrowserTask } from "../../ipc/contract";
import { AgentsScreen } from "./AgentsScreen";
import { DRAFT_STORAGE_KEY } from "./builder/model";
import { resetDraftMemory } from "./builder/useBuilderDraft";

type Handler = (cmd: string, args: Record<string, unknown>) => unknown;

const JOB = {
  id: 41,
  kind: "batch",
  profileId: "sandbox",
  idempotencyKey: "idem-1",
  request: {},
  remoteId: "6750000000000000000000a1",
  status: "submitted",
  result: null,
  createdAt: "2026-11-22T08:00:00Z",
  updatedAt: "2026-11-22T08:00:00Z",
};

const CAPACITY: CapacitySnapshot = { totalActive: 0, maxSandboxes: 20, perUserCap: 5, pending: 0, running: 0, claimed: 0, failed: 0, utilization: 0, oldestQueuedAgeMs: 0, topUsers: [], workers: [] };

function ipc(extra: Handler = () => null, balance = 1000) {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    const answer = extra(cmd, a);
    if (answer !== null) return answer;
    if (cmd === "credits_balance") return { profileId: "sandbox", creditsRemaining: balance, at: "2026-11-22T08:00:00Z" };
    if (cmd === "check_tasks") return taskProblems(a.tasks as BrowserTask[], a.concurrency as number | undefined);
    if (cmd === "submit_batch") return JOB;
    // The batch views below the builder: an empty history, an idle service, a watch that waits.
    if (cmd === "list_batches") return { batches: [], total: 0, hasMore: false };
    if (cmd === "agent_capacity") return CAPACITY;
    if (cmd === "get_batch" || cmd === "watch_batch") return new Promise(() => undefined);
    if (cmd.startsWith("plugin:")) return 1;
    return null;
  }, { shouldMockEvents: true });
  return calls;
}

/** A draft as an earlier run of the app left it in localStorage: one row, its input names only. */
function storeDraft(inputs: { id: string; name: string }[]) {
  const row = { id: "r1", url: "https://a.example", instruction: "Sign in", inputs, output: "", successCondition: "", timeoutMs: "", maxSteps: "", maxDurationSeconds: "", mode: "" };
  window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ version: 1, concurrency: "4", rows: [row] }));
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

const run = () => screen.getByRole("button", { name: /^Run \d+ tasks?$/ }) as HTMLButtonElement;

beforeEach(() => {
  window.localStorage.clear();
  resetDraftMemory();
});
afterEach(() => {
  cleanup();
  clearMocks();
  resetDraftMemory();
});

describe("the batch builder", () => {
  it("shows a bad URL's error in its row, keeps Run off and focuses the bad cell from the count", async () => {
    const calls = ipc();
    renderScreen(<AgentsScreen />);
    expect(screen.getByRole("heading", { level: 1, name: "Browser agents" })).toBeTruthy();
    fill("Task 1 start URL", "https://example.com");
    fireEvent.click(screen.getByRole("button", { name: "Add a task" }));
    fill("Task 2 start URL", "example.com/pricing");
    const error = 'Task 2: "example.com/pricing" is not a full web address. Start it with https:// or http://.';
    expect(screen.getByText(error)).toBeTruthy();
    const url2 = screen.getByLabelText("Task 2 start URL");
    expect(url2.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(url2.getAttribute("aria-describedby") ?? "")?.textContent).toBe(error);
    expect(run().disabled).toBe(true);
    expect(screen.getByRole("button", { name: "1 task has a problem" }).parentElement?.textContent).toBe(
      "1 task has a problem. Fix it to run the batch.",
    );
    fireEvent.click(screen.getByRole("button", { name: "1 task has a problem" }));
    await waitFor(() => expect(document.activeElement).toBe(url2));
    // The authoritative check was asked too (values never sent to it).
    await waitFor(() => expect(calls.some((c) => c.cmd === "check_tasks")).toBe(true));
    expect(calls.some((c) => c.cmd === "submit_batch")).toBe(false);
  });

  it("puts check_tasks' error on its row's schema and opens the details", async () => {
    ipc((cmd, a) => {
      if (cmd !== "check_tasks") return null;
      const tasks = a.tasks as BrowserTask[];
      return tasks[0]?.output ? [{ kind: "invalidInput", field: "tasks[0].output", message: "Task 1: the output schema is not a valid JSON Schema (bad)." }] : [];
    });
    renderScreen(<AgentsScreen />);
    fill("Task 1 start URL", "https://example.com");
    fireEvent.click(screen.getByRole("button", { name: /^Task 1 details/ }));
    fill("Output JSON Schema (optional)", '{"type": "objekt"}');
    expect(await screen.findByText("Task 1: the output schema is not a valid JSON Schema (bad).")).toBeTruthy();
    expect(run().disabled).toBe(true);
    // A starter schema replaces it; the new check clears the error.
    fireEvent.click(screen.getByRole("button", { name: "Yes/no check with evidence" }));
    await waitFor(() => expect(screen.queryByText("Task 1: the output schema is not a valid JSON Schema (bad).")).toBeNull());
    expect(screen.getByText("Parses as JSON: an object with passed, evidence.")).toBeTruthy();
  });

  it("sends exactly the tasks and concurrency, then shows what was submitted", async () => {
    const calls = ipc();
    renderScreen(<AgentsScreen />);
    fill("Task 1 start URL", " https://shop.example/login ");
    fill("Task 1 instruction", "Sign in and read the order total");
    fireEvent.click(screen.getByRole("button", { name: /^Task 1 details/ }));
    fireEvent.click(screen.getByRole("button", { name: "Add an input" }));
    fill("Task 1 input 1 name", "password");
    fill("Task 1 input 1 value", "hunter2");
    const value = screen.getByLabelText("Task 1 input 1 value") as HTMLInputElement;
    expect(value.type).toBe("password");
    fireEvent.click(screen.getByRole("button", { name: "Show the value of task 1 input 1" }));
    expect(value.type).toBe("text");
    fill("Max steps", "12");
    fireEvent.click(screen.getByRole("button", { name: "Add a task" }));
    fill("Task 2 start URL", "https://example.org");
    fill("Tasks at once", "7");
    expect(screen.getByText("At least 0.2 credits for 2 tasks: every task costs 0.1 credit or more.")).toBeTruthy();
    expect(await screen.findByText("Your balance: 1,000 credits.")).toBeTruthy();
    await waitFor(() => expect(run().disabled).toBe(false));
    fireEvent.click(run());
    await waitFor(() => expect(calls.filter((c) => c.cmd === "submit_batch").map((c) => c.args)).toEqual([
      {
        tasks: [
          { url: "https://shop.example/login", instruction: "Sign in and read the order total", input: { password: "hunter2" }, maxSteps: 12 },
          { url: "https://example.org" },
        ],
        concurrency: 7,
        mode: "live",
      },
    ]));
    // check_tasks never saw the value.
    expect(JSON.stringify(calls.filter((c) => c.cmd === "check_tasks"))).not.toContain("hunter2");
    const panel = await screen.findByRole("region", { name: "Submitted" });
    expect(within(panel).getByText("The service has your batch of 2 tasks. It keeps running even if you close Specdesk.")).toBeTruthy();
    expect(within(panel).getByText("6750000000000000000000a1")).toBeTruthy();
    expect(within(panel).getByText("Sent")).toBeTruthy();
    expect(within(panel).getByText("41")).toBeTruthy();
    expect((screen.getByLabelText("Task 1 start URL") as HTMLInputElement).value).toBe("");
  });

  it("follows the batch it sent: held for want of room it says why and can be stopped", async () => {
    const calls = ipc((cmd) => {
      if (cmd === "submit_batch") return { ...JOB, remoteId: undefined, status: "queued" };
      if (cmd === "cancel_job") return { ...JOB, remoteId: undefined, status: "cancelled" };
      return null;
    });
    renderScreen(<AgentsScreen />);
    fill("Task 1 start URL", "https://example.com");
    await waitFor(() => expect(run().disabled).toBe(false));
    fireEvent.click(run());
    const panel = await screen.findByRole("region", { name: "Submitted" });
    expect(within(panel).getByText("The batch of 1 task is saved and waits to be sent; Specdesk sends it as soon as it can, even after a restart.")).toBeTruthy();
    const ROOM = "The service is already running 4,990 of your tasks and takes at most 5,000 at once. Specdesk sends this batch by itself as soon as there is room, even after a restart. You can also stop it and send fewer tasks.";
    // The job runner's broadcast after the first one comes without the request.
    await act(() => emit("job-changed", { ...JOB, remoteId: undefined, status: "queued", request: undefined, error: { kind: "rateLimited", message: ROOM, status: 429 } }));
    const held = await screen.findByRole("region", { name: "Waiting to be sent" });
    expect(within(held).getByText(ROOM)).toBeTruthy();
    expect(within(held).getByText("Waiting to be sent", { selector: "dd" })).toBeTruthy();
    fireEvent.click(within(held).getByRole("button", { name: "Stop this batch" }));
    await waitFor(() => expect(calls.filter((c) => c.cmd === "cancel_job").map((c) => c.args)).toEqual([{ jobId: 41 }]));
    await act(() => emit("job-changed", { ...JOB, remoteId: undefined, status: "cancelled" }));
    const stopped = await screen.findByRole("region", { name: "Submitted" });
    expect(within(stopped).getByText("The batch of 1 task was stopped before the service had it.")).toBeTruthy();
    expect(within(stopped).queryByRole("button", { name: "Stop this batch" })).toBeNull();
  });

  it("shows a refusal with its action and keeps the draft", async () => {
    const calls = ipc((cmd) => {
      if (cmd === "submit_batch") {
        throw { kind: "insufficientCredits", message: "Not enough credits for this batch.", action: { label: "Top up", url: "https://svc.example/top-up" } };
      }
      return null;
    });
    renderScreen(<AgentsScreen />);
    fill("Task 1 start URL", "https://example.com");
    await waitFor(() => expect(run().disabled).toBe(false));
    fireEvent.click(run());
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Not enough credits for this batch.");
    fireEvent.click(within(alert).getByRole("button", { name: "Top up" }));
    await waitFor(() => expect(calls.filter((c) => c.cmd === "open_external").map((c) => c.args)).toEqual([{ url: "https://svc.example/top-up" }]));
    expect((screen.getByLabelText("Task 1 start URL") as HTMLInputElement).value).toBe("https://example.com");
    expect(screen.queryByRole("region", { name: "Submitted" })).toBeNull();
  });

  it("says so and keeps Run off when the balance cannot cover the batch", async () => {
    ipc(() => null, 0.15);
    renderScreen(<AgentsScreen />);
    fill("Task 1 start URL", "https://a.example");
    fireEvent.click(screen.getByRole("button", { name: "Add a task" }));
    fill("Task 2 start URL", "https://b.example");
    expect(
      await screen.findByText("Your balance (0.15 credits) cannot cover the least this batch costs (0.2 credits). Top up, or run fewer tasks."),
    ).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(run().disabled).toBe(true);
  });

  it("keeps the draft as the user types, its input values in the keychain only", async () => {
    const calls = ipc();
    renderScreen(<AgentsScreen />);
    fill("Task 1 start URL", "https://example.com");
    fireEvent.click(screen.getByRole("button", { name: /^Task 1 details/ }));
    fireEvent.click(screen.getByRole("button", { name: "Add an input" }));
    fill("Task 1 input 1 name", "token");
    fill("Task 1 input 1 value", "s3cr3t-value");
    expect(screen.getByText(/Values are kept in your system keychain, never in Specdesk's files or exports\./)).toBeTruthy();
    await waitFor(() => expect(window.localStorage.getItem(DRAFT_STORAGE_KEY)).toContain('"name":"token"'));
    expect(window.localStorage.getItem(DRAFT_STORAGE_KEY)).not.toContain("s3cr3t-value");
    const inputId = (JSON.parse(window.localStorage.getItem(DRAFT_STORAGE_KEY) ?? "{}") as { rows: { inputs: { id: string }[] }[] }).rows[0]?.inputs[0]?.id ?? "";
    await waitFor(() => expect(calls.filter((c) => c.cmd === "keep_draft_values").at(-1)?.args).toEqual({ values: { [inputId]: "s3cr3t-value" } }));
    expect(window.localStorage.getItem(DRAFT_STORAGE_KEY)).toContain('"url":"https://example.com"');
  });

  it("exports the draft as JSON through save_document, input values left out", async () => {
    const calls = ipc((cmd, a) => (cmd === "save_document" ? `/home/me/Downloads/${a.fileName as string}` : null));
    renderScreen(<AgentsScreen />);
    fill("Task 1 start URL", "https://example.com");
    fireEvent.click(screen.getByRole("button", { name: /^Task 1 details/ }));
    fireEvent.click(screen.getByRole("button", { name: "Add an input" }));
    fill("Task 1 input 1 name", "token");
    fill("Task 1 input 1 value", "s3cr3t-value");
    expect(screen.getByText(/Exports leave input values out: only their names are saved\./)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Download JSON" }));
    await waitFor(() => expect(calls.filter((c) => c.cmd === "save_document").map((c) => c.args)).toEqual([
      {
        fileName: "browser-tasks.json",
        contents: '{\n  "tasks": [\n    {\n      "url": "https://example.com",\n      "input": {\n        "token": ""\n      }\n    }\n  ]\n}\n',
        choose: false,
      },
    ]));
  });

  it("after a restart, keeps the rows and takes the input values back from the keychain", async () => {
    ipc((cmd) => (cmd === "draft_values" ? { i1: "hunter2" } : null));
    storeDraft([{ id: "i1", name: "password" }, { id: "i2", name: "user" }]);
    renderScreen(<AgentsScreen />);
    expect(await screen.findByText("1 input has no value: enter it in the task details.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /^Task 1 details/ }));
    expect((screen.getByLabelText("Task 1 input 1 value") as HTMLInputElement).value).toBe("hunter2");
    expect((screen.getByLabelText("Task 1 input 2 value") as HTMLInputElement).value).toBe("");
  });

  it("after a restart with no keychain, keeps the rows and says the values are entered again", async () => {
    ipc((cmd) => {
      if (cmd === "draft_values") throw { kind: "keychainUnavailable", message: "No keychain found." };
      return null;
    });
    storeDraft([{ id: "i1", name: "password" }]);
    renderScreen(<AgentsScreen />);
    expect((screen.getByLabelText("Task 1 start URL") as HTMLInputElement).value).toBe("https://a.example");
    expect((screen.getByLabelText("Tasks at once") as HTMLInputElement).value).toBe("4");
    expect(await screen.findByText("1 input has no value: enter it in the task details.")).toBeTruthy();
    // The keychain's refusal, with its next step.
    const title = await screen.findByRole("heading", { level: 3, name: "No keychain found" });
    const alert = title.closest<HTMLElement>("[role=alert]");
    if (!alert) throw new Error("the keychain's error is not an alert");
    expect(alert.querySelector("p")?.textContent).toBe(
      "Specdesk keeps input values in your system keychain, and none answers: the input values you type here are lost when you close Specdesk.",
    );
    expect(within(alert).getAllByRole("button").map((b) => b.textContent)).toEqual(["Open Settings", "Try again"]);
  });
});
