// Automatic layout of a spec's graphs with dagre: top to bottom for the user flow, left to right
// for the architecture. Edges to unknown nodes are dropped; duplicate node ids keep the first.
import dagre from "@dagrejs/dagre";
import type { Edge, Node } from "@xyflow/react";
import type { Graph } from "../../bindings/Graph";
import type { GraphNode } from "../../bindings/GraphNode";

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 72;
/** Edge descriptions up to this length are drawn on the edge; longer ones only in the details. */
export const EDGE_LABEL_MAX = 28;

export type Direction = "TB" | "LR";

export type SpecNodeData = { node: GraphNode; direction: Direction } & Record<string, unknown>;
export type SpecFlowNode = Node<SpecNodeData, "spec">;

export interface Layout {
  nodes: SpecFlowNode[];
  edges: Edge[];
  /** Edges left out because an end is not a node of the graph. */
  dropped: number;
}

export function layoutGraph(graph: Graph, direction: Direction): Layout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: direction, nodesep: 40, ranksep: 70, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));

  const nodes = new Map<string, GraphNode>();
  for (const n of graph.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n);
  for (const id of nodes.keys()) g.setNode(id, { width: NODE_WIDTH, height: NODE_HEIGHT });

  const kept = graph.edges.filter((e) => nodes.has(e.source) && nodes.has(e.target));
  kept.forEach((e) => g.setEdge(e.source, e.target));
  dagre.layout(g);

  const flowNodes: SpecFlowNode[] = [...nodes.values()].map((n) => {
    const p = g.node(n.id) as { x: number; y: number };
    return {
      id: n.id,
      type: "spec",
      position: { x: Math.round(p.x - NODE_WIDTH / 2), y: Math.round(p.y - NODE_HEIGHT / 2) },
      data: { node: n, direction },
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      ariaLabel: nodeSummary(n),
    };
  });
  const edges: Edge[] = kept.map((e, i) => {
    const short = e.description && e.description.length <= EDGE_LABEL_MAX ? e.description : undefined;
    return {
      id: `e${i}-${e.source}-${e.target}`,
      source: e.source,
      target: e.target,
      label: short,
      ariaLabel: `${label(nodes.get(e.source))} to ${label(nodes.get(e.target))}${e.description ? `: ${e.description}` : ""}`,
      data: { description: e.description, edgeType: e.edgeType },
    };
  });
  return { nodes: flowNodes, edges, dropped: graph.edges.length - kept.length };
}

export function label(n: GraphNode | undefined): string {
  if (!n) return "unknown";
  return n.label?.trim() || n.id;
}

/** One line about a node, for screen readers and the text alternative. */
export function nodeSummary(n: GraphNode): string {
  const parts = [label(n)];
  if (n.type) parts.push(n.type);
  if (n.hours !== undefined) parts.push(`${n.hours} h`);
  return parts.join(", ");
}
