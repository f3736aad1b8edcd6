import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import deep from "../../../../crates/types/tests/fixtures/specs/spec-result-deep.json";
import type { SpecView as SpecViewData } from "../../ipc/contract";
import { renderScreen } from "../../lib/testing";
import { SpecView } from "./SpecView";

const SPEC_ID = "6650f1c2a9b3e4d5f6a7b8c9";
// get_spec never carries the two markdown documents.
const spec: Record<string, unknown> = { ...deep, _id: SPEC_ID, created: "2026-11-20T09:14:03.512Z" };
delete spec.humanSpecMarkdown;
delete spec.codingAgentSpecMarkdown;
const VIEW = {
  spec,
  offline: false,
  hasHumanMarkdown: true,
  hasAgentMarkdown: true,
  cachedAt: "2026-11-22T08:00:00Z",
} as unknown as SpecViewData;

const HTML =
  '<h1 id="recipe-box">Recipe Box</h1><h2 id="setup">Setup</h2><p>See <a href="https://nextjs.org/docs" data-external="true" target="_blank" rel="noopener noreferrer">the docs</a> and <a href="#setup">this part</a>.</p><pre><code class="language-ts">const answer = 42;\n</code></pre>';

type Call = { cmd: string; args: Record<string, unknown> };

function ipc(view: SpecViewData = VIEW) {
  const calls: Call[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    switch (cmd) {
      case "get_spec":
        return view;
      case "render_spec":
        return { html: HTML, toc: [{ level: 1, text: "Recipe Box", id: "recipe-box" }, { level: 2, text: "Setup", id: "setup" }, { level: 4, text: "Deep", id: "deep" }] };
      case "spec_markdown":
        return a.doc === "codingAgent" ? "# Recipe Box (agent)\n" : "# Recipe Box\n";
      case "save_document":
        return a.choose ? null : `/home/me/Downloads/${a.fileName as string}`;
      default:
        return null;
    }
  });
  return calls;
}

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  cleanup();
  clearMocks();
});

