// The notices of finished jobs: on any screen, Open goes to the item, and a notice goes away once
// its item is shown however it was reached; a job that ends where the user is needs none.
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import { toast } from "sonner";
import type { Activity } from "../../bindings/Activity";
import { useNavigate, type NavTarget } from "../../lib/nav";
import { renderRouted } from "../../lib/testing";
import { formatRoute } from "../shell/route";
import { useJobNotices } from "./useJobNotices";

afterEach(() => {
  toast.dismiss();
  cleanup();
  clearMocks();
});

const HABITS = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";
const spec: Activity = {
  id: "job-4",
  kind: "spec",
  title: HABITS,
  state: "done",
  startedAt: "2026-11-28T10:00:00.000Z",
  endedAt: "2026-11-28T10:00:06.000Z",
  place: { kind: "spec", specId: "s1" },
};
const batch: Activity = { ...spec, id: "job-5", kind: "batch", title: "Batch of 3 tasks", place: { kind: "batch", batchId: "b1" } };

function Host({ route }: { route: NavTarget }) {
  const navigate = useNavigate();
  useJobNotices(route, navigate);
  return (
    <>
      <p data-testid="at">{formatRoute(route)}</p>
      <button type="button" onClick={() => navigate({ area: "agents", batch: { batchId: "b1", task: 2 } })}>
        Sidebar to the batch
      </button>
    </>
  );
}

async function start(at: NavTarget) {
  mockIPC(() => null, { shouldMockEvents: true });
  const moves: NavTarget[] = [];
  renderRouted(at, (route) => <Host route={route} />, (to) => moves.push(to));
  // The subscriptions are asynchronous.
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });
  return moves;
}

const tell = (event: "job-finished" | "open-place", payload: unknown) => act(() => emit(event, payload));

describe("a finished job's notice", () => {
  it("shows on another area and its Open shows the spec on its human document, then goes", async () => {
    const moves = await start({ area: "plans" });
    await tell("job-finished", spec);
    const text = await screen.findByText("Your spec is ready: “A habit tracker for small teams: daily check-ins, streaks…”.");
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    expect(moves).toEqual([{ area: "specs", specId: "s1", tab: "human" }]);
    expect(screen.getByTestId("at").textContent).toBe("#/specs/s1?tab=human");
    await waitFor(() => expect(text.isConnected).toBe(false));
  });

  it("goes once its item is shown by other means (a batch's task)", async () => {
    await start({ area: "specs" });
    await tell("job-finished", batch);
    const text = await screen.findByText("Your browser batch has finished (Batch of 3 tasks).");
    fireEvent.click(screen.getByRole("button", { name: "Sidebar to the batch" }));
    await waitFor(() => expect(text.isConnected).toBe(false));
  });

  it("is not shown for a job that ends where the user is", async () => {
    await start({ area: "agents", batch: { batchId: "b1" } });
    await tell("job-finished", batch);
    await tell("job-finished", { ...spec, id: "job-6", title: "Another" });
    await screen.findByText("Your spec is ready: “Another”.");
    expect(screen.queryByText(/Your browser batch/)).toBeNull();
  });

  it("says why a job failed", async () => {
    await start({ area: "plans" });
    await tell("job-finished", { ...spec, state: "failed", place: { kind: "spec" }, error: { kind: "failed", message: "The service could not generate this spec." } });
    await screen.findByText("Your spec could not be generated: “A habit tracker for small teams: daily check-ins, streaks…”.");
    expect(screen.getByText("The service could not generate this spec.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Open" }));
    expect(screen.getByTestId("at").textContent).toBe("#/specs");
  });
});

describe("a desktop notification clicked", () => {
  it("opens its item", async () => {
    const moves = await start({ area: "plans" });
    await tell("open-place", { kind: "batch", batchId: "b1" });
    await tell("open-place", { kind: "spec", specId: "s1" });
    expect(moves).toEqual([
      { area: "agents", batch: { batchId: "b1" } },
      { area: "specs", specId: "s1", tab: "human" },
    ]);
  });
});
