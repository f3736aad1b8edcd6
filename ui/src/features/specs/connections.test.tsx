// Switching connection: the screens move to the new connection's data at once, never showing the
// previous connection's rows, not even for one render.
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, screen } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import listFixture from "../../../../crates/types/tests/fixtures/specs/spec-list.json";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { keys } from "../../ipc/hooks";
import { TEST_SETTINGS, renderScreen } from "../../lib/testing";
import { Library, resetLibraryFilters } from "./Library";

const list = listFixture as { specs: SpecRecord[] };
const SANDBOX_SPEC = "A recipe-sharing app with meal plans and shopping lists";
const WORK_SPEC = "A CRM for a small law firm that tracks cases and deadlines";

afterEach(() => {
  resetLibraryFilters();
  cleanup();
  clearMocks();
});

describe("switching connection", () => {
  it("never shows the previous connection's specs", async () => {
    let active = "sandbox";
    let releaseWork: (page: unknown) => void = () => undefined;
    const asked: string[] = [];
    mockIPC((cmd) => {
      if (cmd !== "list_specs") return null;
      asked.push(active);
      if (active === "sandbox") return { specs: [list.specs[0]], total: 1, hasMore: false, offline: false };
      return new Promise((resolve) => (releaseWork = resolve));
    });
    const { client } = renderScreen(<Library />);
    expect(await screen.findByRole("button", { name: SANDBOX_SPEC })).toBeTruthy();

    active = "work";
    act(() => client.setQueryData(keys.settings, { ...TEST_SETTINGS, activeProfileId: "work" }));
    // The first render on Work shows it loading, with the Sandbox's row already gone (the
    // previous page is kept while another page of the same connection loads, never across).
    await screen.findByText("Loading your specs…");
    expect(screen.queryByRole("button", { name: SANDBOX_SPEC })).toBeNull();

    await act(async () => releaseWork({ specs: [{ ...list.specs[0], _id: "7750f1c2a9b3e4d5f6a7b8c9", input: WORK_SPEC }], total: 1, hasMore: false, offline: false }));
    expect(await screen.findByRole("button", { name: WORK_SPEC })).toBeTruthy();
    expect(screen.queryByRole("button", { name: SANDBOX_SPEC })).toBeNull();
    expect(asked).toEqual(["sandbox", "work"]);
  });
});
