import { describe, expect, it } from "vitest";
import { KNOWN_STATUSES, TASK_STATUSES, phaseInfo, statusInfo } from "./statuses";
import { describeStep, shotForStep, stepTime } from "./timeline";

describe("task statuses", () => {
  it("has every status of the spec, each with its own label, icon and one sentence", () => {
    expect(KNOWN_STATUSES).toEqual(["SUCCESS", "ERROR", "TIMEOUT", "BLOCKED", "CAPTCHA_FAILED", "LOOP", "NO_TARGET"]);
    const labels = KNOWN_STATUSES.map((s) => TASK_STATUSES[s].label);
    const icons = KNOWN_STATUSES.map((s) => TASK_STATUSES[s].icon);
    expect(new Set(labels).size).toBe(7);
    expect(new Set(icons).size).toBe(7);
    for (const s of KNOWN_STATUSES) {
      const m = TASK_STATUSES[s].meaning;
      expect(m.endsWith(".")).toBe(true);
      expect(m.split(/\.\s/).length).toBe(1);
    }
    expect(TASK_STATUSES.SUCCESS.tone).toBe("success");
    expect(KNOWN_STATUSES.filter((s) => TASK_STATUSES[s].tone === "success")).toEqual(["SUCCESS"]);
    expect(statusInfo("TIMEOUT").label).toBe("Timed out");
  });

  it("keeps an unknown status by its name, and names the phases before the end", () => {
    expect(statusInfo("PAUSED")).toMatchObject({ label: "PAUSED", icon: "question", tone: "neutral" });
    expect(phaseInfo("queued").label).toBe("Queued");
    expect(phaseInfo("running").label).toBe("Running");
  });
});

describe("timeline words", () => {
  it("describes each step with its detail", () => {
    const shots = { shots: [] };
    expect(describeStep({ kind: "event", event: { taskIndex: 0, type: "navigation", url: "https://a.example", title: "Home" } }, shots)).toMatchObject({ title: "Navigation", detail: "Home — https://a.example" });
    expect(describeStep({ kind: "event", event: { taskIndex: 0, type: "waiting", reason: "cloudflare" } }, shots)).toMatchObject({ title: "Waiting", detail: "cloudflare" });
    expect(
      describeStep({ kind: "event", event: { taskIndex: 0, type: "plan", actions: [{ type: "fill", selector: "#q", value: "tea" }], notes: "Search", done: false, captchaDetected: true } }, shots),
    ).toEqual({ title: "Plan", detail: "Search", more: ["fill #q with “tea”", "A CAPTCHA was detected on the page."], tone: "info" });
    // A value Rust blanked (a typed value may be a task's input value, a secret) is not shown as an empty one.
    expect(
      describeStep({ kind: "event", event: { taskIndex: 0, type: "plan", actions: [{ type: "fill", selector: "#password", value: "" }], notes: "Sign in", done: false, captchaDetected: false } }, shots).more,
    ).toEqual(["fill #password with a value not shown here"]);
    expect(describeStep({ kind: "event", event: { taskIndex: 0, type: "error", status: "TIMEOUT", error: "slow", durationMs: 61000 } }, shots)).toMatchObject({
      title: "Error",
      detail: "Timed out after 1 min 1 s: slow",
      tone: "bad",
    });
    expect(describeStep({ kind: "event", event: { taskIndex: 0, type: "done", status: "SUCCESS", durationMs: 3000 } }, shots)).toMatchObject({ detail: "Succeeded after 3 s", tone: "ok" });
  });

  it("times steps from the task's first event", () => {
    expect(stepTime(1000, 1000)).toBe("+0.0 s");
    expect(stepTime(13400, 1000)).toBe("+12.4 s");
    expect(stepTime(124000, 1000)).toBe("+2 min 3 s");
    expect(stepTime(undefined, 1000)).toBe("");
  });

  it("selects the last screenshot at or before a step", () => {
    const task = { shots: [{ step: 2, src: "", mimeType: "image/png" }, { step: 5, src: "", mimeType: "image/png" }] };
    expect(shotForStep(task, 0)).toBeNull();
    expect(shotForStep(task, 2)).toBe(0);
    expect(shotForStep(task, 4)).toBe(0);
    expect(shotForStep(task, 5)).toBe(1);
    expect(shotForStep(task, 9)).toBe(1);
  });
});
