import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { Channel } from "@tauri-apps/api/core";
import type { Batch } from "../../../bindings/Batch";
import type { BatchEvent } from "../../../bindings/BatchEvent";
import type { TaskEvent } from "../../../bindings/TaskEvent";
import { renderRouted, renderScreen } from "../../../lib/testing";
import { useNavigate, type NavOptions, type NavTarget } from "../../../lib/nav";
import { BatchView } from "./BatchView";

const ID = "6750aaaa0000000000000010";
type Call = { cmd: string; args: Record<string, unknown> };

const FINAL: Batch = {
  id: ID,
  total: 3,
  completed: 3,
  results: [
    { url: "https://a.example", instruction: "Read the price", input: { password: "s3cret" }, status: "SUCCESS", data: [{ name: "Mug", price: 6 }, { name: "Cup", price: 4 }], cost: 0.01, creditsUsed: 0.1, durationMs: 2000 },
    { url: "https://b.example", status: "TIMEOUT", cost: 0.02, creditsUsed: 0.2, durationMs: 240000, error: "No result after 240 s" },
    { url: "https://c.example", status: "NO_TARGET", cost: 0.03, creditsUsed: 0.3, durationMs: 900 },
  ],
  totalCost: 0.06,
  totalCreditsUsed: 0.6,
  status: "completed",
  createdAt: "2026-11-22T09:00:00Z",
  completedAt: "2026-11-22T09:05:00Z",
};

let channels: Channel<BatchEvent[]>[] = [];
let calls: Call[] = [];
let failWatch = false;

function ipc() {
  calls = [];
  channels = [];
  mockIPC((cmd, raw) => {
    const args = (raw ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args });
    if (cmd === "get_batch") return { ...FINAL, status: "processing", completed: 0, results: [], totalCreditsUsed: 0 };
    if (cmd === "watch_batch") {
      channels.push(args.onEvent as Channel<BatchEvent[]>);
      if (failWatch) return Promise.reject({ kind: "network", message: "The connection to the service was lost." });
      return new Promise(() => undefined);
    }
    if (cmd === "save_document") return `/home/me/${args.fileName as string}`;
    return null;
  });
}

const te = (event: TaskEvent): BatchEvent => ({ type: "taskEvent", event });
/** Sends a Channel message and lets the next animation frame apply it (useBatchWatch). */
async function send(frame: BatchEvent[]) {
  const ch = channels[channels.length - 1];
  await act(async () => {
    ch?.onmessage(frame);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  });
}

const counts = () =>
  within(screen.getByRole("list", { name: "Tasks by status" }))
    .getAllByRole("listitem")
    .map((li) => li.textContent?.replace(/\s+/g, " ").trim());

beforeEach(() => {
  failWatch = false;
  // jsdom has no layout: give the virtual lists a size so they render rows.
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 480 });
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 800 });
  Element.prototype.scrollTo = () => undefined;
});
afterEach(() => {
  cleanup();
  clearMocks();
});

/** The batch view as the Browser agents area mounts it: its task, step and filter from the route. */
function RoutedBatch({ route }: { route: NavTarget }) {
  const navigate = useNavigate();
  return (
    <BatchView
      target={{ batchId: ID }}
      place={route.area === "agents" ? route.batch : undefined}
      onPlace={(batchId, at) => navigate({ area: "agents", batch: { batchId, ...at } }, { replace: true })}
    />
  );
}

