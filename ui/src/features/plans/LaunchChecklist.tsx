// Launch readiness: each item ok or needing a fix, its detail, and the fix's action and how-to.
import type { ReadyToLaunch } from "../../bindings/ReadyToLaunch";
import { humanize } from "./status";

export function launchStateLook(state: string): { icon: string; words: string; tone: string } {
  if (state === "ok") return { icon: "✓", words: "OK", tone: "success" };
  if (state === "needs_fix") return { icon: "!", words: "Needs a fix", tone: "danger" };
  return { icon: "?", words: humanize(state), tone: "neutral" };
}

export function LaunchChecklist({ ready }: { ready: ReadyToLaunch | null }) {
  if (!ready) return <p className="muted">Launch readiness is checked once there is code.</p>;
  const toFix = ready.items.filter((i) => i.state !== "ok").length;
  return (
    <div className="launch">
      <p className={ready.ready ? "launch-ready" : "launch-not-ready"}>
        <span aria-hidden="true">{ready.ready ? "✓ " : "! "}</span>
        {ready.ready
          ? "Ready to launch."
          : toFix === 1
            ? "Not ready to launch yet: 1 item needs a fix."
            : `Not ready to launch yet: ${toFix} items need a fix.`}
      </p>
      {ready.items.length > 0 && (
        <ul className="launch-items">
          {ready.items.map((item) => {
            const look = launchStateLook(item.state);
            return (
              <li key={item.id} className="launch-item" data-state={item.state}>
                <span className="badge tone-badge" data-tone={look.tone}>
                  <span aria-hidden="true">{look.icon}</span>
                  {look.words}
                </span>
                <div>
                  <strong>{item.label}</strong>
                  {item.detail && <p className="launch-detail">{item.detail}</p>}
                  {item.fix && (
                    <div className="launch-fix">
                      <p>
                        <strong>Fix: </strong>
                        {item.fix.action}
                      </p>
                      <p className="muted">How: {item.fix.how}</p>
                    </div>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
