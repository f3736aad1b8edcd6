// Watches one batch over a Channel (`watch_batch`): each Channel message is a frame (every event
// of the last ~16 ms). What arrives is applied once per animation frame, in that frame (one
// reducer step, rendered and committed before the browser paints it): Rust's frames and the
// screen's are not in step, and a render landing mid-frame pushed the paint past it. The batch is
// read once first (`get_batch`) for its size and finished results. The stream is cancelled
// (`cancel_stream`) when the view goes away; to watch again, remount the caller with a new key.
import { useEffect, useReducer } from "react";
import { flushSync } from "react-dom";
import { Channel } from "@tauri-apps/api/core";
import type { Batch } from "../../../bindings/Batch";
import type { BatchEvent } from "../../../bindings/BatchEvent";
import { ErrorKind } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { initialWatch, watchReducer, type WatchState } from "./reducer";

/** Which batch: by its id, or by its job while the service has not named it yet (a live batch). */
/** A batch by its id, or by its job (`wait`: sent to wait for the whole result, so no step shows before it). */
export type WatchTarget = { batchId: string } | { jobId: number; total: number; wait?: boolean };

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
    let pending: BatchEvent[] = [];
    let frame = 0;
    let fallback: ReturnType<typeof setTimeout> | undefined;
    const apply = () => {
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
      frame = 0;
      fallback = undefined;
      const events = pending;
      pending = [];
      if (active && events.length) flushSync(() => dispatch({ type: "frame", events }));
    };
    channel.onmessage = (message) => {
      if (!active) return;
      for (const event of Array.isArray(message) ? message : [message]) pending.push(event);
      if (frame || fallback) return;
      frame = requestAnimationFrame(apply);
      // A window that is not shown gets no animation frames: applied anyway, four times a second.
      fallback = setTimeout(apply, 250);
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
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
      call("cancel_stream", { streamId }).catch(() => undefined);
    };
  }, [batchId, jobId, total]);
  return state;
}
