// A spec read from this computer's copy while the service cannot be reached: a document whose
// markdown was never downloaded says so in plain words instead of a tab that fails; a saved one
// still opens; "Try again" reads the spec again and opens the document once the service answers.
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import deep from "../../../../crates/types/tests/fixtures/specs/spec-result-deep.json";
import type { ProfileView, SpecView as SpecViewData } from "../../ipc/contract";
import { renderScreen } from "../../lib/testing";
import { SpecView } from "./SpecView";

const SPEC_ID = "6650f1c2a9b3e4d5f6a7b8c9";
const spec: Record<string, unknown> = { ...deep, _id: SPEC_ID, created: "2026-11-20T09:14:03.512Z" };
delete spec.humanSpecMarkdown;
delete spec.codingAgentSpecMarkdown;

const OFFLINE = {
  spec,
  offline: true,
  hasHumanMarkdown: true,
  hasAgentMarkdown: false,
  cachedAt: "2026-11-22T08:00:00Z",
} as unknown as SpecViewData;
const ONLINE = { ...OFFLINE, offline: false, hasAgentMarkdown: true } as SpecViewData;

const WORK: ProfileView = {
  id: "p_work",
  name: "Work",
  baseUrl: "https://api.example.com",
  keyKind: "organization",
  builtIn: false,
  active: true,
  key: { hasKey: true, maskedTail: "••••9f2c" },
};

const HTML = '<h1 id="recipe-box">Recipe Box</h1><p>Saved here.</p>';

type Call = { cmd: string; args: Record<string, unknown> };

/** The IPC of a spec read offline; `state.online` brings the service back. */
function ipc(profiles: ProfileView[] = [WORK]) {
  const state = { online: false, calls: [] as Call[] };
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    state.calls.push({ cmd, args: a });
    switch (cmd) {
      case "list_profiles":
        return profiles;
      case "get_spec":
        return state.online ? ONLINE : OFFLINE;
      case "render_spec":
        if (!state.online && a.doc === "codingAgent") {
          throw { kind: "notFound", message: "This spec has no coding-agent spec yet. It appears when the spec is completed." };
        }
        return { html: a.doc === "codingAgent" ? '<h1 id="agent">For your coding agent</h1>' : HTML, toc: [] };
      default:
        return null;
    }
  });
  return state;
}

const renderCalls = (calls: Call[]) => calls.filter((c) => c.cmd === "render_spec").map((c) => c.args.doc);

afterEach(() => {
  cleanup();
  clearMocks();
});

describe("a spec read offline", () => {
  it("says a document was not saved offline instead of failing, and still opens the saved one", async () => {
    const state = ipc();
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />);
    fireEvent.click(await screen.findByRole("tab", { name: "Coding-agent spec" }));
    const panel = await screen.findByRole("region", { name: "Not saved offline" });
    await waitFor(() =>
      expect(panel.querySelector("p")?.textContent).toBe(
        "This document was not downloaded on this computer. Connect to Work and open it again to keep a copy.",
      ),
    );
    expect(within(panel).getByRole("button").textContent).toBe("Try again");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("button", { name: "Copy for a coding agent" })).toBeNull();
    // The document that cannot be there is never asked for.
    expect(renderCalls(state.calls)).toEqual([]);

    fireEvent.click(screen.getByRole("tab", { name: "Human spec" }));
    const doc = await screen.findByRole("article", { name: "Human spec" });
    expect(doc.innerHTML).toBe(HTML);
    expect(screen.queryByRole("region", { name: "Not saved offline" })).toBeNull();
    expect(renderCalls(state.calls)).toEqual(["human"]);
  });

  it("tries the service again: still out of reach, then the document opens", async () => {
    const state = ipc();
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />);
    fireEvent.click(await screen.findByRole("tab", { name: "Coding-agent spec" }));
    const panel = await screen.findByRole("region", { name: "Not saved offline" });
    const gets = () => state.calls.filter((c) => c.cmd === "get_spec").length;
    expect(gets()).toBe(1);

    fireEvent.click(within(panel).getByRole("button", { name: "Try again" }));
    expect((await within(panel).findByRole("status")).textContent).toBe("Work still cannot be reached.");
    expect(gets()).toBe(2);
    expect(renderCalls(state.calls)).toEqual([]);

    state.online = true;
    fireEvent.click(within(panel).getByRole("button", { name: "Try again" }));
    const doc = await screen.findByRole("article", { name: "Coding-agent spec" });
    expect(doc.innerHTML).toBe('<h1 id="agent">For your coding agent</h1>');
    expect(screen.queryByRole("region", { name: "Not saved offline" })).toBeNull();
    expect(screen.queryByText("Showing the copy saved on this computer")).toBeNull();
    expect(gets()).toBe(3);
    expect(renderCalls(state.calls)).toEqual(["codingAgent"]);
  });

  it("names the service when no connection is known", async () => {
    ipc([]);
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />);
    fireEvent.click(await screen.findByRole("tab", { name: "Coding-agent spec" }));
    const panel = await screen.findByRole("region", { name: "Not saved offline" });
    expect(panel.querySelector("p")?.textContent).toBe(
      "This document was not downloaded on this computer. Connect to the service and open it again to keep a copy.",
    );
  });
});
