// The service's capacity (`agent_capacity`) as a gauge: in flight, queued, utilization, the
// oldest queued task's age, and what it means for the user's wait. Read again every 10 s.
import { useId } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useConnectionId } from "../../../ipc/hooks";
import { call, toIpcError } from "../../../ipc/invoke";
import { utilizationPercent, waitSentence } from "./capacity";
import "./watch.css";

export const CAPACITY_REFRESH_MS = 10_000;

export function CapacityGauge() {
  const id = useId();
  const c = useConnectionId() ?? "";
  const q = useQuery({
    queryKey: ["agent_capacity", c],
    queryFn: () => call("agent_capacity"),
    enabled: c !== "",
    retry: false,
    refetchInterval: CAPACITY_REFRESH_MS,
  });
  return (
    <section className="capacity card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Service capacity</h2>
      {q.isPending && c !== "" && <p className="skeleton">Reading the service's capacity…</p>}
      {q.isError && <ErrorPanel error={toIpcError(q.error)} onRetry={() => void q.refetch()} level={3} />}
      {q.data && (
        <>
          <p className="capacity-sentence">{waitSentence(q.data)}</p>
          <div
            className="gauge"
            role="meter"
            aria-label="Utilization"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={utilizationPercent(q.data)}
            aria-valuetext={`${utilizationPercent(q.data)}% of the service's browsers busy`}
            data-level={utilizationPercent(q.data) >= 100 ? "full" : utilizationPercent(q.data) >= 80 ? "high" : "ok"}
          >
            <span className="gauge-fill" style={{ width: `${utilizationPercent(q.data)}%` }} />
          </div>
          <dl className="stat-grid capacity-facts">
            <div className="stat">
              <dt>In flight</dt>
              <dd>
                {q.data.totalActive.toLocaleString("en-US")} of {q.data.maxSandboxes.toLocaleString("en-US")}
              </dd>
            </div>
            <div className="stat">
              <dt>Queued</dt>
              <dd>{q.data.pending.toLocaleString("en-US")}</dd>
            </div>
            <div className="stat">
              <dt>Utilization</dt>
              <dd>{utilizationPercent(q.data)}%</dd>
            </div>
            <div className="stat">
              <dt>Oldest queued</dt>
              <dd>{q.data.pending > 0 ? `${(q.data.oldestQueuedAgeMs / 1000).toFixed(1)} s` : "—"}</dd>
            </div>
          </dl>
          <p className="muted hint">You can run up to {q.data.perUserCap.toLocaleString("en-US")} tasks at once.</p>
        </>
      )}
    </section>
  );
}
