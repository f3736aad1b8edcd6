// The composer's file: chosen in the system's dialog or dropped on the window (while the composer
// is shown), then inspected by Rust (name, size, kind) before it becomes the draft's file.
import { useState, type Dispatch, type SetStateAction } from "react";
import { getCurrentWebview, type DragDropEvent } from "@tauri-apps/api/webview";
import { call, toIpcError } from "../../ipc/invoke";
import { useSubscription } from "../../ipc/events";
import type { ComposerDraft, DraftErrors } from "./draft";

/** Whether a file is dragged over the window, one is being inspected, and how to choose one.
 * `latest` is the draft and its setter as last rendered (a drop's listener is set up once). */
export function useComposerFile(
  latest: { current: { draft: ComposerDraft; onChange: (d: ComposerDraft) => void } },
  setErrors: Dispatch<SetStateAction<DraftErrors>>,
): { dragging: boolean; inspecting: boolean; pickFile: () => Promise<void> } {
  const [dragging, setDragging] = useState(false);
  const [inspecting, setInspecting] = useState(false);

  const inspect = async (path: string) => {
    setInspecting(true);
    try {
      const info = await call("inspect_file", { path });
      const { draft: d, onChange: set } = latest.current;
      set({ ...d, file: info, missingFileName: null });
      setErrors((e) => {
        const next = { ...e };
        delete next.file;
        delete next.input;
        return next;
      });
    } catch (e) {
      setErrors((prev) => ({ ...prev, file: toIpcError(e).message }));
    } finally {
      setInspecting(false);
    }
  };
  // Files dropped on the window while the composer is shown become the spec's file.
  useSubscription<DragDropEvent>(
    "drag-drop",
    (deliver) => getCurrentWebview().onDragDropEvent((event) => deliver(event.payload)),
    (p) => {
      if (p.type === "enter" || p.type === "over") setDragging(true);
      else if (p.type === "leave") setDragging(false);
      else if (p.type === "drop") {
        setDragging(false);
        const path = p.paths[0];
        if (path) void inspect(path);
      }
    },
  );

  const pickFile = async () => {
    try {
      const path = await call("choose_file", { purpose: "specInput" });
      if (path !== null) await inspect(path);
    } catch (e) {
      setErrors((prev) => ({ ...prev, file: toIpcError(e).message }));
    }
  };
  return { dragging, inspecting, pickFile };
}
