// The builder's draft in React state: restored from this run's memory (input values included)
// or from localStorage (values left out), and written back as the user types — debounced, and
// at once when the screen goes away or the window closes.
import { useEffect, useRef, useState } from "react";
import { loadDraft, saveDraft, type BuilderDraft } from "./model";

/** How long typing must pause before the draft is written. */
export const SAVE_DELAY_MS = 400;

// The draft of this run, values included: switching areas and back keeps what was typed.
let inMemory: BuilderDraft | null = null;

/** Forgets this run's draft (tests). */
export function resetDraftMemory(): void {
  inMemory = null;
}

type SetDraft = (next: BuilderDraft | ((d: BuilderDraft) => BuilderDraft)) => void;

export function useBuilderDraft(): [BuilderDraft, SetDraft] {
  const [draft, setDraft] = useState<BuilderDraft>(() => inMemory ?? loadDraft());
  const latest = useRef(draft);

  // Debounced: one write after typing pauses (`saveDraft` drops the input values).
  useEffect(() => {
    inMemory = draft;
    latest.current = draft;
    const timer = window.setTimeout(() => saveDraft(draft), SAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft]);

  // Written at once when the window closes or the screen goes away.
  useEffect(() => {
    const flush = () => saveDraft(latest.current);
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      flush();
    };
  }, []);

  return [draft, setDraft];
}
