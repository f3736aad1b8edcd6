import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DRAFT_STORAGE_KEY, emptyDraft, emptyRow, loadDraft, rowToTask, saveDraft, type BuilderDraft } from "./model";

beforeEach(() => window.localStorage.clear());
afterEach(() => window.localStorage.clear());

const SECRET = "correct horse battery staple";

function draftWithSecret(): BuilderDraft {
  return {
    concurrency: "3",
    rows: [
      {
        ...emptyRow(),
        id: "r1",
        url: "https://shop.example/login",
        instruction: "Sign in and read the order total",
        inputs: [
          { id: "i1", name: "email", value: "me@example.com" },
          { id: "i2", name: "password", value: SECRET },
        ],
        output: '{"type": "object"}',
        maxSteps: "12",
      },
    ],
  };
}

describe("the kept draft", () => {
  it("is saved without input values, names kept", () => {
    saveDraft(draftWithSecret());
    const raw = window.localStorage.getItem(DRAFT_STORAGE_KEY) ?? "";
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain("me@example.com");
    expect(JSON.parse(raw)).toEqual({
      version: 1,
      concurrency: "3",
      rows: [
        {
          id: "r1",
          url: "https://shop.example/login",
          instruction: "Sign in and read the order total",
          inputs: [
            { id: "i1", name: "email" },
            { id: "i2", name: "password" },
          ],
          output: '{"type": "object"}',
          successCondition: "",
          timeoutMs: "",
          maxSteps: "12",
          maxDurationSeconds: "",
          mode: "",
        },
      ],
    });
  });

  it("comes back after a restart with every cell and empty values", () => {
    saveDraft(draftWithSecret());
    const back = loadDraft();
    expect(back.concurrency).toBe("3");
    expect(back.rows.map((r) => rowToTask(r))).toEqual([
      {
        url: "https://shop.example/login",
        instruction: "Sign in and read the order total",
        input: { email: "", password: "" },
        output: { type: "object" },
        maxSteps: 12,
      },
    ]);
  });

  it("is removed when emptied, and an unreadable one gives an empty draft", () => {
    saveDraft(draftWithSecret());
    saveDraft(emptyDraft());
    expect(window.localStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
    window.localStorage.setItem(DRAFT_STORAGE_KEY, "{not json");
    const d = loadDraft();
    expect(d.concurrency).toBe("5");
    expect(d.rows.length).toBe(1);
    expect(rowToTask(d.rows[0] ?? emptyRow())).toEqual({ url: "" });
  });
});
