// A spec graph (user flow or architecture) as an interactive node-edge diagram, readable at first
// sight: laid out by dagre in the direction its shape calls for, first shown at a zoom that keeps
// every text of a node (label, type, hours) at least 12 px on screen (starting at its root when
// it does not fit the frame, with scrolling and dragging to move around), with a minimap, a "Fit"
// that respects that zoom, a "Show all" that may go below it, and a details panel for the chosen
// node. A text version of the same graph sits below it for screen readers and keyboard users.
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import {
  Background,
  ControlButton,
  Controls,
  Handle,
  MiniMap,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type NodeProps,
  type OnSelectionChangeParams,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import type { Graph } from "../../bindings/Graph";
import type { GraphNode } from "../../bindings/GraphNode";
import { formatHours } from "../../lib/format";
import {
  FIT_MAX_ZOOM,
  chooseDirection,
  graphShape,
  initialViewport,
  label,
  layoutBounds,
  layoutGraph,
  readableZoom,
  type Direction,
  type Layout,
  type SpecFlowNode,
  type Viewport,
} from "./graphLayout";

/** The lowest zoom the buttons, Ctrl + scroll and "Show all" can reach. */
const ZOOM_FLOOR = 0.1;
const ZOOM_CEILING = 2.5;

function motionMs(): number {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? 0 : 200;
}

const SpecNode = memo(function SpecNode({ data, selected }: NodeProps<SpecFlowNode>) {
  const n = data.node;
  const vertical = data.direction === "TB";
  return (
    <div className="gnode" data-selected={selected} data-type={n.type ?? ""}>
      <Handle type="target" position={vertical ? Position.Top : Position.Left} isConnectable={false} />
      <div className="gnode-label">{label(n)}</div>
      <div className="gnode-meta">
        {n.type && <span>{n.type}</span>}
        {n.hours !== undefined && <span className="gnode-hours">{formatHours(n.hours)}</span>}
      </div>
      <Handle type="source" position={vertical ? Position.Bottom : Position.Right} isConnectable={false} />
    </div>
  );
});

const NODE_TYPES = { spec: SpecNode };

function NodeDetails({ node, graph, onClose }: { node: GraphNode; graph: Graph; onClose: () => void }) {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const incoming = graph.edges.filter((e) => e.target === node.id);
  const outgoing = graph.edges.filter((e) => e.source === node.id);
  return (
    <section className="graph-details" aria-label={`Details of ${label(node)}`}>
      <div className="section-head">
        <h3>{label(node)}</h3>
        <button className="btn btn-ghost" type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="details-list">
        <dt>Type</dt>
        <dd>{node.type ?? "—"}</dd>
        <dt>Level</dt>
        <dd>{node.level ?? "—"}</dd>
        <dt>Hours</dt>
        <dd>{formatHours(node.hours)}</dd>
        <dt>Description</dt>
        <dd>{node.description ?? "—"}</dd>
      </dl>
      {incoming.length > 0 && (
        <>
          <h4>Comes from</h4>
          <ul>
            {incoming.map((e, i) => (
              <li key={i}>
                {label(byId.get(e.source))}
                {e.description && <span className="muted"> — {e.description}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {outgoing.length > 0 && (
        <>
          <h4>Leads to</h4>
          <ul>
            {outgoing.map((e, i) => (
              <li key={i}>
                {label(byId.get(e.target))}
                {e.description && <span className="muted"> — {e.description}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** What the first view needs from the page: the frame's size and the readable zoom (from the node texts' sizes). */
interface Measured {
  frame: { width: number; height: number };
  minZoom: number;
}

function firstView(layout: Layout, direction: Direction, frame: Measured["frame"], minZoom: number): Viewport {
  const b = layoutBounds(layout);
  return b ? initialViewport({ ...b, frame, direction, minZoom }) : { x: 0, y: 0, zoom: 1 };
}

function FitIcon() {
  // The corners of @xyflow/react's own fit-view icon (MIT), which its Controls do not export.
  return (
    <svg viewBox="0 0 32 30" aria-hidden="true" focusable="false">
      <path d="M3.692 4.63c0-.53.4-.938.939-.938h5.215V0H4.708C2.13 0 0 2.054 0 4.63v5.216h3.692V4.631zM27.354 0h-5.2v3.692h5.17c.53 0 .984.4.984.939v5.215H32V4.631A4.624 4.624 0 0027.354 0zm.954 24.83c0 .532-.4.94-.939.94h-5.215v3.768h5.215c2.577 0 4.631-2.13 4.631-4.707v-5.139h-3.692v5.139zm-23.677.94c-.531 0-.939-.4-.939-.94v-5.138H0v5.139c0 2.577 2.13 4.707 4.708 4.707h5.138V25.77H4.631z" />
    </svg>
  );
}

function ShowAllIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M1 5V1h4v1.5H3.6l3 3-1.1 1.1-3-3V5zm14 0V1h-4v1.5h1.4l-3 3 1.1 1.1 3-3V5zM1 11v4h4v-1.5H3.6l3-3-1.1-1.1-3 3V11zm14 0v4h-4v-1.5h1.4l-3-3 1.1-1.1 3 3V11z" />
    </svg>
  );
}

function Flow({
  title,
  helpId,
  layout,
  direction,
  measured,
  frameRef,
  onSelect,
}: {
  title: string;
  helpId: string;
  layout: Layout;
  direction: Direction;
  measured: Measured;
  frameRef: RefObject<HTMLDivElement | null>;
  onSelect: (id: string | null) => void;
}) {
  const rf = useReactFlow();
  const { minZoom } = measured;
  const initial = useMemo(() => firstView(layout, direction, measured.frame, minZoom), [layout, direction, measured.frame, minZoom]);
  // "Fit": the first view again, for the frame's size now (never below the readable zoom).
  const fit = useCallback(() => {
    const f = frameRef.current;
    const frame = f ? { width: f.clientWidth, height: f.clientHeight } : measured.frame;
    void rf.setViewport(firstView(layout, direction, frame, minZoom), { duration: motionMs() });
  }, [rf, frameRef, layout, direction, minZoom, measured.frame]);
  // "Show all": the whole graph in the frame, however small its labels get.
  const showAll = useCallback(() => {
    void rf.fitView({ padding: 0.05, minZoom: ZOOM_FLOOR, maxZoom: FIT_MAX_ZOOM, duration: motionMs() });
  }, [rf]);
  const onSelectionChange = useCallback(
    ({ nodes }: OnSelectionChangeParams) => {
      if (nodes[0]) onSelect(nodes[0].id);
    },
    [onSelect],
  );
  return (
    <ReactFlow
      aria-label={`${title} diagram`}
      aria-describedby={helpId}
      defaultNodes={layout.nodes}
      defaultEdges={layout.edges}
      nodeTypes={NODE_TYPES}
      defaultViewport={initial}
      minZoom={Math.min(ZOOM_FLOOR, minZoom)}
      maxZoom={Math.max(ZOOM_CEILING, minZoom)}
      panOnScroll
      nodesConnectable={false}
      edgesFocusable={false}
      deleteKeyCode={null}
      proOptions={{ hideAttribution: true }}
      onNodeClick={(_, n) => onSelect(n.id)}
      onSelectionChange={onSelectionChange}
      onPaneClick={() => onSelect(null)}
    >
      <Background gap={20} size={1} />
      <MiniMap
        position="bottom-right"
        ariaLabel={`${title} overview`}
        pannable
        zoomable
        style={{ width: 160, height: 100 }}
        bgColor="var(--surface-2)"
        maskColor="rgb(128 128 128 / 22%)"
        maskStrokeColor="var(--accent)"
        maskStrokeWidth={2}
        nodeColor="var(--accent-soft)"
        nodeStrokeColor="var(--accent)"
        nodeStrokeWidth={2}
      />
      {/* Our own Fit: the built-in one calls fitView (no readable floor) before any onFitView. */}
      <Controls showInteractive={false} showFitView={false} position="top-right">
        <ControlButton className="react-flow__controls-fitview" onClick={fit} aria-label="Fit view" title="Fit view (labels stay readable)">
          <FitIcon />
        </ControlButton>
        <ControlButton className="graph-show-all" onClick={showAll} aria-label="Show all" title="Show all (labels may get small)">
          <ShowAllIcon />
        </ControlButton>
      </Controls>
    </ReactFlow>
  );
}

export function GraphView({ graph, title, direction: preferred }: { graph: Graph; title: string; direction?: Direction }) {
  const id = useId();
  const direction = useMemo(() => chooseDirection(graphShape(graph), preferred), [graph, preferred]);
  const layout = useMemo(() => layoutGraph(graph, direction), [graph, direction]);
  const [selected, setSelected] = useState<string | null>(null);
  const byId = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n])), [graph]);
  const node = selected ? byId.get(selected) : undefined;
  const frameRef = useRef<HTMLDivElement>(null);
  const probeRef = useRef<HTMLDivElement>(null);
  const [measured, setMeasured] = useState<Measured | null>(null);

  // Before the first paint: the frame's size, and the readable zoom from the smallest font a
  // node's texts have as the page's styles make them (a probe with the label's and the meta's classes).
  useLayoutEffect(() => {
    const frame = frameRef.current;
    const probe = probeRef.current;
    if (!frame || !probe) return;
    const fontPx = Math.min(...[...probe.querySelectorAll("span")].map((e) => parseFloat(getComputedStyle(e).fontSize)));
    setMeasured({ frame: { width: frame.clientWidth, height: frame.clientHeight }, minZoom: readableZoom(fontPx) });
  }, []);

  if (graph.nodes.length === 0) {
    return (
      <section className="graph" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="empty">This graph has no nodes.</div>
      </section>
    );
  }

  return (
    <section className="graph" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="muted" id={`${id}-help`}>
        Drag or scroll to move around; Ctrl + scroll or the buttons zoom. Choose a node to see its details; Tab moves between nodes.
      </p>
      <div className="graph-row">
        <div
          className="graph-canvas"
          ref={frameRef}
          data-direction={direction}
          data-min-zoom={measured?.minZoom}
          style={{ position: "relative" }}
        >
          <div ref={probeRef} aria-hidden="true" style={{ position: "absolute", visibility: "hidden", pointerEvents: "none" }}>
            <span className="gnode-label">Ag</span>
            <span className="gnode-meta">
              <span>Ag</span>
              <span className="gnode-hours">1 h</span>
            </span>
          </div>
          {measured && (
            <ReactFlowProvider>
              <Flow
                title={title}
                helpId={`${id}-help`}
                layout={layout}
                direction={direction}
                measured={measured}
                frameRef={frameRef}
                onSelect={setSelected}
              />
            </ReactFlowProvider>
          )}
        </div>
        {node && <NodeDetails node={node} graph={graph} onClose={() => setSelected(null)} />}
      </div>
      {layout.dropped > 0 && (
        <p className="muted">
          {layout.dropped === 1 ? "One connection points" : `${layout.dropped} connections point`} to a node the graph does not list; it is left out.
        </p>
      )}
      <details className="graph-text">
        <summary>{title} as text</summary>
        <h3>Nodes</h3>
        <ul>
          {graph.nodes.map((n, i) => (
            <li key={`${n.id}-${i}`}>
              <button className="link-button" type="button" onClick={() => setSelected(n.id)}>
                {label(n)}
              </button>
              {n.type && <span className="muted"> ({n.type})</span>}
              {n.hours !== undefined && <span> — {formatHours(n.hours)}</span>}
              {n.description && <span className="muted"> — {n.description}</span>}
            </li>
          ))}
        </ul>
        <h3>Connections</h3>
        {graph.edges.length === 0 ? (
          <p className="muted">No connections.</p>
        ) : (
          <ul>
            {graph.edges.map((e, i) => (
              <li key={i}>
                {label(byId.get(e.source))} → {label(byId.get(e.target))}
                {e.description && <span className="muted"> — {e.description}</span>}
              </li>
            ))}
          </ul>
        )}
      </details>
    </section>
  );
}
