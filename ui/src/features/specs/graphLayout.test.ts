import { describe, expect, it } from "vitest";
import deep from "../../../../crates/types/tests/fixtures/specs/spec-result-deep.json";
import type { Graph } from "../../bindings/Graph";
import {
  FIT_MAX_ZOOM,
  LABEL_MIN_SCREEN_PX,
  NODE_HEIGHT,
  NODE_WIDTH,
  chooseDirection,
  graphShape,
  initialViewport,
  layoutBounds,
  layoutGraph,
  nodeSummary,
  readableZoom,
} from "./graphLayout";

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

// Graph shapes of the screen tests (src/mock/scenarios/graphs.ts), written out here.
const chain = (n: number): Graph => ({
  nodes: Array.from({ length: n }, (_, i) => ({ id: `s${i + 1}` })),
  edges: Array.from({ length: n - 1 }, (_, i) => ({ source: `s${i + 1}`, target: `s${i + 2}` })),
});
const fanOut = (n: number): Graph => ({
  nodes: [{ id: "gw" }, ...Array.from({ length: n }, (_, i) => ({ id: `c${i}` }))],
  edges: Array.from({ length: n }, (_, i) => ({ source: "gw", target: `c${i}` })),
});

describe("the readable zoom", () => {
  it("keeps a label at 12 px or more on screen, rounded up to a thousandth", () => {
    expect(readableZoom(14)).toBe(0.858);
    expect(readableZoom(13)).toBe(0.924);
    expect(readableZoom(12)).toBe(1);
    expect(readableZoom(16)).toBe(0.75);
    expect(readableZoom(10)).toBe(1.2);
    expect(readableZoom(14, 14)).toBe(1);
    expect(LABEL_MIN_SCREEN_PX).toBe(12);
    for (const px of [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 24]) expect(px * readableZoom(px)).toBeGreaterThanOrEqual(12);
  });

  it("falls back to the natural size for a font it cannot read", () => {
    expect(readableZoom(0)).toBe(1);
    expect(readableZoom(Number.NaN)).toBe(1);
    expect(readableZoom(-3)).toBe(1);
  });
});

describe("the shape of a graph", () => {
  it("measures the longest path and the widest rank", () => {
    expect(graphShape(chain(9))).toEqual({ longestPath: 9, widestRank: 1 });
    expect(graphShape(fanOut(8))).toEqual({ longestPath: 2, widestRank: 8 });
    expect(graphShape(deep.userFlowGraph as Graph)).toEqual({ longestPath: 2, widestRank: 1 });
    expect(graphShape({ nodes: [], edges: [] })).toEqual({ longestPath: 0, widestRank: 0 });
    expect(graphShape({ nodes: [{ id: "a" }], edges: [] })).toEqual({ longestPath: 1, widestRank: 1 });
    // Unconnected nodes share the first rank.
    expect(graphShape({ nodes: [{ id: "a" }, { id: "b" }, { id: "c" }], edges: [] })).toEqual({ longestPath: 1, widestRank: 3 });
  });

  it("ranks a node by its longest way in, whatever the order of nodes and edges", () => {
    const diamond: Graph = {
      nodes: [{ id: "d" }, { id: "c" }, { id: "b" }, { id: "a" }],
      edges: [
        { source: "c", target: "d" },
        { source: "a", target: "b" },
        { source: "b", target: "d" },
        { source: "a", target: "c" },
      ],
    };
    expect(graphShape(diamond)).toEqual({ longestPath: 3, widestRank: 2 });
    const shortcut: Graph = {
      nodes: [{ id: "a" }, { id: "b" }, { id: "c" }],
      edges: [
        { source: "a", target: "c" },
        { source: "a", target: "b" },
        { source: "b", target: "c" },
      ],
    };
    expect(graphShape(shortcut)).toEqual({ longestPath: 3, widestRank: 1 });
  });

  it("breaks cycles, ignores self-loops, duplicate ids and edges to unknown nodes", () => {
    const cycle: Graph = {
      nodes: [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "a" }],
      edges: [
        { source: "a", target: "b" },
        { source: "b", target: "c" },
        { source: "c", target: "a" },
        { source: "b", target: "b" },
        { source: "a", target: "b" },
        { source: "c", target: "ghost" },
        { source: "ghost", target: "a" },
      ],
    };
    expect(graphShape(cycle)).toEqual({ longestPath: 3, widestRank: 1 });
    // A long chain stays a chain when its last step leads back to the first.
    const loop = chain(9);
    expect(graphShape({ ...loop, edges: [...loop.edges, { source: "s9", target: "s1" }] })).toEqual({ longestPath: 9, widestRank: 1 });
  });
});

