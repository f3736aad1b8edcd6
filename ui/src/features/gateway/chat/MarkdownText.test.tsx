import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, waitFor } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { MarkdownText } from "./MarkdownText";
import { rememberRendered } from "./renderedCache";

afterEach(() => {
  cleanup();
  clearMocks();
});

function ipc() {
  const asked: string[] = [];
  mockIPC((cmd, args) => {
    if (cmd === "render_markdown") {
      const md = (args as { markdown: string }).markdown;
      asked.push(md);
      return { html: `<p>rendered: ${md}</p>`, toc: [] };
    }
    return null;
  });
  return asked;
}

describe("MarkdownText", () => {
  it("shows the HTML that came with a streamed delta in the same update, asking Rust for nothing", () => {
    const asked = ipc();
    rememberRendered("**Hello** there", "<p><strong>Hello</strong> there</p>");
    const { container, rerender } = render(<MarkdownText text="**Hello**" />);
    rememberRendered("**Hello** there, friend", "<p><strong>Hello</strong> there, friend</p>");
    rerender(<MarkdownText text="**Hello** there" />);
    expect(container.querySelector(".chat-md")?.innerHTML).toBe("<p><strong>Hello</strong> there</p>");
    rerender(<MarkdownText text="**Hello** there, friend" />);
    expect(container.querySelector(".chat-md")?.innerHTML).toBe("<p><strong>Hello</strong> there, friend</p>");
    // Only the first text, which came with no HTML, was sent to be rendered.
    expect(asked).toEqual(["**Hello**"]);
  });

  it("renders any other text through render_markdown, showing it as plain text until then", async () => {
    const asked = ipc();
    const { container } = render(<MarkdownText text="Plain *words*" />);
    expect(container.querySelector(".chat-md")?.textContent).toBe("Plain *words*");
    await waitFor(() => expect(container.querySelector(".chat-md")?.innerHTML).toBe("<p>rendered: Plain *words*</p>"));
    expect(asked).toEqual(["Plain *words*"]);
  });
});
