// The composer's file: chosen in the system's dialog or dropped on the window (while the composer
// is shown), then inspected by Rust (name, size, kind) before it becomes the draft's file.
import { useState, type Dispatch, type SetStateAction } from "react";
import { call, toIpcError } from "../../ipc/invoke";
import { useFileDrop } from "../../ipc/events";
import type { ComposerDraft, DraftErrors } from "./draft";

/** Whether a file is dragged over the window, one is being inspected, and how to choose one.
 * `latest` is the draft and its setter as last rendered (a drop's listener is set up once). */
export function useComposerFile(
  latest: { current: { draft: ComposerDraft; onChange: (d: ComposerDraft) => void } },
  setErrors: Dispatch<SetStateAction<DraftErrors>>,
): { dragging: boolean; inspecting: boolean; pickFile: () => Promise<void> } {
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
  // Files dropped on the window while the composer is shown: the first becomes the spec's file.
  const [dragging, setDragging] = useState(false);
  useFileDrop(
    "drag-drop",
    (paths) => {
      if (paths[0]) void inspect(paths[0]);
    },
    setDragging,
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
