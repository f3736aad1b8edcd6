// Watches one batch over a Channel (`watch_batch`): each Channel message is a frame (every event
// of the last ~16 ms) applied in one reducer step. The batch is read once first (`get_batch`) for
// its size and finished results. The stream is cancelled (`cancel_stream`) when the view goes away;
// to watch again, remount the caller with a new key.
import { useEffect, useReducer } from "react";
import { Channel } from "@tauri-apps/api/core";
import type { Batch } from "../../../bindings/Batch";
import type { BatchEvent } from "../../../bindings/BatchEvent";
import { ErrorKind } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { initialWatch, watchReducer, type WatchState } from "./reducer";

/** Which batch: by its id, or by its job while the service has not named it yet (a live batch). */
export type WatchTarget = { batchId: string } | { jobId: number; total: number };

/** A batch known only by its job: its size, nothing finished yet. */
function unnamed(total: number): Batch {
  return { id: "", total, completed: 0, results: [], totalCost: 0, totalCreditsUsed: 0, status: "processing", createdAt: "" };
}

export function useBatchWatch(target: WatchTarget): WatchState {
  const [state, dispatch] = useReducer(watchReducer, undefined, initialWatch);
  const batchId = "batchId" in target ? target.batchId : undefined;
  const jobId = "jobId" in target ? target.jobId : undefined;
  const total = "total" in target ? target.total : 0;
  useEffect(() => {
    const streamId = crypto.randomUUID();
    const channel = new Channel<BatchEvent[]>();
    let active = true;
    channel.onmessage = (frame) => {
      if (active) dispatch({ type: "frame", events: Array.isArray(frame) ? frame : [frame] });
    };
    if (batchId !== undefined) {
      call("get_batch", { batchId, includeEvents: false })
        .then((batch) => {
          if (active) dispatch({ type: "seed", batch });
        })
        .catch(() => undefined); // The stream says what went wrong, if anything did.
    } else {
      dispatch({ type: "seed", batch: unnamed(total) });
    }
    const which = batchId !== undefined ? { batchId } : { jobId };
    call("watch_batch", { streamId, ...which, onEvent: channel })
      .then((batch) => {
        if (active) dispatch({ type: "resolved", batch });
      })
      .catch((e: unknown) => {
        const error = toIpcError(e);
        if (active && error.kind !== ErrorKind.cancelled) dispatch({ type: "failed", error });
      });
    return () => {
      active = false;
      call("cancel_stream", { streamId }).catch(() => undefined);
    };
  }, [batchId, jobId, total]);
  return state;
}
