// The scope explorer: milestones → stories → subtasks as an expandable tree with hours,
// complexity, roles, layers and acceptance criteria, filtered by role and layer.
import { useId, useMemo, useState, type ReactNode } from "react";
import type { ScopeOfWork } from "../../bindings/ScopeOfWork";
import { formatHours, plural } from "../../lib/format";
import { NO_FILTER, layerOptions, roleOptions, scopeTree, type ScopeFilter, type StoryRow } from "./scope";
import { criterionKey, verdictOf, type ScopeMarks } from "../agents/acceptance/model";
import { ChangeTag, StoryChip, VerdictChip } from "../agents/acceptance/Marks";

function Disclosure({
  open,
  onToggle,
  controls,
  children,
  className,
}: {
  open: boolean;
  onToggle: () => void;
  controls: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button type="button" className={`disclosure ${className ?? ""}`} aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      <span className="disclosure-mark" aria-hidden="true">
        {open ? "▾" : "▸"}
      </span>
      {children}
    </button>
  );
}

function StoryItem({
  story,
  open,
  onToggle,
  showHours,
  roleNames,
  idBase,
  marks,
}: {
  story: StoryRow;
  open: boolean;
  onToggle: () => void;
  showHours: boolean;
  roleNames: Map<string, string>;
  idBase: string;
  /** The latest acceptance run's results, when there is one. */
  marks?: ScopeMarks | null;
}) {
  const bodyId = `${idBase}-story-${story.key}`;
  const result = marks?.stories[story.key];
  return (
    <li className="scope-story">
      <Disclosure open={open} onToggle={onToggle} controls={bodyId}>
        <span className="scope-title">
          {story.id && <span className="muted mono">{story.id} </span>}
          {story.title}
        </span>
        <span className="scope-meta">
          {result && <StoryChip result={result} />}
          {story.complexity && <span className="badge" title="Complexity">{story.complexity}</span>}
          {showHours && <span className="scope-hours">{formatHours(story.hours)}</span>}
        </span>
      </Disclosure>
      {open && (
        <div className="scope-body" id={bodyId}>
          {story.description && <p>{story.description}</p>}
          {story.acceptanceCriteria.length > 0 && (
            <>
              <p className="criteria-title">Acceptance criteria</p>
              <ul className="criteria">
                {story.acceptanceCriteria.map((c, i) => {
                  const key = criterionKey(story.key, i);
                  const outcome = marks?.run.criteria[key];
                  const change = marks?.changes?.[key];
                  return (
                    <li key={i}>
                      {c}
                      {outcome && (
                        <span className="criterion-mark">
                          <VerdictChip verdict={verdictOf(outcome)} />
                          {change && <ChangeTag change={change} />}
                        </span>
                      )}
                      {outcome?.evidence && <span className="criterion-evidence">Evidence: {outcome.evidence}</span>}
                    </li>
                  );
                })}
              </ul>
            </>
          )}
          {story.subTasks.length > 0 && (
            <table className="subtasks">
              <caption className="visually-hidden">Subtasks of {story.title}</caption>
              <thead>
                <tr>
                  <th scope="col">Layer</th>
                  <th scope="col">Subtask</th>
                  <th scope="col">Complexity</th>
                  {showHours && (
                    <th scope="col" className="num">
                      Hours
                    </th>
                  )}
                  <th scope="col">Roles</th>
                </tr>
              </thead>
              <tbody>
                {story.subTasks.map((t) => (
                  <tr key={t.key}>
                    <td>{t.layer ? <span className="layer-chip" data-layer={t.layer}>{t.layer}</span> : <span className="muted">—</span>}</td>
                    <td>
                      {t.id && <span className="muted mono">{t.id} </span>}
                      {t.description}
                    </td>
                    <td>{t.complexity ?? "—"}</td>
                    {showHours && <td className="num">{formatHours(t.hours)}</td>}
                    <td>
                      {t.roles.length
                        ? t.roles.map((r) => (
                            <abbr key={r} title={roleNames.get(r) ?? r} className="role">
                              {r}
                            </abbr>
                          ))
                        : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {story.hiddenSubtasks > 0 && <p className="muted">{plural(story.hiddenSubtasks, "more subtask")} hidden by the filter.</p>}
          {story.subTasks.length === 0 && story.hiddenSubtasks === 0 && (
            <p className="muted">No subtasks{showHours ? "" : " in this spec"}.</p>
          )}
        </div>
      )}
    </li>
  );
}

export function ScopeExplorer({
  sow,
  totalHumanHours,
  deep,
  marks,
}: {
  sow: ScopeOfWork;
  totalHumanHours?: number;
  deep: boolean;
  /** The latest acceptance run's results: a verdict beside each story and criterion it checked. */
  marks?: ScopeMarks | null;
}) {
  const id = useId();
  const [filter, setFilter] = useState<ScopeFilter>(NO_FILTER);
  const tree = useMemo(() => scopeTree(sow, filter, totalHumanHours), [sow, filter, totalHumanHours]);
  const roles = useMemo(() => roleOptions(sow), [sow]);
  const layers = useMemo(() => layerOptions(sow), [sow]);
  const roleNames = useMemo(() => new Map((sow.roles ?? []).map((r) => [r.shortHand, r.name])), [sow]);
  const [closedMilestones, setClosedMilestones] = useState<Set<string>>(new Set());
  const [openStories, setOpenStories] = useState<Set<string>>(new Set());
  const filtering = !!(filter.role || filter.layer);

  const toggle = (set: Set<string>, key: string) => {
    const next = new Set(set);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    return next;
  };
  const expandAll = () => {
    setClosedMilestones(new Set());
    setOpenStories(new Set(tree.milestones.flatMap((m) => m.stories.map((s) => s.key))));
  };
  const collapseAll = () => {
    setOpenStories(new Set());
    setClosedMilestones(new Set(tree.milestones.map((m) => m.key)));
  };

  return (
    <div className="scope">
      <div className="row scope-toolbar">
        {roles.length > 0 && (
          <div className="field">
            <label htmlFor={`${id}-role`}>Role</label>
            <select id={`${id}-role`} className="select" value={filter.role ?? ""} onChange={(e) => setFilter({ ...filter, role: e.target.value || null })}>
              <option value="">Every role</option>
              {roles.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
        )}
        {layers.length > 0 && (
          <div className="field">
            <label htmlFor={`${id}-layer`}>Layer</label>
            <select id={`${id}-layer`} className="select" value={filter.layer ?? ""} onChange={(e) => setFilter({ ...filter, layer: e.target.value || null })}>
              <option value="">Every layer</option>
              {layers.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="row scope-expand">
          <button className="btn btn-ghost" type="button" onClick={expandAll}>
            Expand all
          </button>
          <button className="btn btn-ghost" type="button" onClick={collapseAll}>
            Collapse all
          </button>
        </div>
      </div>

      <p className="scope-summary" aria-live="polite">
        {tree.hasHours && (
          <strong>
            {filtering ? `${formatHours(tree.shownHours)} shown of ${formatHours(tree.totalHours)} in total` : `${formatHours(tree.totalHours)} in total`}
          </strong>
        )}
        {tree.hasHours && " · "}
        {plural(tree.milestones.length, "milestone")} · {plural(tree.storyCount, "story", "stories")}
        {tree.hasSubtasks && ` · ${plural(tree.subtaskCount, "subtask")}`}
      </p>
      {!tree.hasSubtasks && !deep && <p className="muted">A fast spec lists stories without subtasks. A deep spec splits each story into subtasks by layer.</p>}

      {tree.milestones.length === 0 ? (
        <div className="empty">{filtering ? "No subtask matches this filter." : "This spec has no milestones."}</div>
      ) : (
        <ol className="scope-tree">
          {tree.milestones.map((m) => {
            const open = !closedMilestones.has(m.key);
            const bodyId = `${id}-ms-${m.key}`;
            return (
              <li key={m.key} className="scope-milestone">
                <Disclosure open={open} onToggle={() => setClosedMilestones((s) => toggle(s, m.key))} controls={bodyId} className="disclosure-milestone">
                  <span className="scope-title">
                    Milestone {m.number}: {m.description}
                  </span>
                  <span className="scope-meta">
                    <span className="muted">{plural(m.stories.length, "story", "stories")}</span>
                    {tree.hasHours && <span className="scope-hours">{formatHours(m.hours)}</span>}
                  </span>
                </Disclosure>
                {open && (
                  <div id={bodyId}>
                    {!filtering && m.statedHours !== undefined && Math.abs(m.statedHours - m.hours) > 0.01 && (
                      <p className="muted scope-note">The service estimates {formatHours(m.statedHours)} for this milestone as a whole.</p>
                    )}
                    <ul className="scope-stories">
                      {m.stories.map((s) => (
                        <StoryItem
                          key={s.key}
                          story={s}
                          open={openStories.has(s.key)}
                          onToggle={() => setOpenStories((set) => toggle(set, s.key))}
                          showHours={tree.hasHours}
                          roleNames={roleNames}
                          idBase={id}
                          marks={marks}
                        />
                      ))}
                    </ul>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
