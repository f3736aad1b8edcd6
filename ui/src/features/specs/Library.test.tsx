import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import listFixture from "../../../../crates/types/tests/fixtures/specs/spec-list.json";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { renderScreen } from "../../lib/testing";
import { Library, resetLibraryFilters } from "./Library";

const list = listFixture as { specs: SpecRecord[]; total: number; hasMore: boolean };

afterEach(() => {
  resetLibraryFilters();
  cleanup();
  clearMocks();
});

function ipc(page: (query: Record<string, unknown>) => unknown) {
  const queries: Record<string, unknown>[] = [];
  mockIPC((cmd, args) => {
    if (cmd === "list_specs") {
      const q = (args as { query: Record<string, unknown> }).query;
      queries.push(q);
      return page(q);
    }
    return null;
  });
  return queries;
}

describe("Library", () => {
  it("lists specs with status, depth, hours and credits, and opens one", async () => {
    ipc(() => ({ ...list, specs: list.specs.map((s, i) => (i === 0 ? { ...s, creditsUsed: 23.4 } : s)), offline: false }));
    const navigate = vi.fn();
    renderScreen(<Library />, navigate);
    const row = (await screen.findByRole("button", { name: "A recipe-sharing app with meal plans and shopping lists" })).closest("tr");
    expect(row).toBeTruthy();
    const cells = within(row as HTMLElement).getAllByRole("cell").map((c) => c.textContent);
    expect(cells[1]).toBe("✓Completed");
    expect(cells[2]).toBe("Deep");
    expect(cells[4]).toBe("412 h");
    expect(cells[5]).toBe("23.4 credits");
    expect(screen.getByText("Drafting milestones (2 of 5)")).toBeTruthy();
    expect(screen.getByText("Generation failed: the model returned no milestones")).toBeTruthy();
    expect(screen.getByText("1–4 of 57")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "A recipe-sharing app with meal plans and shopping lists" }));
    expect(navigate).toHaveBeenCalledWith({ area: "specs", specId: "6650f1c2a9b3e4d5f6a7b8c9" });
  });

  it("checks a search pattern before sending it", async () => {
    const queries = ipc(() => ({ specs: [], total: 0, hasMore: false, offline: false }));
    renderScreen(<Library />);
    await waitFor(() => expect(queries).toHaveLength(1));
    fireEvent.change(screen.getByLabelText("Search descriptions"), { target: { value: "(recipe" } });
    fireEvent.click(screen.getByRole("button", { name: "Search" }));
    expect(
      await screen.findByText(
        "“(recipe” is not a search pattern the service can use: a bracket or a special character such as ( [ { * + ? \\ is out of place. Close every bracket, or put a \\ before a special character to search for it as it is.",
      ),
    ).toBeTruthy();
    expect(queries).toHaveLength(1);
    fireEvent.change(screen.getByLabelText("Search descriptions"), { target: { value: "recipe|meal" } });
    fireEvent.click(screen.getByRole("button", { name: "Search" }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 20, skip: 0, search: "recipe|meal" }));
  });

  it("refuses a page size outside 1 to 100 and pages with skip", async () => {
    const queries = ipc((q) => ({ specs: list.specs.slice(0, 2), total: 57, hasMore: ((q.skip as number) ?? 0) < 50, offline: false }));
    renderScreen(<Library />);
    await screen.findByText("1–2 of 57");
    fireEvent.change(screen.getByLabelText("Per page"), { target: { value: "101" } });
    expect(screen.getByText("Show between 1 and 100 specs per page (a whole number).")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Per page"), { target: { value: "50" } });
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 50, skip: 0 }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 50, skip: 50 }));
    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "failed" } });
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 50, skip: 0, status: "failed" }));
  });

  it("says when it shows the specs saved on this computer", async () => {
    ipc(() => ({ specs: list.specs.slice(0, 1), total: 1, hasMore: false, offline: true }));
    renderScreen(<Library />);
    expect(await screen.findByText("Showing specs saved on this computer")).toBeTruthy();
    expect(screen.getByRole("button", { name: "A recipe-sharing app with meal plans and shopping lists" })).toBeTruthy();
  });
});
