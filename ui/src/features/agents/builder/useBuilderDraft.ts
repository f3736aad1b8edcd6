// The builder's draft in React state: restored from this run's memory (input values included)
// or from localStorage (values left out) with its input values from the OS keychain, and
// written back as the user types — debounced, and at once when the screen goes away or the
// window closes. Input values are secrets: they go to the keychain (`keep_draft_values`), never
// to localStorage.
import { useCallback, useEffect, useRef, useState } from "react";
import type { IpcError } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { loadDraft, saveDraft, type BuilderDraft } from "./model";

/** How long typing must pause before the draft is written. */
export const SAVE_DELAY_MS = 400;

// The draft of this run, values included: switching areas and back keeps what was typed.
let inMemory: BuilderDraft | null = null;
// The values last given to the keychain (JSON), so unchanged values are not written again.
let keptValues = "{}";
// Whether the kept values were read back this run. Until they are, nothing is written: a write
// would replace values still in the keychain (a locked one, unlocked later) with the screen's.
let valuesRead = false;

/** Forgets this run's draft (tests). */
export function resetDraftMemory(): void {
  inMemory = null;
  keptValues = "{}";
  valuesRead = false;
}

type SetDraft = (next: BuilderDraft | ((d: BuilderDraft) => BuilderDraft)) => void;

/** Whether the keychain keeps the draft's input values: unknown until the first write or read;
 * the keychain's error when it could not (locked, missing), so the user is told what to do. */
export type ValuesKept = "unknown" | "kept" | IpcError;

/** The draft's input values by input id (empty ones left out). */
export function draftValues(d: BuilderDraft): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of d.rows) for (const p of r.inputs) if (p.value) out[p.id] = p.value;
  return out;
}

/** The draft with the kept `values` put into inputs that have none yet. */
export function withValues(d: BuilderDraft, values: Record<string, string>): BuilderDraft {
  let changed = false;
  const rows = d.rows.map((r) => {
    if (!r.inputs.some((p) => !p.value && values[p.id])) return r;
    changed = true;
    return { ...r, inputs: r.inputs.map((p) => (!p.value && values[p.id] ? { ...p, value: values[p.id] ?? "" } : p)) };
  });
  return changed ? { ...d, rows } : d;
}

/** Gives the draft's values to the keychain when they changed since the last time (once they
 * were read back: see `valuesRead`). */
async function keepValues(d: BuilderDraft): Promise<ValuesKept | null> {
  if (!valuesRead) return null;
  const values = draftValues(d);
  const json = JSON.stringify(values);
  if (json === keptValues) return null;
  keptValues = json;
  try {
    await call("keep_draft_values", { values });
    return "kept";
  } catch (e) {
    // Tried again with the next change.
    keptValues = "";
    return toIpcError(e);
  }
}

/** The builder's draft, its setter, whether the keychain keeps its input values, and how to try
 * the keychain again (after the user unlocked it). */
export function useBuilderDraft(): [BuilderDraft, SetDraft, ValuesKept, () => void] {
  const [draft, setDraft] = useState<BuilderDraft>(() => inMemory ?? loadDraft());
  const [kept, setKept] = useState<ValuesKept>("unknown");
  const latest = useRef(draft);
  const live = useRef(true);

  // The kept values come back from the keychain into the inputs still empty: after a restart,
  // and again until a read succeeded (the keychain was locked). Then the draft is written.
  const readBack = useCallback(() => {
    call("draft_values")
      .then((answer) => {
        if (!live.current) return;
        const values = answer && typeof answer === "object" ? answer : {};
        keptValues = JSON.stringify(values);
        valuesRead = true;
        setKept("kept");
        // The kept values into the inputs still empty, then the whole (with what was typed while
        // the keychain refused) back to the keychain.
        const merged = withValues(latest.current, values);
        latest.current = merged;
        setDraft(merged);
        void keepValues(merged).then((k) => k && live.current && setKept(k));
      })
      .catch((e: unknown) => live.current && setKept(toIpcError(e)));
  }, []);
  useEffect(() => {
    live.current = true;
    if (!inMemory || !valuesRead) readBack();
    return () => {
      live.current = false;
    };
  }, [readBack]);

  // Debounced: one write after typing pauses (`saveDraft` drops the input values; the keychain
  // gets them).
  useEffect(() => {
    inMemory = draft;
    latest.current = draft;
    const timer = window.setTimeout(() => {
      saveDraft(draft);
      void keepValues(draft).then((k) => k && live.current && setKept(k));
    }, SAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft]);

  // Written at once when the window closes or the screen goes away.
  useEffect(() => {
    const flush = () => {
      saveDraft(latest.current);
      void keepValues(latest.current);
    };
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, []);

  return [draft, setDraft, kept, readBack];
}
