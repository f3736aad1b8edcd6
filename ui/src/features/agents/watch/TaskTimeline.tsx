// A task's timeline in the style of Playwright's trace viewer: every step in order with its time
// from the task's first event, a film strip of its screenshots and a viewer that steps through
// them with the keyboard (Left/Right, Home/End). A step selects the last screenshot taken at or
// before it; a screenshot selects its own step. Until the user picks, the latest step is shown.
// The step picked is the route's (`step`, from 1): Back, Forward and a relaunch return to it.
import { useId, useState, type KeyboardEvent } from "react";
import type { TaskView } from "./reducer";
import { describeStep, shotForStep, stepTime } from "./timeline";
import { VirtualListbox } from "./VirtualListbox";

const STEP_HEIGHT = 52;
const TONE_ICON = { ok: "✓", bad: "✕", info: "•" } as const;

/** Left/Right/Home/End over `count` items: the next index, or null for another key. */
export function stripKey(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  if (key === "ArrowRight") return Math.min(count - 1, at + 1);
  if (key === "ArrowLeft") return Math.max(0, at - 1);
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return null;
}

type Pick = { step: number; shot: number | null };

/** `step`: the step the route names (from 1); `onStep` tells which the user picked. */
export function TaskTimeline({ task, step: wanted, onStep }: { task: TaskView; step?: number; onStep?: (step: number) => void }) {
  const id = useId();
  const [pick, setPickState] = useState<Pick | null>(null);
  const lastStep = task.steps.length - 1;
  // The route's step, once the timeline has it (a relaunch reads the timeline anew).
  // (Adjusted while rendering when the route's step or its reach changes; the task's other
  // changes, new steps, do not move the pick.)
  const reachable = wanted !== undefined && wanted - 1 <= lastStep;
  const [seen, setSeen] = useState<{ wanted?: number; reachable: boolean }>({ reachable: false });
  if (seen.wanted !== wanted || seen.reachable !== reachable) {
    setSeen({ wanted, reachable });
    if (wanted !== undefined && reachable && pick?.step !== wanted - 1) setPickState({ step: wanted - 1, shot: shotForStep(task, wanted - 1) });
  }
  const setPick = (next: Pick) => {
    setPickState(next);
    if (next.step !== pick?.step) onStep?.(next.step + 1);
  };
  const step = pick ? pick.step : lastStep >= 0 ? lastStep : null;
  const shot = pick ? pick.shot : task.shots.length > 0 ? task.shots.length - 1 : null;

  const selectStep = (s: number) => setPick({ step: s, shot: shotForStep(task, s) });
  const selectShot = (i: number) => {
    const s = task.shots[i];
    if (s) setPick({ step: s.step, shot: i });
  };
  const onStripKey = (e: KeyboardEvent) => {
    const next = stripKey(e.key, shot ?? -1, task.shots.length);
    if (next === null) return;
    e.preventDefault();
    selectShot(next);
  };

  if (task.steps.length === 0) return <p className="empty">Nothing has happened in this task yet.</p>;
  const current = shot !== null ? task.shots[shot] : undefined;
  return (
    <div className="timeline">
      <div className="timeline-steps">
        <h4 id={`${id}-steps`}>Steps ({task.steps.length})</h4>
        <VirtualListbox
          idPrefix={`${id}-step`}
          label="Steps"
          className="step-list"
          count={task.steps.length}
          selected={step}
          onSelect={selectStep}
          estimateSize={STEP_HEIGHT}
          follow={pick === null}
          renderOption={(i) => {
            const s = task.steps[i];
            if (!s) return null;
            const text = describeStep(s, task);
            return (
              <div className="step" data-tone={text.tone}>
                <span className="step-icon" aria-hidden="true">
                  {TONE_ICON[text.tone]}
                </span>
                <span className="step-main">
                  <span className="step-title">{text.title}</span> <span className="step-detail">{text.detail}</span>
                  {text.more.length > 0 && (
                    <span className="step-more">
                      {text.more.map((m, k) => (
                        <span key={k} className="step-more-line">
                          {m}
                        </span>
                      ))}
                    </span>
                  )}
                </span>
                <span className="step-time">{stepTime(s.at, task.firstAt)}</span>
              </div>
            );
          }}
        />
      </div>
      <div className="timeline-shots">
        <h4>Screenshots ({task.shots.length})</h4>
        {task.shots.length === 0 ? (
          <p className="muted">No screenshot yet.</p>
        ) : (
          <>
            <div
              className="shot-viewer"
              tabIndex={0}
              role="group"
              aria-roledescription="screenshot viewer"
              aria-label={`Screenshot ${shot !== null ? shot + 1 : 0} of ${task.shots.length}. Left and Right arrows step through them.`}
              onKeyDown={onStripKey}
            >
              {current ? (
                <img src={current.src} alt={`Screenshot ${(shot ?? 0) + 1} of task ${task.index + 1}${current.url ? `: ${current.url}` : ""}`} />
              ) : (
                <p className="muted">No screenshot at or before this step.</p>
              )}
              <div className="row shot-caption">
                <button className="btn btn-small" type="button" disabled={shot === null || shot <= 0} onClick={() => selectShot((shot ?? 1) - 1)}>
                  Previous screenshot
                </button>
                <span className="muted">
                  {shot !== null ? `${shot + 1} of ${task.shots.length}` : `— of ${task.shots.length}`}
                  {current ? ` · ${stepTime(current.at, task.firstAt)}` : ""}
                </span>
                <button className="btn btn-small" type="button" disabled={shot !== null && shot >= task.shots.length - 1} onClick={() => selectShot(shot === null ? 0 : shot + 1)}>
                  Next screenshot
                </button>
              </div>
            </div>
            <div className="film-strip" role="listbox" aria-label="Film strip" aria-orientation="horizontal" tabIndex={0} aria-activedescendant={shot !== null ? `${id}-shot-${shot}` : undefined} onKeyDown={onStripKey}>
              {task.shots.map((s, i) => (
                <div key={i} id={`${id}-shot-${i}`} role="option" aria-label={`Screenshot ${i + 1}${s.at !== undefined ? `, ${stepTime(s.at, task.firstAt)}` : ""}`} aria-selected={i === shot} className="film-frame" onClick={() => selectShot(i)}>
                  <img src={s.src} alt="" />
                  <span className="film-time">{stepTime(s.at, task.firstAt) || `#${i + 1}`}</span>
                </div>
              ))}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
