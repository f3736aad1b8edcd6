import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import planFixture from "../../../../crates/types/tests/fixtures/plans/plan-response.json";
import justCompleted from "../../../../crates/types/tests/fixtures/plans/plan-response-just-completed.json";
import noPlan from "../../../../crates/types/tests/fixtures/plans/plan-response-no-plan.json";
import type { IpcError, PlanView as PlanViewData } from "../../ipc/contract";
import type { PlanResponse } from "../../bindings/PlanResponse";
import type { PlanPoint } from "../../bindings/PlanPoint";
import { renderScreen } from "../../lib/testing";
import { PlanView } from "./PlanView";
import { PlansScreen } from "./PlansScreen";

const SPEC_ID = "6650f1c2a9b3e4d5f6a7b8c9";

const HISTORY: PlanPoint[] = [
  { computedAt: "2026-11-20T08:00:00Z", percent: 0, built: 0, provenWorking: 0, total: 8, statuses: { planned: 8 } },
  { computedAt: "2026-11-22T07:30:12Z", percent: 63, built: 5, provenWorking: 1, total: 8, statuses: { works: 1, built_not_checked: 1, planned: 3 } },
];

function view(response: unknown, history = HISTORY): PlanViewData {
  return { response: response as PlanResponse, history, changed: false };
}

function ipc(answer: () => unknown) {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "get_plan") return answer();
    if (cmd === "plan_markdown") return "# Recipe Box\n";
    if (cmd === "save_document") return `/home/me/Downloads/${a.fileName as string}`;
    return null;
  });
  return calls;
}

afterEach(() => {
  cleanup();
  clearMocks();
  window.localStorage.clear();
});

