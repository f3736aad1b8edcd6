// A spec's acceptance runs from localStorage, newest first, kept current when a run is saved
// anywhere in the app (one window event) or in another window (the storage event).
import { useCallback, useEffect, useState } from "react";
import { RUNS_STORAGE_KEY, loadRuns, saveRun, type AcceptanceRun } from "./model";

const CHANGED = "specdesk:acceptance-runs";

export function useAcceptanceRuns(specId: string): [AcceptanceRun[], (run: AcceptanceRun) => void] {
  const [runs, setRuns] = useState<AcceptanceRun[]>(() => loadRuns(specId));
  useEffect(() => {
    const reload = () => setRuns(loadRuns(specId));
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === RUNS_STORAGE_KEY) reload();
    };
    reload();
    window.addEventListener(CHANGED, reload);
    window.addEventListener("storage", onStorage);
    return () => {
      window.removeEventListener(CHANGED, reload);
      window.removeEventListener("storage", onStorage);
    };
  }, [specId]);
  const save = useCallback(
    (run: AcceptanceRun) => {
      setRuns(saveRun(specId, run));
      window.dispatchEvent(new Event(CHANGED));
    },
    [specId],
  );
  return [runs, save];
}
