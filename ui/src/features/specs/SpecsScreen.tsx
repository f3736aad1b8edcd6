// The Specs area: the composer, the generations in progress and the library; or one spec when
// `specId` is set (App routes `{area: "specs", specId, tab}` here), on the tab its address names
// (a finished generation's "Open" names its human document). A tab is a history entry.
import { useCallback, useState } from "react";
import { useNavigate, type SpecTab } from "../../lib/nav";
import { useNotice } from "../../lib/notices";
import { Composer, useComposerDraft } from "./Composer";
import { draftSummary, isEmptyDraft, loadSetAside, sameDraft, saveSetAside, type ComposerDraft } from "./draft";
import { Generations } from "./Generations";
import { Library } from "./Library";
import { useJobChangedEvents } from "./queries";
import { SpecView } from "./SpecView";
import "./specs.css";

export function SpecsScreen({
  specId,
  tab,
}: {
  specId?: string;
  /** The tab spec `specId` shows (Overview when absent). */
  tab?: SpecTab;
}) {
  const navigate = useNavigate();
  const notice = useNotice();
  const [draft, setDraft] = useComposerDraft();
  const [focusRequested, setFocusRequested] = useState(false);
  const focused = useCallback(() => setFocusRequested(false), []);
  useJobChangedEvents();

  // A draft the user was writing when "Edit and try again" refilled the composer: kept (on this
  // computer too) until the user restores or discards it, never lost to a timed notice.
  const [setAside, setSetAsideState] = useState<ComposerDraft | null>(loadSetAside);
  const keepAside = (d: ComposerDraft | null) => {
    setSetAsideState(d && !isEmptyDraft(d) ? d : null);
    saveSetAside(d);
  };
  const editAgain = (d: ComposerDraft) => {
    const earlier = draft;
    setDraft(d);
    setFocusRequested(true);
    if (!isEmptyDraft(earlier) && !sameDraft(earlier, d)) keepAside(earlier);
  };
  // Restoring swaps: what the composer holds now is set aside in its turn.
  const restore = () => {
    if (!setAside) return;
    const now = draft;
    setDraft(setAside);
    keepAside(isEmptyDraft(now) || sameDraft(now, setAside) ? null : now);
    setFocusRequested(true);
  };
  const discard = () => {
    const dropped = setAside;
    keepAside(null);
    if (dropped) notice("The set-aside draft was discarded.", { label: "Undo", run: () => keepAside(dropped) });
  };

  if (specId) {
    return (
      <SpecView
        key={specId}
        specId={specId}
        tab={tab ?? "overview"}
        onTabChange={(next) => navigate({ area: "specs", specId, tab: next })}
        onBack={() => navigate({ area: "specs" })}
        onEditAgain={(d) => {
          editAgain(d);
          navigate({ area: "specs" });
        }}
      />
    );
  }

  return (
    <section className="page page-wide specs" aria-labelledby="specs-title">
      <h1 id="specs-title">Specs</h1>
      <p className="muted">Describe what you want to build and get a complete, structured spec.</p>
      {setAside && (
        <div className="set-aside" role="region" aria-label="Draft set aside">
          <p>
            A draft you were writing is set aside: “{draftSummary(setAside)}”
          </p>
          <div className="row">
            <button className="btn" type="button" onClick={restore}>
              Restore my draft
            </button>
            <button className="btn btn-ghost" type="button" onClick={discard}>
              Discard it
            </button>
          </div>
        </div>
      )}
      <Composer draft={draft} onChange={setDraft} focusRequested={focusRequested} onFocused={focused} />
      <Generations onRefill={editAgain} />
      <Library />
    </section>
  );
}
