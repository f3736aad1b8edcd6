// Automatic layout of a spec's graphs with dagre, and the pure rules that make a graph readable
// at first sight: the direction chosen from the graph's shape (`graphShape`, `chooseDirection`),
// the smallest zoom that keeps every text of a node legible (`readableZoom`) and the first view
// (`initialViewport`: everything when it fits at a readable zoom, else the start of the graph).
// Edges to unknown nodes are dropped; duplicate node ids keep the first.
import dagre from "@dagrejs/dagre";
import type { Edge, Node } from "@xyflow/react";
import type { Graph } from "../../bindings/Graph";
import type { GraphNode } from "../../bindings/GraphNode";

/** A node's box, as specs.css draws `.gnode`: 72 px hold its label line (16 px text) and its type
 * and hours line (14 px text) with the padding and the border. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 72;
/** Edge descriptions up to this length are drawn on the edge; longer ones only in the details. */
export const EDGE_LABEL_MAX = 28;

export type Direction = "TB" | "LR";

/** Smallest on-screen size of any text of a node, in CSS pixels, at any zoom the app picks by itself. */
export const LABEL_MIN_SCREEN_PX = 12;
/** The zoom a first view or "Fit" never goes above: a small graph is shown at its natural size. */
export const FIT_MAX_ZOOM = 1;
/** Space kept between the graph and the frame's edges by the first view, in screen pixels. */
export const VIEW_PADDING = 16;

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

/**
 * The smallest zoom at which text drawn at `labelFontPx` (a node's smallest font) is still
 * `minScreenPx` on screen, rounded up to a thousandth so that `labelFontPx × zoom ≥ minScreenPx`
 * holds exactly. A font of 14 px gives 0.858; of 12 px, 1; of 10 px, 1.2 (above natural size).
 */
export function readableZoom(labelFontPx: number, minScreenPx: number = LABEL_MIN_SCREEN_PX): number {
  if (!Number.isFinite(labelFontPx) || labelFontPx <= 0) return 1;
  return Math.ceil((minScreenPx / labelFontPx) * 1000 - 1e-9) / 1000;
}

/** The shape of a graph, as its ranks (longest-path layering, cycles broken) make it. */
export interface GraphShape {
  /** Nodes on the longest directed path (a chain of nine: 9; a lone node: 1; no node: 0). */
  longestPath: number;
  /** Most nodes sharing one rank (a root with eight children: 8). */
  widestRank: number;
}

/**
 * Ranks each node by its longest path from a root (edges closing a cycle, self-loops, edges to
 * unknown nodes and duplicate edges left out, as dagre leaves them out of the ranking), and
 * measures the longest path and the widest rank.
 */
export function graphShape(graph: Graph): GraphShape {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const n of graph.nodes) {
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    ids.push(n.id);
  }
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of graph.edges) {
    const next = out.get(e.source);
    if (next && seen.has(e.target) && e.source !== e.target && !next.includes(e.target)) next.push(e.target);
  }
  // Depth-first, in the graph's order: an edge back to a node still on the path closes a cycle.
  const state = new Map<string, 1 | 2>();
  const order: string[] = [];
  const kept = new Map<string, string[]>(ids.map((id) => [id, []]));
  const visit = (start: string) => {
    const stack: [string, number][] = [[start, 0]];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as [string, number];
      const [id, i] = top;
      const next = out.get(id) ?? [];
      if (i < next.length) {
        top[1] = i + 1;
        const t = next[i] as string;
        const st = state.get(t);
        if (st === 1) continue;
        kept.get(id)?.push(t);
        if (st === undefined) {
          state.set(t, 1);
          stack.push([t, 0]);
        }
      } else {
        state.set(id, 2);
        order.push(id);
        stack.pop();
      }
    }
  };
  for (const id of ids) if (!state.has(id)) visit(id);
  // Reverse post-order is a topological order of the kept edges.
  const rank = new Map<string, number>(ids.map((id) => [id, 0]));
  for (const id of order.reverse()) {
    const r = rank.get(id) ?? 0;
    for (const t of kept.get(id) ?? []) if ((rank.get(t) ?? 0) < r + 1) rank.set(t, r + 1);
  }
  const perRank = new Map<number, number>();
  for (const r of rank.values()) perRank.set(r, (perRank.get(r) ?? 0) + 1);
  return {
    longestPath: ids.length === 0 ? 0 : Math.max(...rank.values()) + 1,
    widestRank: Math.max(0, ...perRank.values()),
  };
}