describe("the layout direction", () => {
  it("lays a long chain out left to right, whatever the graph's kind prefers", () => {
    expect(chooseDirection(graphShape(chain(9)), "TB")).toBe("LR");
    expect(chooseDirection(graphShape(chain(9)), "LR")).toBe("LR");
    expect(chooseDirection(graphShape(chain(9)))).toBe("LR");
    expect(chooseDirection({ longestPath: 5, widestRank: 1 }, "TB")).toBe("LR");
    expect(chooseDirection({ longestPath: 6, widestRank: 3 }, "TB")).toBe("LR");
  });

  it("lays a wide fan-out top to bottom, whatever the graph's kind prefers", () => {
    expect(chooseDirection(graphShape(fanOut(8)), "LR")).toBe("TB");
    expect(chooseDirection(graphShape(fanOut(8)), "TB")).toBe("TB");
    expect(chooseDirection({ longestPath: 2, widestRank: 4 }, "LR")).toBe("TB");
    expect(chooseDirection({ longestPath: 3, widestRank: 6 }, "LR")).toBe("TB");
  });

  it("keeps the preferred direction when the shape is not much longer nor much wider", () => {
    // Four steps stacked still fit the frame at a readable zoom; three side by side too.
    expect(chooseDirection({ longestPath: 4, widestRank: 1 }, "TB")).toBe("TB");
    expect(chooseDirection({ longestPath: 4, widestRank: 1 }, "LR")).toBe("LR");
    expect(chooseDirection({ longestPath: 3, widestRank: 1 }, "LR")).toBe("LR");
    expect(chooseDirection({ longestPath: 5, widestRank: 3 }, "LR")).toBe("LR");
    expect(chooseDirection({ longestPath: 2, widestRank: 3 }, "LR")).toBe("LR");
    expect(chooseDirection({ longestPath: 3, widestRank: 5 }, "LR")).toBe("LR");
    expect(chooseDirection({ longestPath: 3, widestRank: 3 })).toBe("TB");
    expect(chooseDirection({ longestPath: 0, widestRank: 0 }, "LR")).toBe("LR");
  });
});

describe("the first view", () => {
  const frame = { width: 800, height: 480 };

  it("shows a small graph whole, centred, at its natural size at most", () => {
    const v = initialViewport({ bounds: { x: 0, y: 0, width: 400, height: 200 }, root: { x: 0, y: 0, width: 200, height: 72 }, frame, direction: "TB", minZoom: 0.858 });
    expect(v).toEqual({ x: 200, y: 140, zoom: FIT_MAX_ZOOM });
    const w = initialViewport({ bounds: { x: 0, y: 0, width: 1000, height: 300 }, root: { x: 0, y: 0, width: 200, height: 72 }, frame, direction: "LR", minZoom: 0.5 });
    expect(w.zoom).toBe(0.768);
    expect(w.x).toBeCloseTo(16, 9);
    expect(w.y).toBeCloseTo(124.8, 9);
  });

  it("never fits a tall chain below the readable zoom: it starts at the top, centred across", () => {
    const layout = layoutGraph(chain(9), "TB");
    const b = layoutBounds(layout);
    expect(b).toEqual({ bounds: { x: 16, y: 16, width: 200, height: 1208 }, root: { x: 16, y: 16, width: 200, height: 72 } });
    if (!b) return;
    const v = initialViewport({ ...b, frame, direction: "TB", minZoom: 0.858 });
    expect(v.zoom).toBe(0.858);
    expect(v.x).toBeCloseTo(300.472, 9);
    expect(v.y).toBeCloseTo(2.272, 9);
  });

  it("starts a long left-to-right chain at its first step", () => {
    const layout = layoutGraph(chain(9), "LR");
    const b = layoutBounds(layout);
    expect(b).toEqual({ bounds: { x: 16, y: 16, width: 2360, height: 72 }, root: { x: 16, y: 16, width: 200, height: 72 } });
    if (!b) return;
    const v = initialViewport({ ...b, frame, direction: "LR", minZoom: 0.858 });
    expect(v.zoom).toBe(0.858);
    expect(v.x).toBeCloseTo(2.272, 9);
    expect(v.y).toBeCloseTo(195.384, 9);
  });

  it("centres a wide fan-out on its root, and never scrolls past either end", () => {
    const layout = layoutGraph(fanOut(8), "TB");
    const b = layoutBounds(layout);
    expect(b).toEqual({ bounds: { x: 16, y: 16, width: 1880, height: 214 }, root: { x: 856, y: 16, width: 200, height: 72 } });
    if (!b) return;
    const v = initialViewport({ ...b, frame, direction: "TB", minZoom: 0.858 });
    expect(v.zoom).toBe(0.858);
    expect(v.x).toBeCloseTo(-420.248, 9);
    expect(v.y).toBeCloseTo(134.466, 9);
    // A root at the left end: the view starts at the graph's left edge, not before it.
    const left = initialViewport({ ...b, root: { x: 16, y: 16, width: 200, height: 72 }, frame, direction: "TB", minZoom: 0.858 });
    expect(left.x).toBeCloseTo(2.272, 9);
    // A root at the right end: the view ends at the graph's right edge.
    const right = initialViewport({ ...b, root: { x: 1696, y: 16, width: 200, height: 72 }, frame, direction: "TB", minZoom: 0.858 });
    expect(right.x).toBeCloseTo(-842.768, 9);
  });

  it("finds no bounds for a graph without nodes", () => {
    expect(layoutBounds(layoutGraph({ nodes: [], edges: [] }, "TB"))).toBeUndefined();
  });
});
