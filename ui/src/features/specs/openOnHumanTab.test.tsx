// Open shows a spec on its human document; a live spec on the built-in Sandbox is read every
// second.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import deep from "../../../../crates/types/tests/fixtures/specs/spec-result-deep.json";
import type { SpecView as SpecViewData } from "../../ipc/contract";
import { renderScreen } from "../../lib/testing";
import { SpecsScreen } from "./SpecsScreen";
import { isLoopbackUrl, openSpecOn, SANDBOX_POLL_MS, specPollMs } from "./queries";

const SPEC_ID = "6650f1c2a9b3e4d5f6a7b8c9";
const spec: Record<string, unknown> = { ...deep, _id: SPEC_ID, created: "2026-11-20T09:14:03.512Z" };
delete spec.humanSpecMarkdown;
delete spec.codingAgentSpecMarkdown;
const VIEW = { spec, offline: false, hasHumanMarkdown: true, hasAgentMarkdown: true, cachedAt: "2026-11-22T08:00:00Z" } as unknown as SpecViewData;
const HTML = '<h1 id="recipe-box">Recipe Box, the human spec</h1><p>For people.</p>';

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  clearMocks();
});

function specIpc(view: SpecViewData = VIEW) {
  const calls: string[] = [];
  mockIPC((cmd, args) => {
    calls.push(cmd);
    if (cmd === "get_spec") return view;
    if (cmd === "render_spec") {
      const doc = (args as { doc: string }).doc;
      return { html: doc === "human" ? HTML : "<h1>Agent</h1>", toc: [{ level: 1, text: "Recipe Box, the human spec", id: "recipe-box" }] };
    }
    if (cmd === "list_jobs") return [];
    if (cmd.startsWith("plugin:")) return 1;
    return null;
  });
  return calls;
}

describe("opening a spec on a tab", () => {
  it("Open names the Human spec tab in the address; the spec view shows that tab and its document", async () => {
    specIpc();
    const navigate = vi.fn();
    openSpecOn(navigate, SPEC_ID);
    expect(navigate).toHaveBeenCalledWith({ area: "specs", specId: SPEC_ID, tab: "human" });
    renderScreen(<SpecsScreen specId={SPEC_ID} tab="human" />);
    const human = await screen.findByRole("tab", { name: "Human spec" });
    expect(human.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tab", { name: "Overview" }).getAttribute("aria-selected")).toBe("false");
    expect(await screen.findByRole("heading", { level: 1, name: "Recipe Box, the human spec" })).toBeTruthy();
  });

  it("without a tab in the address the spec opens on the Overview; a tab click navigates to the tab's address", async () => {
    specIpc();
    const navigate = vi.fn();
    renderScreen(<SpecsScreen specId={SPEC_ID} />, navigate);
    const overview = await screen.findByRole("tab", { name: "Overview" });
    expect(overview.getAttribute("aria-selected")).toBe("true");
    fireEvent.click(screen.getByRole("tab", { name: "Coding-agent spec" }));
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith({ area: "specs", specId: SPEC_ID, tab: "agent" });
  });

  it("a tab the spec does not have shows the Overview", async () => {
    const noGraphs = { ...spec };
    delete noGraphs.userFlowGraph;
    delete noGraphs.architectureGraph;
    delete noGraphs.architectureInfographicUrl;
    specIpc({ ...VIEW, spec: noGraphs } as unknown as SpecViewData);
    renderScreen(<SpecsScreen specId={SPEC_ID} tab="graphs" />);
    const overview = await screen.findByRole("tab", { name: "Overview" });
    expect(overview.getAttribute("aria-selected")).toBe("true");
  });
});

describe("polling a live spec", () => {
  const settings = { activeProfileId: "sandbox", specPollIntervalSecs: 12 };
  const sandbox = { id: "sandbox", baseUrl: "http://127.0.0.1:43123", builtIn: true, active: true };
  const work = { id: "p_work", baseUrl: "https://api.example.com", builtIn: false, active: false };

  it("every second on the built-in Sandbox or any loopback service", () => {
    expect(SANDBOX_POLL_MS).toBe(1000);
    expect(specPollMs(settings, [sandbox, work])).toBe(1000);
    expect(specPollMs({ ...settings, specPollIntervalSecs: 15 }, [sandbox, work])).toBe(1000);
    const local = { id: "p_local", baseUrl: "http://localhost:8787", builtIn: false };
    expect(specPollMs({ activeProfileId: "p_local", specPollIntervalSecs: 12 }, [sandbox, local])).toBe(1000);
  });

  it("at the settings' interval on the real service", () => {
    expect(specPollMs({ activeProfileId: "p_work", specPollIntervalSecs: 12 }, [sandbox, work])).toBe(12_000);
    expect(specPollMs({ activeProfileId: "p_work", specPollIntervalSecs: 15 }, [sandbox, work])).toBe(15_000);
    // Connections not read yet: the settings' interval.
    expect(specPollMs(settings, undefined)).toBe(12_000);
    expect(specPollMs(undefined, undefined)).toBe(12_000);
  });

  it("isLoopbackUrl", () => {
    for (const u of ["http://127.0.0.1:8787", "http://127.9.8.7", "http://localhost:1", "http://LocalHost.:1", "http://a.localhost", "http://[::1]:8787"]) {
      expect(isLoopbackUrl(u), u).toBe(true);
    }
    for (const u of ["https://api.example.com", "http://192.168.1.2", "http://localhost.example.com", "http://0.0.0.0", "not a url", "", undefined]) {
      expect(isLoopbackUrl(u), String(u)).toBe(false);
    }
  });
});

