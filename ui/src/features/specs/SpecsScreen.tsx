// The Specs area: the composer, the generations in progress and the library; or one spec when
// `specId` is set (App routes `{area: "specs", specId}` here).
import { useCallback, useState } from "react";
import { useNavigate } from "../../lib/nav";
import { NoticeProvider } from "../../lib/notices";
import { Composer, useComposerDraft } from "./Composer";
import type { ComposerDraft } from "./draft";
import { Generations } from "./Generations";
import { Library } from "./Library";
import { useJobChangedEvents } from "./queries";
import { SpecView } from "./SpecView";
import "./specs.css";

export function SpecsScreen({ specId }: { specId?: string }) {
  const navigate = useNavigate();
  const [draft, setDraft] = useComposerDraft();
  const [focusRequested, setFocusRequested] = useState(false);
  const focused = useCallback(() => setFocusRequested(false), []);
  useJobChangedEvents();

  const editAgain = (d: ComposerDraft) => {
    setDraft(d);
    setFocusRequested(true);
  };

  if (specId) {
    return (
      <NoticeProvider>
        <SpecView
          key={specId}
          specId={specId}
          onBack={() => navigate({ area: "specs" })}
          onEditAgain={(d) => {
            editAgain(d);
            navigate({ area: "specs" });
          }}
        />
      </NoticeProvider>
    );
  }

  return (
    <NoticeProvider>
      <section className="page page-wide specs" aria-labelledby="specs-title">
        <h1 id="specs-title">Specs</h1>
        <p className="muted">Describe what you want to build and get a complete, structured spec.</p>
        <Composer draft={draft} onChange={setDraft} focusRequested={focusRequested} onFocused={focused} />
        <Generations onRefill={editAgain} />
        <Library />
      </section>
    </NoticeProvider>
  );
}
