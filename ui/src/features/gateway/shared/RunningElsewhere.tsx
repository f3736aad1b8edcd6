// A studio's calls that ran on while the user was elsewhere (Rust runs them to their end whatever
// the screen does): on return, each is shown running, with its elapsed time, from the app's one
// activity list; its result lands in the studio's list when it ends. Not shown while the studio's
// own form is waiting on a call (that one says so itself).
import type { ActivityKind } from "../../../bindings/ActivityKind";
import { stateLine } from "../../activity/ActivityCenter";
import { KIND_WORDS, shortTitle } from "../../activity/places";
import { useActivity, useNow } from "../../activity/useActivity";

export function RunningElsewhere({ kinds, busy }: { kinds: readonly ActivityKind[]; busy: boolean }) {
  const list = useActivity();
  const running = (list.data ?? []).filter((a) => a.state === "running" && kinds.includes(a.kind));
  const now = useNow(running.length > 0);
  if (busy || running.length === 0) return null;
  return (
    <ul className="running-elsewhere" aria-label="Still running">
      {running.map((a) => (
        <li key={a.id} className="muted">
          {KIND_WORDS[a.kind]} “{shortTitle(a.title)}”: {stateLine(a, now).replace(/^Running/, "generating")}
        </li>
      ))}
    </ul>
  );
}
