import { describe, expect, it } from "vitest";
import deep from "../../../../crates/types/tests/fixtures/specs/spec-result-deep.json";
import type { Graph } from "../../bindings/Graph";
import { NODE_HEIGHT, NODE_WIDTH, layoutGraph, nodeSummary } from "./graphLayout";

describe("graph layout", () => {
  it("lays the user flow out top to bottom", () => {
    const { nodes, edges, dropped } = layoutGraph(deep.userFlowGraph as Graph, "TB");
    expect(nodes.map((n) => n.id)).toEqual(["signup", "plan"]);
    const [signup, plan] = nodes;
    expect(signup && plan).toBeTruthy();
    if (!signup || !plan) return;
    expect(Number.isFinite(signup.position.x) && Number.isFinite(signup.position.y)).toBe(true);
    expect(plan.position.y).toBeGreaterThan(signup.position.y + NODE_HEIGHT);
    expect(plan.position.x).toBe(signup.position.x);
    expect(signup.width).toBe(NODE_WIDTH);
    expect(signup.ariaLabel).toBe("Sign up, screen, 6 h");
    expect(edges).toEqual([
      expect.objectContaining({ source: "signup", target: "plan", label: "after first login", ariaLabel: "Sign up to Plan week: after first login" }),
    ]);
    expect(dropped).toBe(0);
  });

  it("lays the architecture out left to right", () => {
    const { nodes } = layoutGraph(deep.architectureGraph as Graph, "LR");
    const web = nodes.find((n) => n.id === "web");
    const db = nodes.find((n) => n.id === "db");
    expect(web && db).toBeTruthy();
    if (!web || !db) return;
    expect(db.position.x).toBeGreaterThan(web.position.x + NODE_WIDTH);
    expect(db.position.y).toBe(web.position.y);
  });

  it("drops edges to unknown nodes, keeps the first of duplicate ids and hides long edge labels", () => {
    const graph: Graph = {
      nodes: [
        { id: "a", label: "A" },
        { id: "b" },
        { id: "a", label: "Duplicate" },
      ],
      edges: [
        { source: "a", target: "b", description: "a description far longer than the label limit" },
        { source: "a", target: "ghost" },
      ],
    };
    const { nodes, edges, dropped } = layoutGraph(graph, "TB");
    expect(nodes.map((n) => n.data.node.label ?? n.id)).toEqual(["A", "b"]);
    expect(edges).toHaveLength(1);
    expect(edges[0]?.label).toBeUndefined();
    expect(dropped).toBe(1);
    expect(nodeSummary({ id: "x" })).toBe("x");
  });
});
