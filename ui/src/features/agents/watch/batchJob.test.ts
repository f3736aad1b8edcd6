import { describe, expect, it } from "vitest";
import type { BrowserTask } from "../../../ipc/contract";
import { failedIndices, requestOf, rerunInputNames, rerunRequest } from "./batchJob";

const TASKS: [BrowserTask, BrowserTask, BrowserTask] = [
  { url: "https://a.example", instruction: "Read it" },
  { url: "https://b.example", instruction: 'Click "Buy"' },
  { url: "https://c.example", instruction: "Sign in", input: { password: "" } },
];

describe("re-runs", () => {
  it("re-runs the failed tasks of a first run, linked to it", () => {
    expect(failedIndices(["SUCCESS", "NO_TARGET", "SUCCESS", "TIMEOUT"])).toEqual([1, 3]);
    expect(rerunRequest("b1", { tasks: TASKS, concurrency: 4 }, [1])).toEqual({
      tasks: [{ url: "https://b.example", instruction: 'Click "Buy"' }],
      rerunOf: { batchId: "b1", taskIndices: [1] },
      concurrency: 4,
    });
  });

  it("links a re-run of a re-run to the first run's tasks", () => {
    const rerun = { tasks: [TASKS[0], TASKS[1]], rerunOf: { batchId: "b1", taskIndices: [4, 7] } };
    expect(rerunRequest("b2", rerun, [1])).toEqual({ tasks: [TASKS[1]], rerunOf: { batchId: "b1", taskIndices: [7] } });
  });

  it("re-runs a task with inputs only with their values entered again, by name", () => {
    expect(rerunInputNames({ tasks: TASKS }, [1, 2])).toEqual(["password"]);
    expect(rerunRequest("b1", { tasks: TASKS }, [1, 2])).toBeNull();
    expect(rerunRequest("b1", { tasks: TASKS }, [1, 2], { password: "" })).toBeNull();
    expect(rerunRequest("b1", { tasks: TASKS }, [1, 2], { password: "hunter2", other: "x" })).toEqual({
      tasks: [TASKS[1], { url: "https://c.example", instruction: "Sign in", input: { password: "hunter2" } }],
      rerunOf: { batchId: "b1", taskIndices: [1, 2] },
    });
  });

  it("reads a job's request only in the shape Rust writes", () => {
    expect(requestOf(null)).toBeNull();
    expect(requestOf({ request: { draft: {} } } as never)).toBeNull();
    expect(requestOf({ request: { tasks: TASKS } } as never)?.tasks).toHaveLength(3);
  });
});