/** A path this many times longer than the widest rank (or a rank this many times wider than the longest path) is "much" so. */
export const MUCH = 2;
/**
 * Ranks from which a stacked (top-to-bottom) graph no longer fits the 480-px frame at a readable
 * zoom: 5 ranks are 5 × 72 + 4 × 70 = 640 px, 549 px at 0.858.
 */
export const LONG_PATH_MIN = 5;
/** Nodes in one rank from which a graph is laid out in rows (its ranks across the wide frame). */
export const WIDE_RANK_MIN = 4;

/**
 * The layout direction from the graph's shape: left to right when its longest path is much longer
 * than its widest rank (a long chain reads as a timeline across the wide frame instead of a
 * stack that needs scrolling), top to bottom when its widest rank is much wider than its longest
 * path (a fan-out spreads its many siblings across the frame), and otherwise the direction
 * preferred for the kind of graph (top to bottom when none is given).
 */
export function chooseDirection(shape: GraphShape, preferred: Direction = "TB"): Direction {
  const { longestPath: long, widestRank: wide } = shape;
  if (long >= LONG_PATH_MIN && long >= MUCH * wide) return "LR";
  if (wide >= WIDE_RANK_MIN && wide >= MUCH * long) return "TB";
  return preferred;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** The box around every node of a layout, and the root's box (the first node no edge enters). */
export function layoutBounds(layout: Layout): { bounds: Rect; root: Rect } | undefined {
  if (layout.nodes.length === 0) return undefined;
  const xs = layout.nodes.map((n) => n.position.x);
  const ys = layout.nodes.map((n) => n.position.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  const bounds = { x, y, width: Math.max(...xs) + NODE_WIDTH - x, height: Math.max(...ys) + NODE_HEIGHT - y };
  const entered = new Set(layout.edges.filter((e) => e.source !== e.target).map((e) => e.target));
  const first = layout.nodes.find((n) => !entered.has(n.id)) ?? layout.nodes[0];
  const root = { x: first?.position.x ?? x, y: first?.position.y ?? y, width: NODE_WIDTH, height: NODE_HEIGHT };
  return { bounds, root };
}

/**
 * The first view of a graph (and what "Fit" returns to): the zoom that shows the whole graph in
 * the frame, never above `FIT_MAX_ZOOM` and never below `minZoom`. Along each axis, a graph that
 * fits is centred; one that does not starts at its beginning: along the flow (y for TB, x for LR)
 * at the first rank, across it centred on the root, without showing empty space past either end.
 */
export function initialViewport(opts: {
  bounds: Rect;
  root: Rect;
  frame: { width: number; height: number };
  direction: Direction;
  minZoom: number;
  padding?: number;
}): Viewport {
  const { bounds, root, frame, direction, minZoom } = opts;
  const pad = opts.padding ?? VIEW_PADDING;
  const fit = Math.min((frame.width - 2 * pad) / bounds.width, (frame.height - 2 * pad) / bounds.height);
  const zoom = Math.max(minZoom, Math.min(FIT_MAX_ZOOM, Number.isFinite(fit) && fit > 0 ? fit : FIT_MAX_ZOOM));
  const axis = (start: number, size: number, frameSize: number, rootStart: number, rootSize: number, along: boolean) => {
    const shown = size * zoom;
    if (shown <= frameSize - 2 * pad) return (frameSize - shown) / 2 - start * zoom;
    const first = pad - start * zoom; // the graph's start at the frame's start
    if (along) return first;
    const last = frameSize - pad - (start + size) * zoom; // the graph's end at the frame's end
    const centred = frameSize / 2 - (rootStart + rootSize / 2) * zoom;
    return Math.min(first, Math.max(last, centred));
  };
  return {
    x: axis(bounds.x, bounds.width, frame.width, root.x, root.width, direction === "LR"),
    y: axis(bounds.y, bounds.height, frame.height, root.y, root.height, direction === "TB"),
    zoom,
  };
}
