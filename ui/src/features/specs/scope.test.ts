import { describe, expect, it } from "vitest";
import deep from "../../../../crates/types/tests/fixtures/specs/spec-result-deep.json";
import fast from "../../../../crates/types/tests/fixtures/specs/spec-result-fast.json";
import type { ScopeOfWork } from "../../bindings/ScopeOfWork";
import { layerOptions, roleOptions, scopeTree, stripLayer, subtaskLayer } from "./scope";

const human = deep.humanSpecJson as ScopeOfWork;
const agent = deep.codingAgentSpecJson as ScopeOfWork;

describe("scope explorer tree", () => {
  it("reads a subtask's layer", () => {
    expect(subtaskLayer("[DB] Create schema")).toBe("DB");
    expect(subtaskLayer("[frontend] Page")).toBe("FE");
    expect(subtaskLayer("[Mobile] App shell")).toBe("Mobile");
    expect(subtaskLayer("No layer")).toBeNull();
    expect(stripLayer("[QA] Smoke tests")).toBe("Smoke tests");
  });

  it("sums hours per milestone and keeps the spec's total", () => {
    const tree = scopeTree(human, undefined, deep.totalHumanHours);
    expect(tree.milestones.map((m) => [m.number, m.description, m.hours, m.statedHours])).toEqual([
      [1, "Project setup", 8, 24],
      [2, "Deployment, CI/CD and monitoring", 16.5, 16.5],
    ]);
    expect(tree.shownHours).toBe(24.5);
    expect(tree.totalHours).toBe(40.5);
    expect(tree.storyCount).toBe(2);
    expect(tree.subtaskCount).toBe(4);
    expect(tree.hasSubtasks).toBe(true);
    expect(tree.hasHours).toBe(true);
    expect(tree.milestones[0]?.stories[0]?.subTasks.map((t) => [t.layer, t.description, t.hours, t.roles])).toEqual([
      ["DB", "Create schema for users and recipes", 3, ["BE"]],
      ["Infra", "CI pipeline with test and deploy jobs", 5, ["DO", "BE"]],
    ]);
  });

  it("filters by role", () => {
    const devops = scopeTree(human, { role: "DO", layer: null }, 40.5);
    expect(devops.milestones.map((m) => [m.number, m.hours])).toEqual([
      [1, 5],
      [2, 10],
    ]);
    expect(devops.milestones[0]?.stories[0]?.hiddenSubtasks).toBe(1);
    expect(devops.shownHours).toBe(15);
    expect(devops.totalHours).toBe(40.5);
    const backend = scopeTree(human, { role: "BE", layer: null });
    expect(backend.milestones.map((m) => [m.number, m.hours])).toEqual([[1, 8]]);
  });

  it("filters by layer, and by both", () => {
    expect(scopeTree(human, { role: null, layer: "QA" }).milestones.map((m) => [m.number, m.hours])).toEqual([[2, 6.5]]);
    expect(scopeTree(human, { role: "DO", layer: "Infra" }).milestones.map((m) => [m.number, m.hours])).toEqual([[1, 5]]);
    expect(scopeTree(human, { role: "BE", layer: "Docs" }).milestones).toEqual([]);
  });

  it("offers the roles and layers the subtasks use", () => {
    expect(roleOptions(human)).toEqual([
      { value: "BE", label: "Backend engineer (BE)" },
      { value: "DO", label: "DevOps engineer (DO)" },
    ]);
    expect(layerOptions(human)).toEqual(["DB", "Infra", "QA", "Docs"]);
    expect(layerOptions(agent)).toEqual(["DB", "API"]);
  });

  it("handles the coding-agent scope without hours, and a fast spec", () => {
    const tree = scopeTree(agent);
    expect(tree.hasHours).toBe(false);
    expect(tree.milestones[0]?.stories.map((s) => s.title)).toEqual(["Repository and CI", "Seed data"]);
    const fastTree = scopeTree(fast.humanSpecJson as ScopeOfWork, undefined, fast.totalHumanHours);
    expect(fastTree.milestones.map((m) => [m.number, m.hours, m.stories.map((s) => s.hours)])).toEqual([[1, 14, [2, 4, 8]]]);
    expect(fastTree.totalHours).toBe(14);
    expect(fastTree.hasSubtasks).toBe(false);
    expect(layerOptions(fast.humanSpecJson as ScopeOfWork)).toEqual([]);
  });
});
