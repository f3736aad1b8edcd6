import { describe, expect, it } from "vitest";
import type { TaskView } from "./reducer";
import { filterTasks, isFiltered, notSucceeded } from "./taskFilter";

const task = (index: number, over: Partial<TaskView>): TaskView => ({ index, phase: "SUCCESS", steps: [], shots: [], pending: null, ...over });

const tasks: TaskView[] = [
  task(0, { url: "https://shop.example/item/1", instruction: "Read the price" }),
  task(1, { url: "https://shop.example/item/2", instruction: "Read the price", phase: "TIMEOUT", error: "Ran out of time on the cart" }),
  task(2, { url: "https://news.example/", instruction: "Find the headline", phase: "BLOCKED", error: "A bot wall" }),
  task(3, { url: "https://shop.example/item/4", phase: "running" }),
  task(4, { phase: "queued" }),
];

describe("filterTasks", () => {
  it("keeps every task without a filter", () => {
    expect(filterTasks(tasks, {}, false)).toEqual([0, 1, 2, 3, 4]);
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ q: "  " })).toBe(false);
  });

  it("keeps one status, or every task that did not succeed", () => {
    expect(filterTasks(tasks, { status: "TIMEOUT" }, false)).toEqual([1]);
    expect(filterTasks(tasks, { status: "running" }, false)).toEqual([3]);
    // While live, a task still to run has not failed; once the batch ended, it did not succeed.
    expect(filterTasks(tasks, { status: "failed" }, false)).toEqual([1, 2]);
    expect(filterTasks(tasks, { status: "failed" }, true)).toEqual([1, 2, 3, 4]);
    expect(notSucceeded(tasks, false)).toBe(2);
    expect(notSucceeded(tasks, true)).toBe(4);
  });

  it("searches URL, instruction, title and error, every word, whatever its case", () => {
    expect(filterTasks(tasks, { q: "SHOP price" }, false)).toEqual([0, 1]);
    expect(filterTasks(tasks, { q: "bot wall" }, false)).toEqual([2]);
    expect(filterTasks(tasks, { q: "cart", status: "TIMEOUT" }, false)).toEqual([1]);
    expect(filterTasks(tasks, { q: "cart", status: "BLOCKED" }, false)).toEqual([]);
    expect(isFiltered({ q: "cart" })).toBe(true);
  });
});
