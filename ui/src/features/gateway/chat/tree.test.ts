import { describe, expect, it } from "vitest";
import { addTurn, emptyTree, fromMessages, pathOf, requestMessages, selectSibling, siblingsOf, textOf, updateTurn, type Turn } from "./tree";

const turn = (id: string, parentId: string | null, role: Turn["role"], text: string, extra: Partial<Turn> = {}): Turn => ({
  id,
  parentId,
  role,
  content: text ? [{ type: "text", text }] : [],
  status: "done",
  createdAt: "2026-11-22T09:00:00.000Z",
  ...extra,
});

describe("branches", () => {
  it("keeps a regenerated reply and an edited question as switchable versions", () => {
    let t = emptyTree();
    t = addTurn(t, turn("u1", null, "user", "Name a habit app"));
    t = addTurn(t, turn("a1", "u1", "assistant", "Streakly"));
    t = addTurn(t, turn("u2", "a1", "user", "Shorter?"));
    t = addTurn(t, turn("a2", "u2", "assistant", "Strk"));
    // Regenerate the first reply: a sibling of a1, selected, so the thread ends there.
    t = addTurn(t, turn("a1b", "u1", "assistant", "Daily Loop"));
    expect(pathOf(t).map((x) => x.id)).toEqual(["u1", "a1b"]);
    expect(siblingsOf(t, "a1b")).toEqual({ index: 1, count: 2 });
    // A third version.
    t = addTurn(t, turn("a1c", "u1", "assistant", "Team Tally"));
    expect(siblingsOf(t, "a1c")).toEqual({ index: 2, count: 3 });
    // Back to the first version: its own follow-up comes back with it.
    t = selectSibling(t, "a1c", -2);
    expect(pathOf(t).map((x) => x.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(siblingsOf(t, "a1")).toEqual({ index: 0, count: 3 });
    // Clamped at the ends.
    expect(pathOf(selectSibling(t, "a1", -1)).map((x) => x.id)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(pathOf(selectSibling(t, "a1", 5)).map((x) => x.id)).toEqual(["u1", "a1c"]);
    // Editing the question: a sibling of u1 with its own reply.
    t = addTurn(t, turn("u1b", null, "user", "Name a habit app for teams"));
    t = addTurn(t, turn("a3", "u1b", "assistant", "Team Streaks"));
    expect(pathOf(t).map((x) => x.id)).toEqual(["u1b", "a3"]);
    expect(siblingsOf(t, "u1b")).toEqual({ index: 1, count: 2 });
    expect(pathOf(selectSibling(t, "u1b", -1)).map((x) => x.id)).toEqual(["u1", "a1", "u2", "a2"]);
  });

  it("sends the thread up to a turn, leaving out replies that failed before their first word", () => {
    let t = emptyTree();
    t = addTurn(t, turn("u1", null, "user", "Hi"));
    t = addTurn(t, turn("a1", "u1", "assistant", "", { status: "error" }));
    t = addTurn(t, turn("u2", "a1", "user", "Hello?"));
    t = addTurn(t, turn("a2", "u2", "assistant", "Half a rep", { status: "cut" }));
    const path = pathOf(t);
    expect(requestMessages(path, "u2")).toEqual([
      { role: "user", content: [{ type: "text", text: "Hi" }] },
      { role: "user", content: [{ type: "text", text: "Hello?" }] },
    ]);
    // Continue: the partial reply goes last, as the assistant's prefill.
    expect(requestMessages(path).at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: "Half a rep" }] });
    expect(textOf(updateTurn(t, "a2", { content: [{ type: "text", text: "Half a reply." }] }).turns.a2?.content ?? [])).toBe("Half a reply.");
  });

  it("builds a linear thread from the library's messages", () => {
    const t = fromMessages([
      { id: 1, conversationId: 1, role: "user", content: "Three names?", createdAt: "2026-11-21T12:00:00.000Z", cut: false },
      { id: 2, conversationId: 1, role: "assistant", content: [{ type: "text", text: "Streakly." }], model: "openai/gpt-5-mini", creditsCharged: 0.02, createdAt: "2026-11-21T12:00:05.000Z", cut: false },
      { id: 3, conversationId: 1, role: "user", content: "Three more?", createdAt: "2026-11-21T12:01:00.000Z", cut: false },
      { id: 4, conversationId: 1, role: "assistant", content: [{ type: "text", text: "Habitly, Tea" }], model: "openai/gpt-5-mini", createdAt: "2026-11-21T12:01:02.000Z", cut: true },
    ]);
    expect(pathOf(t).map((x) => [x.id, x.role, textOf(x.content), x.model, x.credits, x.status])).toEqual([
      ["m1", "user", "Three names?", undefined, undefined, "done"],
      ["m2", "assistant", "Streakly.", "openai/gpt-5-mini", 0.02, "done"],
      ["m3", "user", "Three more?", undefined, undefined, "done"],
      ["m4", "assistant", "Habitly, Tea", "openai/gpt-5-mini", undefined, "cut"],
    ]);
  });
});
