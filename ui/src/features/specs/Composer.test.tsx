import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { renderScreen } from "../../lib/testing";
import { useComposerDraft, Composer } from "./Composer";
import { DRAFT_STORAGE_KEY } from "./draft";

type Handler = (cmd: string, args: Record<string, unknown>) => unknown;

function ipc(extra: Handler) {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "get_settings") {
      return { activeProfileId: "sandbox", theme: "system", specPollIntervalSecs: 12, defaultSpecDepth: "fast", notifications: true };
    }
    if (cmd === "credits_balance") return { profileId: "sandbox", creditsRemaining: 1000, at: "2026-11-22T08:00:00Z" };
    if (cmd.startsWith("plugin:")) return 1;
    return extra(cmd, a);
  });
  return calls;
}

function Harness() {
  const [draft, setDraft] = useComposerDraft();
  return <Composer draft={draft} onChange={setDraft} />;
}

const describeLabel = "What do you want to build?";

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  clearMocks();
});

describe("Composer", () => {
  it("refuses an empty description without a file, before sending", async () => {
    const calls = ipc(() => null);
    renderScreen(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Generate spec" }));
    expect(await screen.findByText("Describe what you want to build, or attach a file that describes it.")).toBeTruthy();
    expect(calls.some((c) => c.cmd === "submit_spec")).toBe(false);
    expect(document.activeElement).toBe(screen.getByLabelText(describeLabel));
  });

  it("shows which documentation line is bad and sends nothing", async () => {
    const calls = ipc(() => null);
    renderScreen(<Harness />);
    fill(describeLabel, "A recipe app");
    fill("Documentation links (optional)", "https://nextjs.org/docs\nnextjs docs");
    fireEvent.click(screen.getByRole("button", { name: "Generate spec" }));
    expect(
      await screen.findByText("Line 2 (“nextjs docs”) is not a full web address. Write one address per line, like https://docs.example.com."),
    ).toBeTruthy();
    expect(calls.some((c) => c.cmd === "submit_spec")).toBe(false);
  });

  it("keeps the draft after a rejected submit and shows the error beside its field", async () => {
    ipc((cmd) => {
      if (cmd === "submit_spec") {
        throw { kind: "invalidInput", field: "docURLs[0]", message: "Documentation link 1 is not reachable." };
      }
      return null;
    });
    renderScreen(<Harness />);
    fill(describeLabel, "A recipe app with meal plans");
    fill("Documentation links (optional)", "https://nextjs.org/docs");
    fireEvent.click(screen.getByRole("radio", { name: /Deep/ }));
    fireEvent.click(screen.getByRole("button", { name: "Generate spec" }));
    expect(await screen.findByText("Documentation link 1 is not reachable.")).toBeTruthy();
    expect((screen.getByLabelText(describeLabel) as HTMLTextAreaElement).value).toBe("A recipe app with meal plans");
    const stored = JSON.parse(window.localStorage.getItem(DRAFT_STORAGE_KEY) ?? "{}") as Record<string, unknown>;
    expect(stored).toEqual(
      expect.objectContaining({ description: "A recipe app with meal plans", docUrls: "https://nextjs.org/docs", depth: "deep" }),
    );
  });

  it("shows the service's refusal of a deep spec with its upgrade action, and keeps the draft", async () => {
    const calls = ipc((cmd) => {
      if (cmd === "submit_spec") {
        throw {
          kind: "subscriptionRequired",
          message: "Deep specs need a paid plan. Upgrade your plan to use it.",
          action: { label: "Upgrade", url: "https://svc.example/pricing" },
        };
      }
      return null;
    });
    renderScreen(<Harness />);
    fill(describeLabel, "A recipe app");
    fireEvent.click(screen.getByRole("radio", { name: /Deep/ }));
    fireEvent.click(screen.getByRole("button", { name: "Generate spec" }));
    expect(await screen.findByText("Deep specs need a paid plan. Upgrade your plan to use it.")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("A paid plan is needed");
    fireEvent.click(screen.getByRole("button", { name: "Upgrade" }));
    await waitFor(() => expect(calls.filter((c) => c.cmd === "open_external").map((c) => c.args)).toEqual([{ url: "https://svc.example/pricing" }]));
    expect((screen.getByLabelText(describeLabel) as HTMLTextAreaElement).value).toBe("A recipe app");
  });

  it("sends the draft with the default depth, then clears it", async () => {
    const calls = ipc((cmd) => {
      if (cmd === "submit_spec") {
        return { id: 7, kind: "spec", profileId: "sandbox", request: {}, status: "submitted", result: null, createdAt: "2026-11-22T08:00:00Z", updatedAt: "2026-11-22T08:00:00Z" };
      }
      if (cmd === "list_jobs") return [];
      return null;
    });
    renderScreen(<Harness />);
    expect(await screen.findByText("You have 1,000 credits.")).toBeTruthy();
    expect(screen.getByText("Fast spec: about 5–10 credits.")).toBeTruthy();
    fill(describeLabel, "A habit tracker");
    fireEvent.click(screen.getByRole("checkbox", { name: "Add to an existing project" }));
    expect(screen.getByText(/A feature addition to an existing project/)).toBeTruthy();
    fill("About the existing project", "A SvelteKit app");
    fireEvent.click(screen.getByRole("button", { name: "Generate spec" }));
    await waitFor(() => expect(calls.find((c) => c.cmd === "submit_spec")?.args).toEqual({
      draft: { depth: "fast", input: "A habit tracker", currentContext: "A SvelteKit app", docUrls: [] },
    }));
    expect(await screen.findByText("Your spec is being generated. It keeps going even if you close Specdesk.")).toBeTruthy();
    expect((screen.getByLabelText(describeLabel) as HTMLTextAreaElement).value).toBe("");
    expect(window.localStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
  });

  it("asks again for a file kept from an earlier run of the app, and keeps it within one run", () => {
    ipc(() => null);
    const kept = {
      description: "Kept text",
      existing: false,
      context: "",
      docUrls: "",
      depth: null,
      file: { path: "/home/me/idea.md", name: "idea.md", size: 2048, mime: "text/markdown" },
      missingFileName: null,
    };
    window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(kept));
    renderScreen(<Harness />);
    expect((screen.getByLabelText(describeLabel) as HTMLTextAreaElement).value).toBe("Kept text");
    expect(screen.getByText("The earlier attempt had the file “idea.md”. Choose it again to include it.")).toBeTruthy();
    expect(screen.queryByText("idea.md")).toBeNull();
    cleanup();

    // The same run (the screen opened again, or the page reloaded): the file is still the user's pick.
    window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify(kept));
    renderScreen(<Harness />);
    expect(screen.getByText("idea.md")).toBeTruthy();
    expect(screen.queryByText(/The earlier attempt had the file/)).toBeNull();
  });

  it("restores the draft kept from before a reload", () => {
    ipc(() => null);
    window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ description: "Kept text", existing: false, context: "", docUrls: "", depth: "deep", file: null, missingFileName: null }));
    renderScreen(<Harness />);
    expect((screen.getByLabelText(describeLabel) as HTMLTextAreaElement).value).toBe("Kept text");
    expect((screen.getByRole("radio", { name: /Deep/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText("Deep spec: about 10–50 credits.")).toBeTruthy();
  });
});
