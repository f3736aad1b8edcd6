// The library's search as you type, answered at once from the specs kept on this computer
// (search_cached_specs), then by the service after the pause (list_specs).
import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import listFixture from "../../../../crates/types/tests/fixtures/specs/spec-list.json";
import type { SpecRecord } from "../../bindings/SpecRecord";
import type { SpecPage } from "../../ipc/contract";
import { renderScreen } from "../../lib/testing";
import { Library, resetLibraryFilters } from "./Library";

const list = listFixture as { specs: SpecRecord[] };
const RECIPE = "A recipe-sharing app with meal plans and shopping lists";
const KEPT = "Showing the specs kept on this computer; checking the service…";

afterEach(() => {
  vi.useRealTimers();
  resetLibraryFilters();
  cleanup();
  clearMocks();
});

const pageOf = (specs: SpecRecord[], offline: boolean): SpecPage => ({ specs, total: specs.length, hasMore: false, offline });
const matching = (q: { search?: string }) => list.specs.filter((s) => !q.search || new RegExp(q.search, "i").test(s.input));

/**
 * list_specs answers the whole list at once, and a search when the test releases it;
 * search_cached_specs answers every search at once from the same specs, or refuses `refuse`.
 */
function ipc(refuse?: string) {
  const service: Record<string, unknown>[] = [];
  const kept: Record<string, unknown>[] = [];
  const held: (() => void)[] = [];
  mockIPC(async (cmd, args) => {
    const q = (args as { query: { search?: string } }).query;
    if (cmd === "search_cached_specs") {
      kept.push(q);
      if (q.search === refuse) {
        throw { kind: "invalidInput", message: "That search pattern cannot be used on the specs kept on this computer.", field: "search" };
      }
      return pageOf(matching(q), true);
    }
    if (cmd === "list_specs") {
      service.push(q);
      if (q.search) await new Promise<void>((r) => held.push(r));
      return pageOf(matching(q), false);
    }
    return null;
  });
  const release = () => {
    for (const r of held.splice(0)) r();
  };
  return { service, kept, release };
}

const rowNames = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((r) => within(r).getAllByRole("button")[0]?.textContent ?? "");
const status = () => screen.getAllByRole("status").find((s) => s.classList.contains("lib-local"));

describe("Library search as you type", () => {
  it("shows the specs kept on this computer at each keystroke, marked, until the service's answer replaces them", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { service, kept, release } = ipc();
    renderScreen(<Library />);
    await screen.findByRole("button", { name: RECIPE });
    expect(rowNames()).toHaveLength(list.specs.length);
    expect(status()?.textContent).toBe("");
    expect(kept).toHaveLength(0);

    const box = screen.getByLabelText("Search descriptions");
    fireEvent.change(box, { target: { value: "meal" } });
    await waitFor(() => expect(rowNames()).toEqual([RECIPE]));
    expect(kept.at(-1)).toEqual({ limit: 25, skip: 0, search: "meal" });
    expect(status()?.textContent).toBe(KEPT);
    expect(service).toHaveLength(1);
    // The service's page says it came from the service: no offline panel for the local rows.
    expect(screen.queryByText("Showing specs saved on this computer")).toBeNull();

    fireEvent.change(box, { target: { value: "meal plans" } });
    await waitFor(() => expect(kept.at(-1)).toEqual({ limit: 25, skip: 0, search: "meal\\s+plans" }));
    expect(rowNames()).toEqual([RECIPE]);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(260);
    });
    await waitFor(() => expect(service.at(-1)).toEqual({ limit: 25, skip: 0, search: "meal\\s+plans" }));
    // Still the local rows (and their mark) while the service has not answered.
    expect(status()?.textContent).toBe(KEPT);
    expect(rowNames()).toEqual([RECIPE]);

    release();
    await waitFor(() => expect(status()?.textContent).toBe(""));
    expect(rowNames()).toEqual([RECIPE]);
    expect(screen.getByText("1–1 of 1")).toBeTruthy();
  });

  it("answers a pattern at once too, and says when this computer's search refuses it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { service, kept, release } = ipc("habit|(?=x)");
    renderScreen(<Library />);
    await screen.findByRole("button", { name: RECIPE });
    fireEvent.click(screen.getByLabelText("Pattern"));
    const box = screen.getByLabelText("Search descriptions");

    fireEvent.change(box, { target: { value: "recipe|habit" } });
    await waitFor(() => expect(kept.at(-1)).toEqual({ limit: 25, skip: 0, search: "recipe|habit" }));
    await waitFor(() => expect(rowNames()).toEqual([RECIPE, "A habit tracker with streaks"]));
    expect(status()?.textContent).toBe(KEPT);

    // A pattern the browser cannot read is not handed over: the service's page is back.
    fireEvent.change(box, { target: { value: "(recipe" } });
    await waitFor(() => expect(status()?.textContent).toBe(""));
    expect(rowNames()).toHaveLength(list.specs.length);

    fireEvent.change(box, { target: { value: "habit|(?=x)" } });
    expect(await screen.findByText("That search pattern cannot be used on the specs kept on this computer.")).toBeTruthy();
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(status()?.textContent).toBe("");

    fireEvent.change(box, { target: { value: "habit" } });
    await waitFor(() => expect(rowNames()).toEqual(["A habit tracker with streaks"]));
    expect(screen.queryByText("That search pattern cannot be used on the specs kept on this computer.")).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(260);
    });
    await waitFor(() => expect(service.at(-1)).toEqual({ limit: 25, skip: 0, search: "habit" }));
    release();
    await waitFor(() => expect(status()?.textContent).toBe(""));
    expect(rowNames()).toEqual(["A habit tracker with streaks"]);
  });

  it("hands over an IME's text only when its composition ends", async () => {
    const { kept } = ipc();
    renderScreen(<Library />);
    await screen.findByRole("button", { name: RECIPE });
    const box = screen.getByLabelText("Search descriptions");
    fireEvent.compositionStart(box);
    fireEvent.change(box, { target: { value: "mea" } });
    await act(async () => {
      await Promise.resolve();
    });
    expect(kept).toHaveLength(0);
    fireEvent.compositionEnd(box);
    await waitFor(() => expect(kept.at(-1)).toEqual({ limit: 25, skip: 0, search: "mea" }));
  });
});
