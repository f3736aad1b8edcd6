// The library's list in the address (library/useListView): read from it, written to it by
// replacing the history entry, followed when it changes, and reset for another connection.
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import listFixture from "../../../../crates/types/tests/fixtures/specs/spec-list.json";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { keys } from "../../ipc/hooks";
import { NavContext, RouteContext } from "../../lib/nav";
import { TEST_SETTINGS, renderScreen } from "../../lib/testing";
import { useHashRoute } from "../shell/history";
import { Library, resetLibraryFilters } from "./Library";

const list = listFixture as { specs: SpecRecord[] };
const RECIPE = "A recipe-sharing app with meal plans and shopping lists";
const HABITS = "A habit tracker with streaks";

/** The app's router around the library, as App provides it. */
function Routed({ children }: { children: ReactNode }) {
  const { route, navigate } = useHashRoute();
  return (
    <NavContext.Provider value={navigate}>
      <RouteContext.Provider value={route}>{children}</RouteContext.Provider>
    </NavContext.Provider>
  );
}

function at(hash: string) {
  window.history.replaceState(null, "", `/index.html${hash}`);
}

/** The fixture's specs matching the query, as a page of `total` specs (empty past the end). */
function ipc(total = 57) {
  const queries: Record<string, unknown>[] = [];
  mockIPC((cmd, args) => {
    if (cmd !== "list_specs" && cmd !== "search_cached_specs") return null;
    const q = (args as { query: { search?: string; status?: string; skip?: number; limit?: number } }).query;
    if (cmd === "list_specs") queries.push(q);
    const specs = list.specs.filter((s) => (!q.search || new RegExp(q.search, "i").test(s.input)) && (!q.status || s.status === q.status));
    const skip = q.skip ?? 0;
    const shown = skip >= total ? [] : specs;
    return { specs: shown, total, hasMore: skip + (q.limit ?? 25) < total, offline: cmd !== "list_specs" };
  });
  return queries;
}

const rowNames = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((r) => within(r).getAllByRole("button")[0]?.textContent ?? "");

beforeEach(() => {
  window.localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  resetLibraryFilters();
  cleanup();
  clearMocks();
  at("");
});

describe("the library's list in the address", () => {
  it("opens the list the address names, and writes each change to it without a new history entry", async () => {
    at("#/specs?q=recipe&depth=deep&status=completed&size=10&page=2&sort=-hours&bogus=1");
    const queries = ipc();
    renderScreen(
      <Routed>
        <Library />
      </Routed>,
    );
    await screen.findByRole("button", { name: RECIPE });
    expect(queries).toEqual([{ limit: 10, skip: 10, endpoint: "deep_spec", status: "completed", search: "recipe" }]);
    expect(window.location.hash).toBe("#/specs?q=recipe&depth=deep&status=completed&size=10&page=2&sort=-hours");
    expect((screen.getByLabelText("Search descriptions") as HTMLInputElement).value).toBe("recipe");
    expect((screen.getByLabelText("Depth") as HTMLSelectElement).value).toBe("deep_spec");
    expect((screen.getByLabelText("Status") as HTMLSelectElement).value).toBe("completed");
    expect((screen.getByLabelText("Per page") as HTMLSelectElement).value).toBe("10");
    expect(screen.getByRole("button", { name: /^Hours/ }).closest("th")?.getAttribute("aria-sort")).toBe("descending");

    const length = window.history.length;
    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "processing" } });
    await waitFor(() => expect(window.location.hash).toBe("#/specs?q=recipe&depth=deep&status=processing&size=10&sort=-hours"));
    fireEvent.change(screen.getByLabelText("Depth"), { target: { value: "" } });
    fireEvent.change(screen.getByLabelText("Search descriptions"), { target: { value: "habit" } });
    fireEvent.submit(screen.getByRole("search"));
    await waitFor(() => expect(window.location.hash).toBe("#/specs?q=habit&status=processing&size=10&sort=-hours"));
    await screen.findByRole("button", { name: HABITS });
    fireEvent.click(screen.getByRole("button", { name: /^Description/ }));
    expect(window.location.hash).toBe("#/specs?q=habit&status=processing&size=10&sort=description");
    fireEvent.click(screen.getByLabelText("Pattern"));
    await waitFor(() => expect(window.location.hash).toBe("#/specs?q=habit&pattern=1&status=processing&size=10&sort=description"));
    expect(window.history.length).toBe(length);
    expect(queries.at(-1)).toEqual({ limit: 10, skip: 0, status: "processing", search: "habit" });
  });

  it("follows the address when it changes (Back, Forward, a hash typed in), search box included", async () => {
    at("#/specs?q=recipe");
    const queries = ipc();
    renderScreen(
      <Routed>
        <Library />
      </Routed>,
    );
    await screen.findByRole("button", { name: RECIPE });
    act(() => {
      window.location.hash = "#/specs?q=habit&pattern=1&status=processing";
    });
    await screen.findByRole("button", { name: HABITS });
    expect(rowNames()).toEqual([HABITS]);
    expect((screen.getByLabelText("Search descriptions") as HTMLInputElement).value).toBe("habit");
    expect((screen.getByLabelText("Pattern") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("Status") as HTMLSelectElement).value).toBe("processing");
    expect(queries.at(-1)).toEqual({ limit: 25, skip: 0, status: "processing", search: "habit" });
  });

  it("shows the last page for a page past the end", async () => {
    at("#/specs?size=10&page=9");
    const queries = ipc(57);
    renderScreen(
      <Routed>
        <Library />
      </Routed>,
    );
    await waitFor(() => expect(window.location.hash).toBe("#/specs?size=10&page=6"));
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 10, skip: 50 }));
    expect(queries.map((q) => q.skip)).toEqual([80, 50]);
  });

  it("starts another connection on the default list", async () => {
    at("#/specs?q=recipe&page=2");
    const queries = ipc();
    const { client } = renderScreen(
      <Routed>
        <Library />
      </Routed>,
    );
    await screen.findByRole("button", { name: RECIPE });
    expect(queries).toEqual([{ limit: 25, skip: 25, search: "recipe" }]);
    act(() => client.setQueryData(keys.settings, { ...TEST_SETTINGS, activeProfileId: "work" }));
    await waitFor(() => expect(window.location.hash).toBe("#/specs"));
    expect((screen.getByLabelText("Search descriptions") as HTMLInputElement).value).toBe("");
    await waitFor(() => expect(queries.at(-1)).toEqual({ limit: 25, skip: 0 }));
    // The new connection was never asked for the previous one's list.
    expect(queries).toEqual([
      { limit: 25, skip: 25, search: "recipe" },
      { limit: 25, skip: 0 },
    ]);
  });
});
