// The activity list, read from Rust (`activity`) and read again whenever a call, a reply or a job
// changes (`activity-changed`, `job-changed`): one app-level source, never a screen's own state.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useAppEvent } from "../../ipc/events";
import { useConnectionId } from "../../ipc/hooks";
import { call } from "../../ipc/invoke";

export const activityKey = (connection: string) => ["activity", connection] as const;

export function useActivity() {
  const connection = useConnectionId() ?? "";
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: activityKey(connection),
    queryFn: () => call("activity"),
    enabled: connection !== "",
    retry: false,
  });
  const again = useCallback(() => void qc.invalidateQueries({ queryKey: activityKey(connection) }), [qc, connection]);
  useAppEvent("activity-changed", again);
  useAppEvent("job-changed", again);
  return query;
}

/** Now, as milliseconds since the epoch, once a second while `ticking`. */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [ticking]);
  return now;
}