describe("PlanView", () => {
  it("shows the intent, progress numbers, features and launch checklist", async () => {
    const calls = ipc(() => view(planFixture));
    renderScreen(<PlanView target={{ specId: SPEC_ID }} />);
    expect(await screen.findByRole("heading", { name: "Recipe Box" })).toBeTruthy();
    expect(calls.find((c) => c.cmd === "get_plan")?.args).toEqual({ target: { specId: SPEC_ID } });
    expect(screen.getByText("Recipe Box lets home cooks share recipes, plan a week of meals and get one merged shopping list.")).toBeTruthy();
    expect(screen.getByText("Nutrition facts", { selector: ".removed-list" })).toBeTruthy();
    expect(screen.queryByText("Proposed by the service")).toBeNull();

    expect(screen.getByRole("img", { name: "63% built" })).toBeTruthy();
    expect(screen.getByText("5 of 8 features built")).toBeTruthy();
    const legend = screen.getByText(/Proven working:/).closest("ul") as HTMLElement;
    expect(legend.textContent).toBe(" Proven working: 1 Built: 5 Left: 3Total: 8");
    expect(screen.getByText("1 suggested feature not counted until you confirm it.")).toBeTruthy();
    expect(screen.getByText("Counted by features.")).toBeTruthy();

    const features = screen.getAllByRole("listitem").filter((li) => li.classList.contains("feature"));
    expect(features.map((li) => [li.querySelector("strong")?.textContent, li.dataset.depth, li.querySelector(".status-tag")?.textContent])).toEqual([
      ["Sign in with email", "0", "✓Works"],
      ["Recipes", "0", "●Built, not checked yet"],
      ["Recipe photos", "1", "○Planned"],
      ["Weekly meal plan", "0", "↻Changed since its check passed"],
      ["Shopping list", "0", "!Needs a look"],
      ["Share a recipe by link", "0", "✕Not working"],
      ["Search recipes", "0", "◐In progress"],
      ["Comments", "0", "○Planned"],
      ["Pantry tracking", "0", "○Suggested"],
      ["Grocery delivery", "0", "⊘Out of scope"],
      ["Nutrition facts", "0", "⌫Removed"],
    ]);
    const pantry = features[8] as HTMLElement;
    expect(within(pantry).getByText("Suggested — confirm it to count it")).toBeTruthy();
    expect(within(features[9] as HTMLElement).getByText("Not counted")).toBeTruthy();
    expect(within(features[4] as HTMLElement).getByText("2 of 3")).toBeTruthy();

    expect(screen.getByText("Not ready to launch yet: 1 item needs a fix.")).toBeTruthy();
    expect(screen.getByText("SMTP_PASSWORD is not set in production")).toBeTruthy();
    expect(screen.getByText("Set SMTP_PASSWORD")).toBeTruthy();
    expect(screen.getByText("How: Add it in the hosting dashboard under Environment, then redeploy.")).toBeTruthy();
  });

  it("shows the app map, the last code change and the progress over time", async () => {
    ipc(() => view(planFixture));
    renderScreen(<PlanView target={{ projectId: "6650f1c2a9b3e4d5f6a7b8ca" }} />);
    expect(await screen.findByRole("heading", { name: "Screens (2)" })).toBeTruthy();
    expect(screen.getByText("app/recipes/page.tsx:12")).toBeTruthy();
    expect(screen.getByText("Writes data")).toBeTruthy();
    expect(screen.getByText("table in PostgreSQL")).toBeTruthy();
    expect(screen.getByText("Coding run")).toBeTruthy();
    expect(screen.getByText("1a2b3c4")).toBeTruthy();
    expect(screen.getAllByText("9f2c4e1").length).toBeGreaterThan(0);
    expect(screen.getByText("POST /api/recipes", { selector: "li" })).toBeTruthy();
    expect(screen.getByText("Old recipe editor", { exact: false })).toBeTruthy();
    const table = screen.getByRole("table", { name: "Plan snapshots, oldest first" });
    const rows = within(table).getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell").slice(1).map((c) => c.textContent));
    expect(rows).toEqual([
      ["0%", "0", "0", "8", "Planned: 8"],
      ["63%", "5", "1", "8", "Works: 1, Built, not checked yet: 1, Planned: 3"],
    ]);
  });

  it("says 25 of N when the service cut an app map list", async () => {
    const plan = structuredClone(planFixture);
    plan.plan.appMap.endpoints = {
      count: 40,
      items: Array.from({ length: 25 }, (_, i) => ({ name: `GET /api/r${i}`, anchor: `app/api/r${i}.ts:${i + 1}`, writes: i % 2 === 0 })),
    };
    ipc(() => view(plan));
    renderScreen(<PlanView target={{ specId: SPEC_ID }} />);
    expect(await screen.findByRole("heading", { name: "API routes (25 of 40)" })).toBeTruthy();
    expect(screen.getByText("Showing the first 25 of 40 routes; the service lists at most 25.")).toBeTruthy();
  });

  it("marks an intent proposed by the service and a plan with no code yet", async () => {
    ipc(() => view(justCompleted, []));
    renderScreen(<PlanView target={{ specId: "6650f1c2a9b3e4d5f6a7b8d0" }} />);
    expect(await screen.findByText("Proposed by the service")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Untitled project" })).toBeTruthy();
    expect(screen.getByText("0 of 2 features built")).toBeTruthy();
    expect(screen.getByText("Launch readiness is checked once there is code.")).toBeTruthy();
    expect(screen.getByText("The app map appears once there is code.")).toBeTruthy();
    expect(screen.getByText("No code change yet.")).toBeTruthy();
    expect(screen.getByText("No snapshots yet. One is kept each time the plan changes.")).toBeTruthy();
  });

  it("says when nothing is planned yet", async () => {
    ipc(() => view(noPlan, []));
    renderScreen(<PlanView target={{ projectId: "6650f1c2a9b3e4d5f6a7b8d4" }} />);
    expect(await screen.findByText("Nothing is planned or built in this project yet. The plan appears once there is.")).toBeTruthy();
  });

  it("explains No project yet and tries again", async () => {
    let answer: () => unknown = () => {
      throw { kind: "notFound", status: 404, message: "This spec has no project yet. Wait until the spec is completed, then open its plan again." } satisfies IpcError;
    };
    const calls = ipc(() => answer());
    renderScreen(<PlanView target={{ specId: SPEC_ID }} />);
    expect(await screen.findByRole("heading", { name: "No project yet" })).toBeTruthy();
    expect(screen.getByText("This spec is still becoming a project. Its plan appears a moment after the spec is completed.")).toBeTruthy();
    answer = () => view(planFixture);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("5 of 8 features built")).toBeTruthy();
    expect(calls.filter((c) => c.cmd === "get_plan")).toHaveLength(2);
  });

  it("shows a personal key without a paid plan with its upgrade action", async () => {
    const calls = ipc(() => {
      throw {
        kind: "subscriptionRequired",
        status: 401,
        message: "This needs a paid plan. Upgrade your plan to use it.",
        action: { label: "Upgrade", url: "https://svc.example/pricing" },
      } satisfies IpcError;
    });
    renderScreen(<PlanView target={{ specId: SPEC_ID }} />);
    expect(await screen.findByText("A paid plan is needed")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Upgrade" }));
    await waitFor(() => expect(calls.filter((c) => c.cmd === "open_external").map((c) => c.args)).toEqual([{ url: "https://svc.example/pricing" }]));
  });

  it("shows not found in plain words", async () => {
    ipc(() => {
      throw { kind: "notFound", status: 404, message: "The service could not find that. It may have been deleted, or it belongs to another account." };
    });
    renderScreen(<PlanView target={{ projectId: "6650f1c2a9b3e4d5f6a7b8cb" }} />);
    expect(await screen.findByRole("heading", { name: "Plan not found" })).toBeTruthy();
    expect(screen.getByText("Check the project id: it may belong to another account, or the project was deleted.")).toBeTruthy();
  });

  it("exports the plan as Markdown", async () => {
    const calls = ipc(() => view(planFixture));
    renderScreen(<PlanView target={{ specId: SPEC_ID }} />);
    fireEvent.click(await screen.findByRole("button", { name: "Download .md" }));
    expect(await screen.findByText("Saved to /home/me/Downloads/recipe-box-plan.md")).toBeTruthy();
    expect(calls.find((c) => c.cmd === "plan_markdown")?.args).toEqual({ target: { specId: SPEC_ID } });
    expect(calls.find((c) => c.cmd === "save_document")?.args).toEqual({ fileName: "recipe-box-plan.md", contents: "# Recipe Box\n", choose: false });
  });
});

describe("PlansScreen", () => {
  it("checks a project id before opening its plan", () => {
    ipc(() => view(planFixture));
    const navigate = vi.fn();
    renderScreen(<PlansScreen />, navigate);
    // A secondary action: the form shows once asked for.
    expect(screen.queryByLabelText("Project id")).toBeNull();
    const disclosure = screen.getByRole("button", { name: "Open by project id…" });
    expect(disclosure.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(disclosure);
    expect(disclosure.getAttribute("aria-expanded")).toBe("true");
    fireEvent.change(screen.getByLabelText("Project id"), { target: { value: "6650f1c2a9b3e4d5f6a7b8c" } });
    fireEvent.click(screen.getByRole("button", { name: "Open plan" }));
    expect(screen.getByText("A project id is 24 characters, each a digit 0–9 or a letter a–f.")).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Project id"), { target: { value: " 6650F1C2A9B3E4D5F6A7B8CA " } });
    fireEvent.click(screen.getByRole("button", { name: "Open plan" }));
    expect(navigate).toHaveBeenCalledWith({ area: "plans", target: { projectId: "6650f1c2a9b3e4d5f6a7b8ca" } });
  });

  it("shows no id form above an open plan", async () => {
    ipc(() => view(planFixture));
    renderScreen(<PlansScreen target={{ specId: SPEC_ID }} />);
    expect(await screen.findByRole("heading", { name: "Recipe Box" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Open by project id…" })).toBeNull();
    expect(screen.queryByLabelText("Project id")).toBeNull();
    expect(screen.getByRole("button", { name: "← All projects" })).toBeTruthy();
  });
});
