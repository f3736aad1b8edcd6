// A spec graph (user flow or architecture) as an interactive node-edge diagram: laid out by
// dagre, pan and zoom, fit, and a details panel for the chosen node. A text version of the same
// graph sits below it for screen readers and keyboard users.
import { memo, useCallback, useId, useMemo, useState } from "react";
import {
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  type NodeProps,
  type OnSelectionChangeParams,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import type { Graph } from "../../bindings/Graph";
import type { GraphNode } from "../../bindings/GraphNode";
import { formatHours } from "../../lib/format";
import { label, layoutGraph, type Direction, type SpecFlowNode } from "./graphLayout";

const SpecNode = memo(function SpecNode({ data, selected }: NodeProps<SpecFlowNode>) {
  const n = data.node;
  const vertical = data.direction === "TB";
  return (
    <div className="gnode" data-selected={selected} data-type={n.type ?? ""}>
      <Handle type="target" position={vertical ? Position.Top : Position.Left} isConnectable={false} />
      <div className="gnode-label">{label(n)}</div>
      <div className="gnode-meta">
        {n.type && <span>{n.type}</span>}
        {n.hours !== undefined && <span>{formatHours(n.hours)}</span>}
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

export function GraphView({ graph, title, direction }: { graph: Graph; title: string; direction: Direction }) {
  const id = useId();
  const layout = useMemo(() => layoutGraph(graph, direction), [graph, direction]);
  const [selected, setSelected] = useState<string | null>(null);
  const byId = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n])), [graph]);
  const node = selected ? byId.get(selected) : undefined;
  const onSelectionChange = useCallback(({ nodes }: OnSelectionChangeParams) => {
    if (nodes[0]) setSelected(nodes[0].id);
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
        Drag to pan, scroll or use the buttons to zoom. Choose a node to see its details; Tab moves between nodes.
      </p>
      <div className="graph-row">
        <div className="graph-canvas">
          <ReactFlowProvider>
            <ReactFlow
              aria-label={`${title} diagram`}
              aria-describedby={`${id}-help`}
              defaultNodes={layout.nodes}
              defaultEdges={layout.edges}
              nodeTypes={NODE_TYPES}
              fitView
              minZoom={0.1}
              maxZoom={2.5}
              nodesConnectable={false}
              edgesFocusable={false}
              deleteKeyCode={null}
              proOptions={{ hideAttribution: true }}
              onNodeClick={(_, n) => setSelected(n.id)}
              onSelectionChange={onSelectionChange}
              onPaneClick={() => setSelected(null)}
            >
              <Background gap={20} size={1} />
              <Controls showInteractive={false} position="top-right" />
            </ReactFlow>
          </ReactFlowProvider>
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
