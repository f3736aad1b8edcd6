import { beforeEach, describe, expect, it } from "vitest";
import type { Conversation } from "../../../ipc/contract";
import { CLOSED, loadTree, localTitles, renameConversation, saveTree, searchConversations, titleOf, toMarkdown } from "./conversations";
import { addTurn, emptyTree, pathOf, type Turn } from "./tree";

const conv = (id: number, title: string, model?: string): Conversation => ({ id, profileId: "sandbox", title, model, createdAt: "", updatedAt: "" });
const turn = (id: string, parentId: string | null, role: Turn["role"], text: string, extra: Partial<Turn> = {}): Turn => ({
  id,
  parentId,
  role,
  content: text ? [{ type: "text", text }] : [],
  status: "done",
  createdAt: "",
  ...extra,
});

beforeEach(() => localStorage.clear());

describe("conversations kept here", () => {
  it("renames, searches by the given title, and forgets an emptied title", () => {
    const list = [conv(1, "Naming ideas", "anthropic/claude-sonnet-4.5"), conv(2, "Launch plan")];
    renameConversation(1, "  Habit app names ");
    expect(localTitles()).toEqual({ "1": "Habit app names" });
    expect(titleOf(list[0] as Conversation)).toBe("Habit app names");
    expect(searchConversations(list, "habit", localTitles()).map((c) => c.id)).toEqual([1]);
    expect(searchConversations(list, "claude", localTitles()).map((c) => c.id)).toEqual([1]);
    expect(searchConversations(list, "launch plan", localTitles()).map((c) => c.id)).toEqual([2]);
    renameConversation(1, "");
    expect(titleOf(list[0] as Conversation)).toBe("Naming ideas");
  });

  it("finds a reply the app closed on as cut off, with its text", () => {
    let t = addTurn(emptyTree(), turn("u1", null, "user", "Hi"));
    t = addTurn(t, turn("a1", "u1", "assistant", "Half a", { status: "streaming" }));
    saveTree(5, t);
    const back = loadTree(5);
    expect(back && pathOf(back).map((x) => [x.id, x.status, x.error])).toEqual([
      ["u1", "done", undefined],
      ["a1", "cut", CLOSED],
    ]);
    expect(loadTree(6)).toBeNull();
  });

  it("exports the visible thread as Markdown", () => {
    let t = addTurn(emptyTree(), turn("u1", null, "user", "Hi"));
    t = addTurn(t, turn("a1", "u1", "assistant", "Hello", { model: "openai/gpt-5-mini", credits: 0.02, status: "cut" }));
    expect(toMarkdown("Greeting", pathOf(t))).toBe("# Greeting\n\n### You\n\nHi\n\n### openai/gpt-5-mini (cut off, 0.02 credits)\n\nHello\n");
  });
});
