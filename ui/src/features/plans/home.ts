// The Plans home: the user's projects, from the completed specs (a completed spec is where a
// project and its plan start) merged with the projects whose plan was opened here (with their
// last known progress), newest first. Pure functions, tested in home.test.ts.
import type { PlanTarget } from "../../ipc/contract";
import type { RecentProject } from "../../bindings/RecentProject";
import type { SpecRecord } from "../../bindings/SpecRecord";

/** Progress as last read here. */
export interface KnownProgress {
  percent: number;
  built: number;
  total: number;
}

export interface HomeProject {
  /** Stable row key: `spec:<id>` for a row with a spec, else `project:<id>`. */
  key: string;
  /** The plan's name when read, else the spec's input (first line), else "Untitled project". */
  name: string;
  specId?: string;
  /** Known once the plan was opened (a spec record carries no project id). */
  projectId?: string;
  /** The spec's full input text. */
  specInput?: string;
  /** When the spec was created. */
  specCreated?: string;
  /** When its plan was last opened here; absent when never opened. */
  openedAt?: string;
  /** `undefined`: never read; `null`: read while nothing was planned or built. */
  progress?: KnownProgress | null;
  /** The latest of `openedAt` and `specCreated`: the list's order, newest first. */
  sortAt: string;
  /** How its plan is opened: by project id when known, else by spec id. */
  target: PlanTarget;
}

export const UNTITLED = "Untitled project";
/** How long a name taken from a spec's input may be before it is cut with "…". */
export const NAME_MAX = 90;

/** A row name from a spec's input: its first line, cut at a word near `NAME_MAX` characters. */
export function nameFromInput(input: string): string {
  const line = input.split(/\r?\n/).map((l) => l.trim()).find((l) => l.length > 0) ?? "";
  if (line.length <= NAME_MAX) return line || UNTITLED;
  const cut = line.slice(0, NAME_MAX);
  const space = cut.lastIndexOf(" ");
  return `${(space > NAME_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

function time(iso: string | undefined): number {
  if (!iso) return 0;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

function latest(a: string | undefined, b: string | undefined): string {
  if (!a) return b ?? "";
  if (!b) return a;
  return time(b) > time(a) ? b : a;
}

function progressOf(r: RecentProject): KnownProgress | null {
  return r.percent === undefined ? null : { percent: r.percent, built: r.built ?? 0, total: r.total ?? 0 };
}

/**
 * Completed specs and opened projects as one list, newest first. A spec and the opened project
 * it created (the opened project's `specId`) are one row; specs not completed are left out; an
 * opened project with no known spec is its own row. Ties keep a stable order by name, then key.
 */
export function mergeProjects(specs: SpecRecord[], recent: RecentProject[]): HomeProject[] {
  const bySpec = new Map<string, RecentProject>();
  const byProject = new Set<string>();
  const opened: RecentProject[] = [];
  for (const r of recent) {
    if (byProject.has(r.projectId)) continue; // the list is most recent first: keep the first
    byProject.add(r.projectId);
    opened.push(r);
    if (r.specId && !bySpec.has(r.specId)) bySpec.set(r.specId, r);
  }
  const rows: HomeProject[] = [];
  const seenSpecs = new Set<string>();
  const usedProjects = new Set<string>();
  for (const s of specs) {
    if (s.status !== "completed" || seenSpecs.has(s._id)) continue;
    seenSpecs.add(s._id);
    const r = bySpec.get(s._id);
    if (r) usedProjects.add(r.projectId);
    rows.push({
      key: `spec:${s._id}`,
      name: r?.name?.trim() || nameFromInput(s.input),
      specId: s._id,
      projectId: r?.projectId,
      specInput: s.input,
      specCreated: s.created,
      openedAt: r?.openedAt,
      progress: r ? progressOf(r) : undefined,
      sortAt: latest(r?.openedAt, s.created),
      target: r ? { projectId: r.projectId } : { specId: s._id },
    });
  }
  for (const r of opened) {
    if (usedProjects.has(r.projectId)) continue;
    rows.push({
      key: `project:${r.projectId}`,
      name: r.name?.trim() || UNTITLED,
      specId: r.specId,
      projectId: r.projectId,
      openedAt: r.openedAt,
      progress: progressOf(r),
      sortAt: r.openedAt,
      target: { projectId: r.projectId },
    });
  }
  return rows.sort((a, b) => time(b.sortAt) - time(a.sortAt) || a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
}

/** "56% built · 5 of 9 features", "Nothing planned or built yet" or "Not opened yet". */
export function progressText(p: HomeProject["progress"]): string {
  if (p === undefined) return "Not opened here yet: open it to read its progress";
  if (p === null) return "Nothing planned or built yet";
  return `${p.percent}% built · ${p.built} of ${p.total} ${p.total === 1 ? "feature" : "features"}`;
}
