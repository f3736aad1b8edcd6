// The scope of work as the scope explorer shows it: milestones → stories → subtasks with hours,
// filtered by role and by layer, with totals per milestone and overall.
import type { Complexity } from "../../bindings/Complexity";
import type { ScopeOfWork } from "../../bindings/ScopeOfWork";

/** Layers of deep-spec subtasks, in the order the filter lists them. */
export const KNOWN_LAYERS = ["DB", "Infra", "FE", "API", "Backend", "QA", "Docs"] as const;

const LAYER_ALIASES: Record<string, string> = {
  db: "DB",
  database: "DB",
  infra: "Infra",
  infrastructure: "Infra",
  devops: "Infra",
  fe: "FE",
  frontend: "FE",
  ui: "FE",
  api: "API",
  backend: "Backend",
  be: "Backend",
  qa: "QA",
  test: "QA",
  tests: "QA",
  docs: "Docs",
  doc: "Docs",
  documentation: "Docs",
};

const LAYER_RE = /^\s*\[([^\][]{1,32})\]\s*/;

/** The layer a subtask's description starts with ("[DB] Create schema" → "DB"), or null. */
export function subtaskLayer(description: string): string | null {
  const m = LAYER_RE.exec(description);
  if (!m || !m[1]) return null;
  const raw = m[1].trim();
  return LAYER_ALIASES[raw.toLowerCase()] ?? raw;
}

/** The description without its layer tag. */
export function stripLayer(description: string): string {
  return description.replace(LAYER_RE, "");
}

export interface ScopeFilter {
  /** A role's short hand ("BE"), or null for every role. */
  role: string | null;
  /** A layer ("DB"), or null for every layer. */
  layer: string | null;
}

export const NO_FILTER: ScopeFilter = { role: null, layer: null };

export interface SubtaskRow {
  key: string;
  id?: string;
  description: string;
  layer: string | null;
  complexity?: Complexity;
  hours?: number;
  roles: string[];
}

export interface StoryRow {
  key: string;
  id?: string;
  title: string;
  description?: string;
  acceptanceCriteria: string[];
  complexity?: Complexity;
  /** The story's hours; with a filter, the hours of its matching subtasks. */
  hours: number;
  subTasks: SubtaskRow[];
  /** Subtasks hidden by the filter. */
  hiddenSubtasks: number;
}

export interface MilestoneRow {
  key: string;
  number: number;
  description: string;
  /** Sum of the hours of the stories shown. */
  hours: number;
  /** The hours the service states for the milestone (human spec), unfiltered. */
  statedHours?: number;
  stories: StoryRow[];
}

export interface ScopeTree {
  milestones: MilestoneRow[];
  /** Sum of the milestones shown. */
  shownHours: number;
  /** The spec's total (`totalHumanHours`, else `totalHours`, else the unfiltered sum). */
  totalHours: number;
  storyCount: number;
  subtaskCount: number;
  /** Whether any story carries subtasks (deep spec). */
  hasSubtasks: boolean;
  /** Whether any number of hours is known (human spec). */
  hasHours: boolean;
}

const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 100) / 100;

function matches(t: SubtaskRow, f: ScopeFilter): boolean {
  if (f.layer && t.layer !== f.layer) return false;
  if (f.role && !t.roles.includes(f.role)) return false;
  return true;
}

/** The explorer's tree of `sow` under `filter`. */
export function scopeTree(sow: ScopeOfWork, filter: ScopeFilter = NO_FILTER, totalHumanHours?: number): ScopeTree {
  const filtering = !!(filter.role || filter.layer);
  let hasSubtasks = false;
  let hasHours = false;
  let unfiltered = 0;
  const milestones: MilestoneRow[] = [];
  let storyCount = 0;
  let subtaskCount = 0;

  sow.milestones.forEach((m, mi) => {
    if (m.hours !== undefined) hasHours = true;
    const stories: StoryRow[] = [];
    m.stories.forEach((s, si) => {
      const all: SubtaskRow[] = (s.subTasks ?? []).map((t, ti) => {
        if (t.hours !== undefined) hasHours = true;
        return {
          key: `${mi}.${si}.${ti}`,
          id: t.id,
          description: stripLayer(t.description),
          layer: subtaskLayer(t.description),
          complexity: t.complexity,
          hours: t.hours,
          roles: t.roles ?? [],
        };
      });
      if (all.length) hasSubtasks = true;
      if (s.hours !== undefined) hasHours = true;
      const storyHours = s.hours ?? sum(all.map((t) => t.hours ?? 0));
      unfiltered += storyHours;
      const shown = filtering ? all.filter((t) => matches(t, filter)) : all;
      if (filtering && shown.length === 0) return;
      stories.push({
        key: `${mi}.${si}`,
        id: s.id,
        title: s.title,
        description: s.description,
        acceptanceCriteria: s.acceptanceCriteria ?? [],
        complexity: s.complexity,
        hours: filtering ? sum(shown.map((t) => t.hours ?? 0)) : storyHours,
        subTasks: shown,
        hiddenSubtasks: all.length - shown.length,
      });
      storyCount += 1;
      subtaskCount += shown.length;
    });
    if (filtering && stories.length === 0) return;
    milestones.push({
      key: String(mi),
      number: m.milestoneNumber,
      description: m.description,
      hours: sum(stories.map((s) => s.hours)),
      statedHours: m.hours,
      stories,
    });
  });

  return {
    milestones,
    shownHours: sum(milestones.map((m) => m.hours)),
    totalHours: totalHumanHours ?? sow.totalHours ?? Math.round(unfiltered * 100) / 100,
    storyCount,
    subtaskCount,
    hasSubtasks,
    hasHours,
  };
}

/** Roles the filter offers: the spec's roles, then any role a subtask names that is not listed. */
export function roleOptions(sow: ScopeOfWork): { value: string; label: string }[] {
  const out = (sow.roles ?? []).map((r) => ({ value: r.shortHand, label: `${r.name} (${r.shortHand})` }));
  const seen = new Set(out.map((o) => o.value));
  for (const m of sow.milestones)
    for (const s of m.stories)
      for (const t of s.subTasks ?? [])
        for (const r of t.roles ?? []) {
          if (!seen.has(r)) {
            seen.add(r);
            out.push({ value: r, label: r });
          }
        }
  // Only roles some subtask carries are useful filters.
  const used = new Set<string>();
  for (const m of sow.milestones) for (const s of m.stories) for (const t of s.subTasks ?? []) for (const r of t.roles ?? []) used.add(r);
  return out.filter((o) => used.has(o.value));
}

/** Layers present in the subtasks, known ones first in their usual order. */
export function layerOptions(sow: ScopeOfWork): string[] {
  const found = new Set<string>();
  for (const m of sow.milestones) for (const s of m.stories) for (const t of s.subTasks ?? []) {
    const l = subtaskLayer(t.description);
    if (l) found.add(l);
  }
  const known = KNOWN_LAYERS.filter((l) => found.has(l));
  const other = [...found].filter((l) => !(KNOWN_LAYERS as readonly string[]).includes(l)).sort();
  return [...known, ...other];
}