describe("SpecView", () => {
  it("shows the overview with facts, open-in links, documentation packs and the plan button", async () => {
    const calls = ipc();
    const navigate = vi.fn();
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />, navigate);
    expect(await screen.findByRole("heading", { level: 1, name: "Recipe Box" })).toBeTruthy();
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      "Overview",
      "Human spec",
      "Coding-agent spec",
      "Scope",
      "Personas and features",
      "Tech stack",
      "Graphs",
    ]);
    expect(screen.getByText("40.5 h")).toBeTruthy();
    expect(screen.getByText("23.4 credits")).toBeTruthy();
    expect(screen.getByText("2 min 28 s")).toBeTruthy();
    expect(screen.getByText("nextjs.org")).toBeTruthy();
    fireEvent.click(screen.getByRole("link", { name: "ZIP of the nextjs.org documentation" }));
    fireEvent.click(screen.getByRole("link", { name: /Coding tool A/ }));
    await waitFor(() =>
      expect(calls.filter((c) => c.cmd === "open_external").map((c) => c.args.url)).toEqual([
        "https://svc.example/z/nextjs-docs.zip",
        "https://tool-a.example/new?prompt=Download%20the%20spec",
      ]),
    );
    // Tool D is an app link, not a web address: it is copied, never opened in the web view.
    expect(screen.getByRole("button", { name: "Copy the link for Coding tool D" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Open plan" }));
    expect(navigate).toHaveBeenCalledWith({ area: "plans", target: { specId: SPEC_ID } });
  });

  it("renders the human spec with its contents, highlighted code and external links, and saves it", async () => {
    const calls = ipc();
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />);
    fireEvent.click(await screen.findByRole("tab", { name: "Human spec" }));
    const doc = await screen.findByRole("article", { name: "Human spec" });
    const toc = screen.getByRole("navigation", { name: "Contents of the human spec" });
    expect(within(toc).getAllByRole("link").map((a) => a.textContent)).toEqual(["Recipe Box", "Setup"]);
    await waitFor(() => expect(doc.querySelector("code.hljs .hljs-keyword")?.textContent).toBe("const"));
    fireEvent.click(within(doc).getByText("the docs"));
    fireEvent.click(within(doc).getByText("this part"));
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Download .md" }));
    expect(await screen.findByText("Saved to /home/me/Downloads/recipe-box-spec.md")).toBeTruthy();
    expect(calls.filter((c) => c.cmd === "open_external").map((c) => c.args)).toEqual([{ url: "https://nextjs.org/docs" }]);
    expect(calls.find((c) => c.cmd === "render_spec")?.args).toEqual({ specId: SPEC_ID, doc: "human" });
    expect(calls.find((c) => c.cmd === "save_document")?.args).toEqual({ fileName: "recipe-box-spec.md", contents: "# Recipe Box\n", choose: false });
  });

  it("copies the coding-agent spec for a coding agent", async () => {
    const calls = ipc();
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />);
    fireEvent.click(await screen.findByRole("tab", { name: "Coding-agent spec" }));
    fireEvent.click(await screen.findByRole("button", { name: "Copy for a coding agent" }));
    expect(await screen.findByText("Copied. Paste it into your coding agent.")).toBeTruthy();
    // Copied from Rust by the spec's id: the markdown never comes to the page to be copied.
    expect(calls.filter((c) => c.cmd === "copy_spec_markdown").map((c) => c.args)).toEqual([{ specId: SPEC_ID, doc: "codingAgent" }]);
    expect(calls.some((c) => c.cmd === "spec_markdown")).toBe(false);
  });

  it("explores the scope with totals per milestone and a role filter", async () => {
    ipc();
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />);
    fireEvent.click(await screen.findByRole("tab", { name: "Scope" }));
    expect(screen.getByText("40.5 h in total")).toBeTruthy();
    const m1 = screen.getByRole("button", { name: /Milestone 1: Project setup/ });
    expect(m1.textContent).toContain("8 h");
    expect(screen.getByRole("button", { name: /Milestone 2: Deployment/ }).textContent).toContain("16.5 h");
    fireEvent.change(screen.getByLabelText("Role"), { target: { value: "DO" } });
    expect(screen.getByText("15 h shown of 40.5 h in total")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Layer"), { target: { value: "Docs" } });
    expect(screen.getByText("10 h shown of 40.5 h in total")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Milestone 1/ })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: /Production deployment/ }));
    expect(screen.getByText("Runbook for incidents")).toBeTruthy();
    expect(screen.getByText("Health endpoint answers 200")).toBeTruthy();
    expect(screen.getByText("1 more subtask hidden by the filter.")).toBeTruthy();
  });

  it("shows personas, roles, priorities and the tech stack with reasons and alternatives", async () => {
    ipc();
    renderScreen(<SpecView specId={SPEC_ID} onBack={() => undefined} onEditAgain={() => undefined} />);
    fireEvent.click(await screen.findByRole("tab", { name: "Personas and features" }));
    expect(screen.getByRole("heading", { name: "Home cook" })).toBeTruthy();
    expect(screen.getByText("High priority")).toBeTruthy();
    expect(screen.getByText("Low priority")).toBeTruthy();
    fireEvent.click(screen.getByRole("tab", { name: "Tech stack" }));
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual(["CI/CD", "Database", "Frontend"]);
    expect(screen.getByText("One framework for UI and server code")).toBeTruthy();
    expect(screen.getByRole("link", { name: /App router guide/ })).toBeTruthy();
    expect(screen.getByRole("link", { name: /Remix/ })).toBeTruthy();
  });

  it("reads a saved copy when offline and offers to retry a failed spec", async () => {
    const onEditAgain = vi.fn();
    ipc({
      spec: { _id: "6650f1c2a9b3e4d5f6a7b8d2", status: "failed", endpoint: "fast_spec", input: "A todo list", errorMessage: "Generation failed: the model returned no milestones" },
      offline: true,
      hasHumanMarkdown: false,
      hasAgentMarkdown: false,
      cachedAt: "2026-11-19T08:00:00Z",
    });
    renderScreen(<SpecView specId="6650f1c2a9b3e4d5f6a7b8d2" onBack={() => undefined} onEditAgain={onEditAgain} />);
    expect(await screen.findByText("Showing the copy saved on this computer")).toBeTruthy();
    expect(screen.getByText("Generation failed: the model returned no milestones")).toBeTruthy();
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Overview"]);
    fireEvent.click(screen.getByRole("button", { name: "Edit and try again" }));
    expect(onEditAgain).toHaveBeenCalledWith(expect.objectContaining({ description: "A todo list", depth: "fast" }));
  });
});
