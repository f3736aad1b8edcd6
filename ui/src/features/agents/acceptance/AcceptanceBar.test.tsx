import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { renderScreen } from "../../../lib/testing";
import type { ScopeOfWork } from "../../../bindings/ScopeOfWork";
import { ScopeExplorer } from "../../specs/ScopeExplorer";
import { AcceptanceBar } from "./AcceptanceBar";
import { scopeMarks, type AcceptanceRun } from "./model";

const SOW: ScopeOfWork = {
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
        { id: "1.2", title: "Member profile", subTasks: [] },
      ],
    },
  ],
};

function run(id: string, at: string, a: boolean, b: boolean | null): AcceptanceRun {
  return {
    id,
    batchId: id,
    at,
    url: "http://localhost:3000",
    total: 2,
    tasks: ["0.0#0", "0.0#1"],
    criteria: {
      "0.0#0": { passed: a, evidence: a ? "Sign in at the top right" : "No button", status: "SUCCESS" },
      "0.0#1": b === null ? { passed: null, evidence: "Nothing to act on", status: "NO_TARGET" } : { passed: b, evidence: "Checked", status: "SUCCESS" },
    },
    finished: true,
  };
}

afterEach(cleanup);

describe("AcceptanceBar", () => {
  it("refuses a bad address with its message and opens the run with a good one", () => {
    const navigate = vi.fn();
    renderScreen(<AcceptanceBar specId="spec-1" criteria={2} runs={[]} marks={null} />, navigate);
    expect(screen.queryByRole("button", { name: "Open the results" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Check these stories on my app" }));
    const field = screen.getByLabelText("Address of your running app");
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: "localhost" } });
    fireEvent.click(screen.getByRole("button", { name: "Prepare the tasks" }));
    expect(screen.getByRole("alert").textContent).toBe(
      '"localhost" is not a full web address. Write it like http://localhost:3000 or https://staging.example.com.',
    );
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.change(field, { target: { value: " http://localhost:3000 " } });
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Prepare the tasks" }));
    expect(navigate).toHaveBeenCalledWith({ area: "agents", acceptance: { specId: "spec-1", url: "http://localhost:3000" } });
  });

  it("is absent when no story has a criterion", () => {
    renderScreen(<AcceptanceBar specId="spec-1" criteria={0} runs={[]} marks={null} />);
    expect(screen.queryByRole("button", { name: "Check these stories on my app" })).toBeNull();
  });

  it("shows the latest run beside the scope: totals, story verdicts, criteria with evidence and changes", () => {
    const navigate = vi.fn();
    const runs = [run("b2", "2026-11-22T10:00:00.000Z", true, null), run("b1", "2026-11-22T09:00:00.000Z", false, true)];
    const marks = scopeMarks(SOW, runs);
    renderScreen(
      <>
        <AcceptanceBar specId="spec-1" criteria={2} runs={runs} marks={marks} />
        <ScopeExplorer sow={SOW} deep={false} marks={marks} />
      </>,
      navigate,
    );
    const bar = screen.getByRole("region", { name: "Acceptance on your app" });
    expect(bar.querySelector(".acceptance-last")?.textContent).toMatch(
      /^Last checked .+ on http:\/\/localhost:3000: 1 of 2 criteria pass · 1 could not be checked\. Since the run before: 1 now passes, 1 not checked this time\.$/,
    );
    fireEvent.click(within(bar).getByRole("button", { name: "Open the results" }));
    expect(navigate).toHaveBeenCalledWith({ area: "agents", acceptance: { specId: "spec-1" } });

    const story = screen.getByRole("button", { name: /Sign in/ });
    expect(story.querySelector(".verdict-chip")?.textContent).toBe("Not checked · 1 of 2 criteria pass");
    expect(screen.getByRole("button", { name: /Member profile/ }).querySelector(".verdict-chip")).toBeNull();
    fireEvent.click(story);
    const items = [...document.querySelectorAll(".criteria li")].map((li) => li.textContent);
    expect(items).toEqual([
      "The home page shows a Sign in buttonPassedNow passesEvidence: Sign in at the top right",
      "A wrong password shows an error messageCould not checkNot checked this timeEvidence: Nothing to act on",
    ]);
  });
});
