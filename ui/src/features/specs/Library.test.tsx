import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import listFixture from "../../../../crates/types/tests/fixtures/specs/spec-list.json";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { renderScreen } from "../../lib/testing";
import { Library, resetLibraryFilters } from "./Library";
import { ARCHIVE_KEY, reloadArchive } from "./library/archive";
import { TITLES_KEY, reloadSpecTitles } from "./library/titles";

const list = listFixture as { specs: SpecRecord[]; total: number; hasMore: boolean };
const RECIPE = "A recipe-sharing app with meal plans and shopping lists";
const RECIPE_ID = "6650f1c2a9b3e4d5f6a7b8c9";

afterEach(() => {
  vi.useRealTimers();
  resetLibraryFilters();
  cleanup();
  clearMocks();
  window.localStorage.clear();
  reloadArchive();
  reloadSpecTitles();
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

const fullPage = () => ({ ...list, specs: list.specs.map((s, i) => (i === 0 ? { ...s, creditsUsed: 23.4 } : s)), offline: false });

/** The first cell's name of each row (its link button). */
function rowNames(): string[] {
  return screen
    .getAllByRole("row")
    .slice(1)
    .map((r) => within(r).getAllByRole("button")[0]?.textContent ?? "");
}

function rowOf(name: string): HTMLElement {
  const row = screen.getByRole("button", { name }).closest("tr");
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

describe("Library", () => {
  it("lists specs with status, depth, hours and credits, and opens one", async () => {
    ipc(fullPage);
    const navigate = vi.fn();
    renderScreen(<Library />, navigate);
    const row = (await screen.findByRole("button", { name: RECIPE })).closest("tr");
    expect(row).toBeTruthy();
    const cells = within(row as HTMLElement).getAllByRole("cell").map((c) => c.textContent);
    expect(cells[1]).toBe("✓Completed");
    expect(cells[2]).toBe("Deep");
    expect(cells[4]).toBe("412 h");
    expect(cells[5]).toBe("23.4 credits");
    expect(cells[6]).toBe("Rename…Archive");
    expect(screen.getByText("Drafting milestones (2 of 5)")).toBeTruthy();
    expect(screen.getByText("Generation failed: the model returned no milestones")).toBeTruthy();
    expect(screen.getByText("1–4 of 57")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Search" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: RECIPE }));
    expect(navigate).toHaveBeenCalledWith({ area: "specs", specId: RECIPE_ID });
  });

  it("sorts the page by a column header, ascending then descending", async () => {
    const queries = ipc(fullPage);
    renderScreen(<Library />);
    await screen.findByRole("button", { name: RECIPE });
    expect(rowNames()).toEqual([RECIPE, "A habit tracker with streaks", "A landing page for a bakery", "[sandbox:fail] A todo list"]);
    const header = (name: string) => screen.getByRole("button", { name: new RegExp(`^${name}`) }).closest("th") as HTMLElement;
    expect(header("Status").getAttribute("aria-sort")).toBeNull();

    fireEvent.click(within(header("Status")).getByRole("button"));
    expect(header("Status").getAttribute("aria-sort")).toBe("ascending");
    expect(rowNames()).toEqual(["A landing page for a bakery", "A habit tracker with streaks", RECIPE, "[sandbox:fail] A todo list"]);
    fireEvent.click(within(header("Status")).getByRole("button"));
    expect(header("Status").getAttribute("aria-sort")).toBe("descending");
    expect(rowNames()).toEqual(["[sandbox:fail] A todo list", RECIPE, "A habit tracker with streaks", "A landing page for a bakery"]);

    fireEvent.click(within(header("Description")).getByRole("button"));
    expect(header("Description").getAttribute("aria-sort")).toBe("ascending");
    expect(header("Status").getAttribute("aria-sort")).toBeNull();
    expect(rowNames()).toEqual(["[sandbox:fail] A todo list", "A habit tracker with streaks", "A landing page for a bakery", RECIPE]);

    fireEvent.click(within(header("Created")).getByRole("button"));
    expect(header("Created").getAttribute("aria-sort")).toBe("descending");
    expect(rowNames()).toEqual(["A landing page for a bakery", "A habit tracker with streaks", RECIPE, "[sandbox:fail] A todo list"]);
    // The service has more pages: the sort is said to be of this page, and nothing is asked again.
    expect(screen.getByText("Sorted within this page: the service sends specs newest first, one page at a time.")).toBeTruthy();
    expect(queries).toHaveLength(1);
  });

  it("searches plain text as the user types, escaped, once the typing pauses", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const queries = ipc(() => ({ specs: [], total: 0, hasMore: false, offline: false }));
    renderScreen(<Library />);
    await waitFor(() => expect(queries).toHaveLength(1));
    const box = screen.getByLabelText("Search descriptions");
    fireEvent.change(box, { target: { value: "c" } });
    fireEvent.change(box, { target: { value: "c+" } });
    fireEvent.change(box, { target: { value: "c++" } });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(queries).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60);
    });
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(queries[1]).toEqual({ limit: 25, skip: 0, search: "c\\+\\+" });
    expect(await screen.findByText("No spec matches these filters. Change or clear them to see more.")).toBeTruthy();

    // Enter searches at once, without waiting for the pause.
    fireEvent.change(box, { target: { value: "meal plans" } });
    fireEvent.submit(box.closest("form") as HTMLFormElement);
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 25, skip: 0, search: "meal\\s+plans" }));
    const asked = queries.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(500);
    });
    expect(queries).toHaveLength(asked);

    fireEvent.click(screen.getByRole("button", { name: "Clear search" }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 25, skip: 0 }));
  });

  it("checks a search pattern before sending it", async () => {
    const queries = ipc(() => ({ specs: [], total: 0, hasMore: false, offline: false }));
    renderScreen(<Library />);
    await waitFor(() => expect(queries).toHaveLength(1));
    fireEvent.click(screen.getByLabelText("Pattern"));
    fireEvent.change(screen.getByLabelText("Search descriptions"), { target: { value: "(recipe" } });
    fireEvent.submit(screen.getByRole("search"));
    expect(
      await screen.findByText(
        "“(recipe” is not a search pattern the service can use: a bracket or a special character such as ( [ { * + ? \\ is out of place. Close every bracket, or put a \\ before a special character to search for it as it is.",
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText("Search descriptions").getAttribute("aria-invalid")).toBe("true");
    expect(queries).toHaveLength(1);
    fireEvent.change(screen.getByLabelText("Search descriptions"), { target: { value: "recipe|meal" } });
    fireEvent.submit(screen.getByRole("search"));
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 25, skip: 0, search: "recipe|meal" }));
    // Back to plain text: the same text is searched as it is.
    fireEvent.click(screen.getByLabelText("Pattern"));
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 25, skip: 0, search: "recipe\\|meal" }));
  });

  it("offers 10, 25 or 50 per page and pages with skip", async () => {
    const queries = ipc((q) => ({ specs: list.specs.slice(0, 2), total: 57, hasMore: ((q.skip as number) ?? 0) < 50, offline: false }));
    renderScreen(<Library />);
    await screen.findByText("1–2 of 57");
    const size = screen.getByLabelText("Per page");
    expect(within(size).getAllByRole("option").map((o) => o.textContent)).toEqual(["10", "25", "50"]);
    expect((size as HTMLSelectElement).value).toBe("25");
    fireEvent.change(size, { target: { value: "50" } });
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 50, skip: 0 }));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 50, skip: 50 }));
    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "failed" } });
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 50, skip: 0, status: "failed" }));
    fireEvent.change(size, { target: { value: "10" } });
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 10, skip: 0, status: "failed" }));
  });

  it("renames a spec in place: Escape cancels, Enter keeps the title, the description stays under it", async () => {
    ipc(fullPage);
    renderScreen(<Library />);
    await screen.findByRole("button", { name: RECIPE });
    fireEvent.click(within(rowOf(RECIPE)).getByRole("button", { name: "Rename…" }));
    const input = screen.getByLabelText("Title");
    await waitFor(() => expect(document.activeElement).toBe(input));
    fireEvent.change(input, { target: { value: "Not kept" } });
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByLabelText("Title")).toBeNull();
    expect(screen.getByRole("button", { name: RECIPE })).toBeTruthy();
    expect(window.localStorage.getItem(TITLES_KEY)).toBeNull();
    await waitFor(() => expect(document.activeElement?.textContent).toBe("Rename…"));

    fireEvent.click(within(rowOf(RECIPE)).getByRole("button", { name: "Rename…" }));
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "  Recipe   box " } });
    fireEvent.keyDown(screen.getByLabelText("Title"), { key: "Enter" });
    const row = rowOf("Recipe box");
    expect(within(row).getByText(RECIPE)).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(TITLES_KEY) ?? "null")).toEqual({ [RECIPE_ID]: "Recipe box" });

    // An empty title gives the row its description back.
    fireEvent.click(within(row).getByRole("button", { name: "Rename…" }));
    expect((screen.getByLabelText("Title") as HTMLInputElement).value).toBe("Recipe box");
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "" } });
    fireEvent.keyDown(screen.getByLabelText("Title"), { key: "Enter" });
    expect(screen.getByRole("button", { name: RECIPE })).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(TITLES_KEY) ?? "null")).toEqual({});
  });

  it("archives a spec: hidden from the list, Undo brings it back, Show archived lists it with Unarchive", async () => {
    ipc(fullPage);
    renderScreen(<Library />);
    await screen.findByRole("button", { name: RECIPE });
    expect(screen.queryByLabelText(/^Show archived/)).toBeNull();

    fireEvent.click(within(rowOf(RECIPE)).getByRole("button", { name: "Archive" }));
    expect(screen.queryByRole("button", { name: RECIPE })).toBeNull();
    expect(rowNames()).toEqual(["A habit tracker with streaks", "A landing page for a bakery", "[sandbox:fail] A todo list"]);
    expect(screen.getByText("1 archived spec on this page is not shown.")).toBeTruthy();
    expect(screen.getByText("1–4 of 57")).toBeTruthy();
    const toggle = screen.getByLabelText("Show archived (1)");
    expect(document.activeElement).toBe(toggle);
    expect(Object.keys(JSON.parse(window.localStorage.getItem(ARCHIVE_KEY) ?? "null") as object)).toEqual([RECIPE_ID]);

    const toast = (await screen.findByText(`“${RECIPE}” is archived: hidden from the list, still in your library.`)).closest(".toast-card");
    fireEvent.click(within(toast as HTMLElement).getByRole("button", { name: "Undo" }));
    expect(await screen.findByRole("button", { name: RECIPE })).toBeTruthy();
    expect(screen.queryByLabelText(/^Show archived/)).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(ARCHIVE_KEY) ?? "null")).toEqual({});

    fireEvent.click(within(rowOf(RECIPE)).getByRole("button", { name: "Archive" }));
    fireEvent.click(screen.getByLabelText("Show archived (1)"));
    expect(rowNames()).toEqual([RECIPE]);
    expect(screen.queryByText("1–4 of 57")).toBeNull();
    fireEvent.click(within(rowOf(RECIPE)).getByRole("button", { name: "Unarchive" }));
    expect(screen.getByText("No archived specs. Archive a spec to hide it from the list; Unarchive brings it back.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("Show archived (0)"));
    fireEvent.click(screen.getByLabelText("Show archived (0)"));
    expect(rowNames()).toEqual([RECIPE, "A habit tracker with streaks", "A landing page for a bakery", "[sandbox:fail] A todo list"]);
  });

  it("says when it shows the specs saved on this computer", async () => {
    ipc(() => ({ specs: list.specs.slice(0, 1), total: 1, hasMore: false, offline: true }));
    renderScreen(<Library />);
    expect(await screen.findByText("Showing specs saved on this computer")).toBeTruthy();
    expect(screen.getByRole("button", { name: RECIPE })).toBeTruthy();
  });
});
