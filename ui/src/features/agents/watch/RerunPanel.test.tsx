import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import type { Batch } from "../../../bindings/Batch";
import { CompareTable } from "./RerunPanel";
import type { TaskView } from "./reducer";

const original = {
  results: [
    { url: "https://shop.example/1", status: "SUCCESS", data: { price: 12.5 }, creditsUsed: 0.1 },
    { url: "https://shop.example/2", status: "NO_TARGET", data: null, creditsUsed: 0.12 },
    { url: "https://shop.example/3", status: "SUCCESS", data: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, creditsUsed: 0.1 },
  ],
} as unknown as Batch;

const task = (url: string, phase: string, data: unknown, creditsUsed: number) => ({ url, phase, data, creditsUsed }) as unknown as TaskView;

describe("a re-run compared with its first run", () => {
  it("shows what changed in each task's data, path by path, or Same", () => {
    render(
      <CompareTable
        original={original}
        indices={[1, 0, 2]}
        tasks={[
          task("https://shop.example/2", "SUCCESS", { passed: true }, 0.12),
          task("https://shop.example/1", "SUCCESS", { price: 12.5 }, 0.1),
          task("https://shop.example/3", "SUCCESS", { a: 0, b: 0, c: 0, d: 0, e: 0, f: 6 }, 0.1),
        ]}
      />,
    );
    const rows = screen.getAllByRole("row").slice(1);
    const cells = rows.map((r) => [...r.children].map((c) => c.textContent));
    expect(cells).toEqual([
      ["2 https://shop.example/2", "Nothing to act on", "Succeeded", '(the whole data): added {"passed":true}', "0.12 → 0.12"],
      ["1 https://shop.example/1", "Succeeded", "Succeeded", "Same", "0.1 → 0.1"],
      ["3 https://shop.example/3", "Succeeded", "Succeeded", "a: 1 → 0b: 2 → 0c: 3 → 0d: 4 → 0and 1 more change", "0.1 → 0.1"],
    ]);
    expect([...rows[2]?.querySelectorAll("li") ?? []].map((li) => li.textContent)).toEqual(["a: 1 → 0", "b: 2 → 0", "c: 3 → 0", "d: 4 → 0", "and 1 more change"]);
  });
});
