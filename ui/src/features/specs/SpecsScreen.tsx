// The Specs area: the composer, the generations in progress and the library; or one spec when
// `specId` is set (App routes `{area: "specs", specId, tab}` here), on the tab its address names
// (a finished generation's "Open" names its human document). A tab is a history entry.
import { useCallback, useState } from "react";
import { useNavigate, type SpecTab } from "../../lib/nav";
import { useNotice } from "../../lib/notices";
import { Composer, useComposerDraft } from "./Composer";
import { draftSummary, isEmptyDraft, loadSetAside, sameDraft, saveSetAside, withSetAside, type ComposerDraft } from "./draft";
import { Generations } from "./Generations";
import { Library } from "./Library";
import { useJobChangedEvents } from "./queries";
import { onDemand } from "../../lib/onDemand";
import "./specs.css";

// One spec's view is code of its own: a relaunch on the list does not load it (fetched once the
// first screen is usable, or before React starts when a relaunch reopens a spec).
const specView = onDemand(() => import("./SpecView").then((m) => m.SpecView));
const SpecView = specView.Screen;
/** Loads the spec view's code ahead of time; resolves once loaded (never rejects). */
export const preloadSpecView = specView.fetch;

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

  // The drafts the user was writing when "Edit and try again" refilled the composer, newest
  // first: kept (on this computer too) until the user restores or discards each, never lost to a
  // timed notice or to a second "Edit and try again".
  const [asideList, setAsideList] = useState<ComposerDraft[]>(loadSetAside);
  const setAside = asideList[0] ?? null;
  const keepList = (list: ComposerDraft[]) => {
    setAsideList(list);
    saveSetAside(list);
  };
  const editAgain = (d: ComposerDraft) => {
    const earlier = draft;
    setDraft(d);
    setFocusRequested(true);
    if (!isEmptyDraft(earlier) && !sameDraft(earlier, d)) keepList(withSetAside(asideList, earlier));
  };
  // Restoring swaps: what the composer holds now is set aside in its turn.
  const restore = () => {
    if (!setAside) return;
    const now = draft;
    setDraft(setAside);
    const rest = asideList.slice(1);
    keepList(isEmptyDraft(now) || sameDraft(now, setAside) ? rest : withSetAside(rest, now));
    setFocusRequested(true);
  };
  const discard = () => {
    if (!setAside) return;
    const dropped = setAside;
    keepList(asideList.slice(1));
    notice("The set-aside draft was discarded.", { label: "Undo", run: () => keepList(withSetAside(loadSetAside(), dropped)) });
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
          {asideList.length > 1 && (
            <p className="muted">
              {asideList.length === 2 ? "One more draft is" : `${asideList.length - 1} more drafts are`} set aside: each shows here once this one is
              restored or discarded.
            </p>
          )}
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
