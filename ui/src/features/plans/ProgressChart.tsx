// Progress over time: one column per stored snapshot (oldest first) with the features stacked by
// status, and the percent built as a line. The same figures are in a table below for screen
// readers and exact values.
import { useId } from "react";
import type { PlanPoint } from "../../bindings/PlanPoint";
import { formatDate, formatDateTime } from "../../lib/format";
import { CHART_BOX, chartData, historyStatuses } from "./progress";
import { FEATURE_STATUSES, isKnownStatus, statusLabel } from "./status";

function tokenOf(status: string): string {
  return isKnownStatus(status) ? `var(${FEATURE_STATUSES[status].token})` : "var(--status-unknown)";
}

export function ProgressChart({ history }: { history: PlanPoint[] }) {
  const id = useId();
  if (history.length === 0) return <p className="muted">No snapshots yet. One is kept each time the plan changes.</p>;
  const box = CHART_BOX;
  const data = chartData(history, box);
  const plotBottom = box.height - box.bottom;
  const plotH = plotBottom - box.top;
  const first = history[0];
  const last = history[history.length - 1];
  const statuses = historyStatuses(history);

  return (
    <figure className="chart" aria-labelledby={`${id}-cap`}>
      <figcaption id={`${id}-cap`} className="muted">
        {history.length === 1
          ? `One snapshot, ${formatDateTime(first?.computedAt)}: ${first?.percent ?? 0}% built.`
          : `${history.length} snapshots from ${formatDate(first?.computedAt)} to ${formatDate(last?.computedAt)}: ${first?.percent ?? 0}% → ${last?.percent ?? 0}% built.`}
      </figcaption>
      <svg
        className="chart-svg"
        viewBox={`0 0 ${box.width} ${box.height}`}
        role="img"
        aria-label="Chart of the percent built and the features by status over time; the table below has the same figures."
      >
        {[0, 25, 50, 75, 100].map((p) => {
          const y = box.top + plotH * (1 - p / 100);
          return (
            <g key={p} className="chart-grid">
              <line x1={box.left} x2={box.width - box.right} y1={y} y2={y} />
              <text x={box.left - 6} y={y} textAnchor="end" dominantBaseline="central">
                {p}%
              </text>
            </g>
          );
        })}
        <text x={box.width - box.right + 6} y={box.top} className="chart-axis-right" dominantBaseline="central">
          {data.maxCount}
        </text>
        <text x={box.width - box.right + 6} y={plotBottom} className="chart-axis-right" dominantBaseline="central">
          0
        </text>
        {data.points.map((p, i) => (
          <g key={`${p.computedAt}-${i}`}>
            {p.bars.map((b) => (
              <rect
                key={b.status}
                x={p.x - data.barWidth / 2}
                y={b.y}
                width={data.barWidth}
                height={b.height}
                fill={tokenOf(b.status)}
                className="chart-bar"
              />
            ))}
          </g>
        ))}
        <path d={data.path} className="chart-line" />
        {data.points.map((p, i) => (
          <circle key={`${p.computedAt}-${i}`} cx={p.x} cy={p.y} r={3.5} className="chart-dot" />
        ))}
        {data.points.length > 0 && (
          <>
            <text x={data.points[0]?.x} y={box.height - 12} textAnchor="middle" className="chart-date">
              {formatDate(data.points[0]?.computedAt)}
            </text>
            {data.points.length > 1 && (
              <text x={data.points[data.points.length - 1]?.x} y={box.height - 12} textAnchor="middle" className="chart-date">
                {formatDate(data.points[data.points.length - 1]?.computedAt)}
              </text>
            )}
          </>
        )}
      </svg>
      <ul className="chart-legend">
        <li>
          <span className="legend-line" aria-hidden="true" /> Percent built
        </li>
        {statuses.map((s) => (
          <li key={s}>
            <span className="legend-swatch" aria-hidden="true" style={{ background: tokenOf(s) }} /> {statusLabel(s)}
          </li>
        ))}
      </ul>
      <details className="chart-table">
        <summary>Progress over time as a table</summary>
        <div className="table-wrap">
          <table className="data-table">
            <caption className="visually-hidden">Plan snapshots, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Percent
                </th>
                <th scope="col" className="num">
                  Built
                </th>
                <th scope="col" className="num">
                  Proven working
                </th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">Features by status</th>
              </tr>
            </thead>
            <tbody>
              {history.map((p, i) => (
                <tr key={`${p.computedAt}-${i}`}>
                  <td>{formatDateTime(p.computedAt)}</td>
                  <td className="num">{p.percent}%</td>
                  <td className="num">{p.built}</td>
                  <td className="num">{p.provenWorking}</td>
                  <td className="num">{p.total}</td>
                  <td>
                    {statuses
                      .filter((s) => (p.statuses[s] ?? 0) > 0)
                      .map((s) => `${statusLabel(s)}: ${p.statuses[s]}`)
                      .join(", ") || "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
