import { describe, expect, it } from "vitest";
import { draftProblems, fieldTarget, firstProblem, localRowProblems, minimumCredits, problemSentence, remoteCheck } from "./checks";
import { emptyRow, type BuilderDraft, type TaskRow } from "./model";

function row(patch: Partial<TaskRow>): TaskRow {
  return { ...emptyRow(), ...patch };
}

describe("local checks", () => {
  it("asks for an absolute http(s) URL", () => {
    expect(localRowProblems(row({ url: "" }), 0).url).toBe("Task 1 has no start address. Enter the page it starts on.");
    expect(localRowProblems(row({ url: "example.com" }), 2).url).toBe(
      'Task 3: "example.com" is not a full web address. Start it with https:// or http://.',
    );
    expect(localRowProblems(row({ url: "ftp://example.com" }), 0).url).toBeDefined();
    expect(localRowProblems(row({ url: "https://example.com/a?b=1" }), 0)).toEqual({});
  });

  it("parses the schema and wants an object", () => {
    expect(localRowProblems(row({ url: "https://a.example", output: "[1]" }), 0)).toEqual({
      output: "Task 1: the output schema must be a JSON object.",
    });
    const bad = localRowProblems(row({ url: "https://a.example", output: "{nope" }), 1).output ?? "";
    expect(bad.startsWith("Task 2: the output schema is not valid JSON (")).toBe(true);
  });

  it("wants whole numbers of at least 1 and named, distinct inputs", () => {
    const p = localRowProblems(
      row({
        url: "https://a.example",
        timeoutMs: "0",
        maxSteps: "2.5",
        maxDurationSeconds: "-3",
        inputs: [
          { id: "a", name: "email", value: "x" },
          { id: "b", name: "email", value: "y" },
        ],
      }),
      0,
    );
    expect(p).toEqual({
      timeoutMs: "Task 1: the time limit (ms) must be a whole number of at least 1.",
      maxSteps: "Task 1: the step limit must be a whole number of at least 1 (at most 4,294,967,295).",
      maxDurationSeconds: "Task 1: the duration limit (s) must be a whole number of at least 1.",
      input: "Task 1: the input name “email” is used twice.",
    });
    expect(localRowProblems(row({ url: "https://a.example", inputs: [{ id: "a", name: "", value: "secret" }] }), 0).input).toBe(
      "Task 1: give every input value a name.",
    );
  });
});

describe("fields of check_tasks errors", () => {
  it("maps a field to its row and cell", () => {
    expect(fieldTarget("tasks[3].url")).toEqual({ kind: "row", index: 3, cell: "url" });
    expect(fieldTarget("tasks[0].output")).toEqual({ kind: "row", index: 0, cell: "output" });
    expect(fieldTarget("tasks[12].maxDurationSeconds")).toEqual({ kind: "row", index: 12, cell: "maxDurationSeconds" });
    expect(fieldTarget("tasks[2].input.email")).toEqual({ kind: "row", index: 2, cell: "input" });
    expect(fieldTarget("tasks[4]")).toEqual({ kind: "row", index: 4, cell: null });
    expect(fieldTarget("concurrency")).toEqual({ kind: "concurrency" });
    expect(fieldTarget("tasks")).toEqual({ kind: "batch" });
    expect(fieldTarget(undefined)).toEqual({ kind: "batch" });
  });

  it("puts a remote error on the row it was about, and drops it once that row changes", () => {
    const a = row({ id: "a", url: "https://a.example" });
    const b = row({ id: "b", url: "https://b.example", output: '{"type": "objekt"}' });
    const message = 'Task 2: the output schema is not valid JSON Schema ("objekt" is not a JSON Schema type).';
    const remote = remoteCheck([a, b], "25", [
      { kind: "invalidInput", field: "tasks[1].output", message },
      { kind: "invalidInput", field: "concurrency", message: "Tasks at once must be between 1 and 20 (it was 25)." },
    ]);
    // Reordered: the error follows row b to its new place.
    const draft: BuilderDraft = { rows: [b, a], concurrency: "5" };
    const p = draftProblems(draft, remote);
    expect(p.rows).toEqual({ b: { output: message } });
    // The concurrency it saw is no longer the one typed.
    expect(p.concurrency).toBeUndefined();
    expect(draftProblems({ rows: [a, b], concurrency: "25" }, null).concurrency).toBe("Tasks at once must be a whole number from 1 to 20.");
    // Edited since the check: the old error no longer applies.
    const edited = { ...b, output: '{"type": "object"}' };
    expect(draftProblems({ rows: [a, edited], concurrency: "5" }, remote).rows).toEqual({});
  });

  it("counts the tasks with problems and finds the first bad cell", () => {
    const draft: BuilderDraft = {
      rows: [
        row({ id: "a", url: "https://a.example" }),
        row({ id: "b", url: "https://b.example", maxSteps: "x" }),
        row({ id: "c", url: "nope" }),
      ],
      concurrency: "5",
    };
    const p = draftProblems(draft, null);
    expect(problemSentence(p)).toBe("2 tasks have problems");
    expect(firstProblem(draft, p)).toEqual({ rowId: "b", cell: "maxSteps" });
    const one = draftProblems({ rows: [row({ id: "a", url: "https://a.example" })], concurrency: "0" }, null);
    expect(problemSentence(one)).toBe("Tasks at once needs a fix");
    expect(firstProblem({ rows: [], concurrency: "0" }, one)).toBe("concurrency");
  });

  it("prices a batch at 0.1 credit a task at least", () => {
    expect(minimumCredits(1)).toBe(0.1);
    expect(minimumCredits(3)).toBe(0.3);
    expect(minimumCredits(1000)).toBe(100);
  });
});
