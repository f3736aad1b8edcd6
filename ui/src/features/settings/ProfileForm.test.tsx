import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { CommandError } from "../../ipc/invoke";
import { EMPTY_DRAFT, ProfileForm, checkDraft, toInput } from "./ProfileForm";

afterEach(cleanup);

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe("ProfileForm", () => {
  it("refuses a clear-text address before sending and keeps the draft", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<ProfileForm initial={EMPTY_DRAFT} withKey submitLabel="Add connection" onSubmit={onSubmit} onCancel={() => undefined} />);
    fill("Name", "Work");
    fill("Service address", "http://api.example.com");
    fill("API key", "sk_live_abc");
    fireEvent.click(screen.getByRole("button", { name: "Add connection" }));
    expect(await screen.findByText(/must start with https:\/\//)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("Work");
    expect((screen.getByLabelText("API key") as HTMLInputElement).value).toBe("sk_live_abc");
  });

  it("shows the service's field error next to its field and keeps everything typed", async () => {
    const onSubmit = vi.fn(async () => {
      throw new CommandError({ kind: "invalidInput", field: "projectId", message: "A project id is 24 characters." });
    });
    render(<ProfileForm initial={EMPTY_DRAFT} withKey submitLabel="Add connection" onSubmit={onSubmit} onCancel={() => undefined} />);
    fill("Name", "Work");
    fill("Service address", "https://api.example.com");
    fill("API key", "sk_live_abc");
    fireEvent.click(screen.getByRole("button", { name: "Add connection" }));
    expect(await screen.findByText("A project id is 24 characters.")).toBeTruthy();
    expect((screen.getByLabelText("API key") as HTMLInputElement).value).toBe("sk_live_abc");
  });

  it("clears the key field once saved", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<ProfileForm initial={EMPTY_DRAFT} withKey submitLabel="Add connection" onSubmit={onSubmit} onCancel={() => undefined} />);
    fill("Name", "Work");
    fill("Service address", "https://api.example.com");
    fill("API key", "sk_live_abc");
    fireEvent.click(screen.getByRole("button", { name: "Add connection" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    await waitFor(() => expect((screen.getByLabelText("API key") as HTMLInputElement).value).toBe(""));
  });

  it("turns a draft into the command's input", () => {
    expect(toInput({ name: " W ", baseUrl: " https://x.org ", keyKind: "organization", projectId: "", apiKey: "k" })).toEqual({
      name: "W",
      baseUrl: "https://x.org",
      keyKind: "organization",
    });
    expect(checkDraft({ ...EMPTY_DRAFT, name: "W", baseUrl: "https://x.org", apiKey: "a b" }, true)).toEqual({
      apiKey: "An API key has no spaces or line breaks. Copy it again from your account page.",
    });
  });
});
