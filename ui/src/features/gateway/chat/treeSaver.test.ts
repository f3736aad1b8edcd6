import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addTurn, emptyTree, updateTurn, type ChatTree } from "./tree";
import { createTreeSaver } from "./treeSaver";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const textOf = (t: ChatTree) => (t.turns.a?.content[0]?.type === "text" ? t.turns.a.content[0].text : "");

describe("createTreeSaver", () => {
  it("writes a streaming reply at most once a second, its latest words last, and the settled tree at once", async () => {
    const written: { id: number; text: string; status?: string }[] = [];
    const saver = createTreeSaver(async (id, tree) => {
      written.push({ id, text: textOf(tree), status: tree.turns.a?.status });
    });
    let tree = addTurn(emptyTree(), { id: "a", parentId: null, role: "assistant", content: [], status: "streaming", createdAt: "" });
    // 250 deltas, one every 10 ms (2.5 s of streaming).
    for (let i = 1; i <= 250; i += 1) {
      tree = updateTurn(tree, "a", { content: [{ type: "text", text: `w${i}` }] });
      saver.save(7, tree, true);
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written.length).toBeLessThanOrEqual(4);
    saver.save(7, updateTurn(tree, "a", { status: "done" }), false);
    await vi.advanceTimersByTimeAsync(0);
    expect(written.at(-1)).toEqual({ id: 7, text: "w250", status: "done" });
    // Nothing left waiting writes later.
    const count = written.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(written.length).toBe(count);
  });

  it("writes one at a time in order, so an older tree never lands after a newer one", async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const saver = createTreeSaver(
      (_id, tree) =>
        new Promise<void>((resolve) => {
          order.push(`start ${textOf(tree)}`);
          release = () => {
            order.push(`end ${textOf(tree)}`);
            resolve();
          };
        }),
    );
    const at = (text: string) => addTurn(emptyTree(), { id: "a", parentId: null, role: "assistant", content: [{ type: "text", text }], status: "done", createdAt: "" });
    saver.save(1, at("one"), false);
    saver.save(1, at("two"), false);
    saver.save(1, at("three"), false);
    release();
    await vi.advanceTimersByTimeAsync(0);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["start one", "end one", "start three", "end three"]);
  });

  it("writes a streaming tree still waiting when the screen leaves", async () => {
    const written: string[] = [];
    const saver = createTreeSaver(async (_id, tree) => void written.push(textOf(tree)));
    const at = (text: string) => addTurn(emptyTree(), { id: "a", parentId: null, role: "assistant", content: [{ type: "text", text }], status: "streaming", createdAt: "" });
    saver.save(1, at("first"), true);
    saver.save(1, at("second"), true);
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual(["first"]);
    saver.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(written).toEqual(["first", "second"]);
  });
});
