// The Specs area: the composer, the generations in progress and the library; or one spec when
// `specId` is set (App routes `{area: "specs", specId}` here).
import { useCallback, useState } from "react";
import { useNavigate } from "../../lib/nav";
import { NoticeProvider, useNotice } from "../../lib/notices";
import { Composer, useComposerDraft } from "./Composer";
import { isEmptyDraft, sameDraft, type ComposerDraft } from "./draft";
import { Generations } from "./Generations";
import { Library } from "./Library";
import { useJobChangedEvents } from "./queries";
import { SpecView } from "./SpecView";
import "./specs.css";

export function SpecsScreen({ specId }: { specId?: string }) {
  return (
    <NoticeProvider>
      <SpecsArea specId={specId} />
    </NoticeProvider>
  );
}

function SpecsArea({ specId }: { specId?: string }) {
  const navigate = useNavigate();
  const notice = useNotice();
  const [draft, setDraft] = useComposerDraft();
  const [focusRequested, setFocusRequested] = useState(false);
  const focused = useCallback(() => setFocusRequested(false), []);
  useJobChangedEvents();

  // Refills the composer with a spec to edit; a draft the user was writing is set aside, not
  // lost: the notice offers it back.
  const editAgain = (d: ComposerDraft) => {
    const earlier = draft;
    setDraft(d);
    setFocusRequested(true);
    if (!isEmptyDraft(earlier) && !sameDraft(earlier, d)) {
      notice("The composer holds the spec to edit now; the draft you were writing was set aside.", {
        label: "Restore my draft",
        run: () => setDraft(earlier),
      });
    }
  };

  if (specId) {
    return (
      <SpecView
        key={specId}
        specId={specId}
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
      <Composer draft={draft} onChange={setDraft} focusRequested={focusRequested} onFocused={focused} />
      <Generations onRefill={editAgain} />
      <Library />
    </section>
  );
}