describe("BatchView", () => {
  it("shows a live batch frame by frame, then polling, then the finished outcome with failures", async () => {
    ipc();
    renderScreen(<BatchView target={{ batchId: ID }} />);
    await waitFor(() => expect(channels).toHaveLength(1));
    expect(calls.find((c) => c.cmd === "watch_batch")?.args).toMatchObject({ batchId: ID });
    await waitFor(() => expect(counts()[0]).toBe("Queued 3"));

    await send([
      te({ taskIndex: 0, timestamp: 1000, type: "sandbox", status: "starting" }),
      te({ taskIndex: 0, timestamp: 1400, type: "navigation", url: "https://a.example", title: "Shop" }),
      te({ taskIndex: 1, timestamp: 1500, type: "sandbox", status: "starting" }),
    ]);
    expect(screen.getByRole("status", { name: "" }).textContent).toContain("Live — events arrive as the agents work.");
    expect(counts()).toEqual(["Queued 1", "Running 2", "Succeeded 0", "Total 3", "Credits when the batch ends"]);

    await send([{ type: "polling", batchId: ID, reason: "stream stalled" }]);
    expect(screen.getByRole("status", { name: "" }).textContent).toBe(
      "Following by polling — progress is read every few seconds. Reason: stream stalled",
    );
    await send([{ type: "live", batchId: ID }]);
    expect(screen.getByRole("status", { name: "" }).textContent).toBe(
      "Live again — the live connection is back; nothing was lost while progress was read by polling.",
    );

    await send([
      te({ taskIndex: 0, timestamp: 3000, type: "done", status: "SUCCESS", durationMs: 2000 }),
      { type: "taskResult", result: { taskIndex: 0, status: "SUCCESS", data: FINAL.results[0]?.data ?? null } },
      te({ taskIndex: 1, timestamp: 9000, type: "error", status: "TIMEOUT", error: "No result after 240 s", durationMs: 240000 }),
      { type: "taskResult", result: { taskIndex: 1, status: "TIMEOUT", data: null } },
      { type: "taskResult", result: { taskIndex: 2, status: "NO_TARGET", data: null } },
      { type: "done", batch: FINAL },
    ]);
    expect(screen.getByText(/^Finished/).textContent).toBe(
      "Finished — every task has ended; this is the batch's full record. The live connection dropped on the way and came back; nothing lost.",
    );
    const alert = screen.getByRole("alert");
    expect(within(alert).getByRole("heading").textContent).toBe("⚠ 2 of 3 tasks did not succeed.");
    expect(alert.textContent).toContain("1 timed out, 1 nothing to act on.");
    expect(counts()).toEqual(["Succeeded 1", "Timed out 1", "Nothing to act on 1", "Did not succeed 2", "Total 3", "Credits 0.6"]);
    expect(screen.queryByText(/All .* succeeded/)).toBeNull();
  });

  it("says so plainly when every task succeeded", async () => {
    ipc();
    renderScreen(<BatchView target={{ batchId: ID }} />);
    await waitFor(() => expect(channels).toHaveLength(1));
    const ok = { ...FINAL, results: FINAL.results.map((r) => ({ ...r, status: "SUCCESS" })) };
    await send([{ type: "done", batch: ok }]);
    expect(screen.getByRole("heading", { name: "All 3 tasks succeeded." })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("opens a task: its status explained, data as a table, the timeline and screenshots selecting each other", async () => {
    ipc();
    renderScreen(<BatchView target={{ batchId: ID }} />);
    await waitFor(() => expect(channels).toHaveLength(1));
    await send([
      te({ taskIndex: 0, timestamp: 1000, type: "sandbox", status: "starting" }),
      te({ taskIndex: 0, timestamp: 1200, type: "screenshot", mimeType: "image/png", chunkIndex: 0, chunkCount: 2, data: "AAAA" }),
      te({ taskIndex: 0, timestamp: 1200, type: "screenshot", mimeType: "image/png", chunkIndex: 1, chunkCount: 2, data: "BBBB" }),
      te({ taskIndex: 0, timestamp: 1500, type: "plan", actions: [{ type: "click", selector: "#buy" }], notes: "Open the product", done: false, captchaDetected: false }),
      te({ taskIndex: 0, timestamp: 1800, type: "screenshot", mimeType: "image/png", chunkIndex: 0, chunkCount: 1, data: "CCCC" }),
      te({ taskIndex: 0, timestamp: 2100, type: "validation", ok: true }),
      { type: "done", batch: FINAL },
    ]);
    const tasks = screen.getByRole("listbox", { name: "Tasks" });
    fireEvent.keyDown(tasks, { key: "ArrowDown" });
    expect(screen.getByRole("heading", { level: 3, name: "Task 1" })).toBeTruthy();
    fireEvent.keyDown(tasks, { key: "ArrowDown" });
    expect(screen.getByRole("heading", { level: 3, name: "Task 2" })).toBeTruthy();
    expect(screen.getByText(/The task ran out of time before reaching its goal/)).toBeTruthy();
    expect(screen.getByText("The service said: No result after 240 s")).toBeTruthy();
    fireEvent.keyDown(tasks, { key: "Home" });

    const table = screen.getByRole("table", { name: "Data as a table, 2 rows" });
    expect(within(table).getAllByRole("row").map((r) => r.textContent)).toEqual(["#nameprice", "1Mug6", "2Cup4"]);
    fireEvent.click(screen.getByRole("button", { name: "Tree" }));
    expect(screen.getByRole("list", { name: "Data as a tree" })).toBeTruthy();

    const steps = screen.getByRole("listbox", { name: "Steps" });
    const stepTexts = within(steps).getAllByRole("option").map((o) => o.textContent);
    expect(stepTexts).toEqual([
      "•Browser Starting a browser+0.0 s",
      "•Screenshot +0.2 s",
      "•Plan Open the productclick #buy+0.5 s",
      "•Screenshot +0.8 s",
      "✓Validation The data matches the output schema.+1.1 s",
    ]);
    // Following the latest: the last step and the last screenshot.
    const viewer = screen.getByRole("group", { name: /^Screenshot 2 of 2/ });
    expect(within(viewer).getByRole("img").getAttribute("src")).toBe("data:image/png;base64,CCCC");
    // A step selects the last screenshot at or before it.
    fireEvent.click(within(steps).getAllByRole("option")[2] as HTMLElement);
    expect(within(screen.getByRole("group", { name: /^Screenshot 1 of 2/ })).getByRole("img").getAttribute("src")).toBe("data:image/png;base64,AAAABBBB");
    // The keyboard steps through screenshots, and a screenshot selects its step.
    fireEvent.keyDown(screen.getByRole("group", { name: /^Screenshot 1 of 2/ }), { key: "End" });
    expect(within(steps).getAllByRole("option")[3]?.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(screen.getByRole("listbox", { name: "Film strip" }), { key: "ArrowLeft" });
    expect(within(steps).getAllByRole("option")[1]?.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("option", { name: /^Screenshot 1/ }).getAttribute("aria-selected")).toBe("true");
  });

  it("exports CSV and JSON through save_document without input values", async () => {
    ipc();
    renderScreen(<BatchView target={{ batchId: ID }} />);
    await waitFor(() => expect(channels).toHaveLength(1));
    await send([{ type: "done", batch: FINAL }]);
    fireEvent.click(screen.getByRole("button", { name: "Export CSV…" }));
    expect(await screen.findByText("Saved to /home/me/batch-6750aaaa-results.csv")).toBeTruthy();
    await waitFor(() => expect((screen.getByRole("button", { name: "Export JSON…" }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole("button", { name: "Export JSON…" }));
    await waitFor(() => expect(calls.filter((c) => c.cmd === "save_document")).toHaveLength(2));
    const saves = calls.filter((c) => c.cmd === "save_document").map((c) => c.args);
    expect(saves.map((a) => [a.fileName, a.choose])).toEqual([
      ["batch-6750aaaa-results.csv", true],
      ["batch-6750aaaa-results.json", true],
    ]);
    expect(String(saves[0]?.contents).split("\r\n")[2]).toBe("2,https://b.example,,TIMEOUT,240000,0.2,0.02,No result after 240 s,");
    expect(JSON.parse(String(saves[1]?.contents)).totalCreditsUsed).toBe(0.6);
    for (const a of saves) expect(String(a.contents)).not.toContain("s3cret");
  });

  it("shows a failed watch with Try again, which watches anew", async () => {
    failWatch = true;
    ipc();
    renderScreen(<BatchView target={{ batchId: ID }} />);
    expect(await screen.findByRole("heading", { name: "No connection to the service" })).toBeTruthy();
    expect(screen.getByText("The connection to the service was lost.")).toBeTruthy();
    failWatch = false;
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(calls.filter((c) => c.cmd === "watch_batch")).toHaveLength(2));
    expect(calls.filter((c) => c.cmd === "cancel_stream")).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole("heading", { name: "No connection to the service" })).toBeNull());
  });

  it("opens the task and step its address names, and writes the ones the user picks into it", async () => {
    ipc();
    const went: [NavTarget, NavOptions | undefined][] = [];
    renderRouted({ area: "agents", batch: { batchId: ID, task: 1, step: 3 } }, (route) => <RoutedBatch route={route} />, (to, o) => went.push([to, o]));
    await waitFor(() => expect(channels).toHaveLength(1));
    await send([
      te({ taskIndex: 0, timestamp: 1000, type: "sandbox", status: "starting" }),
      te({ taskIndex: 0, timestamp: 1200, type: "screenshot", mimeType: "image/png", chunkIndex: 0, chunkCount: 1, data: "AAAA" }),
      te({ taskIndex: 0, timestamp: 1500, type: "plan", actions: [{ type: "click", selector: "#buy" }], notes: "Open the product", done: false, captchaDetected: false }),
      te({ taskIndex: 0, timestamp: 1800, type: "screenshot", mimeType: "image/png", chunkIndex: 0, chunkCount: 1, data: "CCCC" }),
      { type: "done", batch: FINAL },
    ]);
    expect(screen.getByRole("heading", { level: 3, name: "Task 1" })).toBeTruthy();
    // Step 3 (the plan), not the latest, with the screenshot taken at or before it.
    const steps = screen.getByRole("listbox", { name: "Steps" });
    await waitFor(() => expect(within(steps).getAllByRole("option")[2]?.getAttribute("aria-selected")).toBe("true"));
    expect(within(screen.getByRole("group", { name: /^Screenshot 1 of 2/ })).getByRole("img").getAttribute("src")).toBe("data:image/png;base64,AAAA");
    expect(went).toEqual([]);

    fireEvent.click(within(steps).getAllByRole("option")[3] as HTMLElement);
    fireEvent.keyDown(screen.getByRole("listbox", { name: "Tasks" }), { key: "ArrowDown" });
    expect(screen.getByRole("heading", { level: 3, name: "Task 2" })).toBeTruthy();
    expect(went).toEqual([
      [{ area: "agents", batch: { batchId: ID, task: 1, step: 4 } }, { replace: true }],
      [{ area: "agents", batch: { batchId: ID, task: 2 } }, { replace: true }],
    ]);
  });

  it("filters the tasks by a count or a search, kept in the address; the keys move through what is shown", async () => {
    ipc();
    const went: NavTarget[] = [];
    renderRouted({ area: "agents", batch: { batchId: ID } }, (route) => <RoutedBatch route={route} />, (to) => went.push(to));
    await waitFor(() => expect(channels).toHaveLength(1));
    await send([{ type: "done", batch: FINAL }]);
    const rows = () => within(screen.getByRole("listbox", { name: "Tasks" })).getAllByRole("option").map((o) => o.querySelector(".task-row-url")?.textContent);
    expect(rows()).toEqual(["https://a.example", "https://b.example", "https://c.example"]);

    fireEvent.click(screen.getByRole("button", { name: /^Did not succeed/ }));
    expect(rows()).toEqual(["https://b.example", "https://c.example"]);
    expect(screen.getByText("2 of 3 tasks: did not succeed")).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Did not succeed/ }).getAttribute("aria-pressed")).toBe("true");
    // Down from nothing selected picks the first shown, then the next shown (task 3, not 2 + 1 of the batch).
    const list = screen.getByRole("listbox", { name: "Tasks" });
    fireEvent.keyDown(list, { key: "ArrowDown" });
    fireEvent.keyDown(list, { key: "ArrowDown" });
    expect(screen.getByRole("heading", { level: 3, name: "Task 3" })).toBeTruthy();

    fireEvent.change(screen.getByLabelText("Search tasks"), { target: { value: "240 " } });
    expect(rows()).toEqual(["https://b.example"]);
    expect(screen.getByText("1 of 3 tasks: did not succeed, matching “240”")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /^Timed out/ }));
    expect(rows()).toEqual(["https://b.example"]);
    fireEvent.click(screen.getByRole("button", { name: /^Succeeded/ }));
    expect(screen.getByText("No task matches. Choose another status or search, or Show every task.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Show every task" }));
    expect(rows()).toHaveLength(3);
    expect(went).toEqual([
      { area: "agents", batch: { batchId: ID, status: "failed" } },
      { area: "agents", batch: { batchId: ID, status: "failed", task: 2 } },
      { area: "agents", batch: { batchId: ID, status: "failed", task: 3 } },
      { area: "agents", batch: { batchId: ID, status: "failed", q: "240", task: 3 } },
      { area: "agents", batch: { batchId: ID, status: "TIMEOUT", q: "240", task: 3 } },
      { area: "agents", batch: { batchId: ID, status: "SUCCESS", q: "240", task: 3 } },
      { area: "agents", batch: { batchId: ID, task: 3 } },
    ]);
  });
});
