// Plan figures as the Plans screen shows them: progress, the feature list with `partOf` items
// under their feature, appMap lists cut at 25, and the progress-over-time chart.
import type { Feature } from "../../bindings/Feature";
import type { PlanPoint } from "../../bindings/PlanPoint";
import type { Progress } from "../../bindings/Progress";
import { STATUS_ORDER, isKnownStatus } from "./status";

export interface ProgressFacts {
  percent: number;
  built: number;
  provenWorking: number;
  total: number;
  left: number;
  proposed: number;
  /** "features" or "stories": what is counted. */
  unit: string;
  /** How the progress is counted, in words. */
  basisText: string;
  /** Share of the total proven working, 0–100 (the bar's first segment). */
  provenShare: number;
  /** Share built but not proven, 0–100 (the bar's second segment). */
  builtShare: number;
  /** "5 of 8 features built". */
  headline: string;
}

const clampPct = (n: number) => Math.max(0, Math.min(100, n));

export function progressFacts(p: Progress): ProgressFacts {
  const unit = p.basis === "stories" ? "stories" : "features";
  const one = p.basis === "stories" ? "story" : "feature";
  const basisText =
    p.basis === "features"
      ? "Counted by features."
      : p.basis === "stories"
        ? "Counted by stories: this project's tasks are not grouped into features yet."
        : p.basis === "none"
          ? "Nothing to count yet."
          : `Counted by ${p.basis}.`;
  const total = Math.max(0, p.total);
  const provenShare = total ? clampPct((p.provenWorking / total) * 100) : 0;
  const builtShare = total ? clampPct(((p.built - p.provenWorking) / total) * 100) : 0;
  return {
    percent: clampPct(p.percent),
    built: p.built,
    provenWorking: p.provenWorking,
    total,
    left: p.left,
    proposed: p.proposed,
    unit,
    basisText,
    provenShare: Math.round(provenShare * 10) / 10,
    builtShare: Math.round(builtShare * 10) / 10,
    headline: `${p.built} of ${total} ${total === 1 ? one : unit} built`,
  };
}

export interface FeatureRow {
  feature: Feature;
  /** 0 for a feature, 1 for an item that extends one (`partOf`). */
  depth: number;
  /** Shown but not counted in the progress (proposed, out of scope, removed...). */
  notCounted: boolean;
  /** A suggested feature, not counted until the owner confirms it. */
  proposed: boolean;
  /** `partOf` names a feature that is not in the list. */
  orphanOf: string | null;
}

/** Features in the service's order, each `partOf` item placed under the feature it extends. */
export function featureRows(features: Feature[]): FeatureRow[] {
  const names = new Set(features.filter((f) => f.partOf === null).map((f) => f.name));
  const children = new Map<string, Feature[]>();
  for (const f of features) {
    if (f.partOf !== null && names.has(f.partOf)) {
      const list = children.get(f.partOf) ?? [];
      list.push(f);
      children.set(f.partOf, list);
    }
  }
  const row = (f: Feature, depth: number): FeatureRow => ({
    feature: f,
    depth,
    notCounted: !f.counted,
    proposed: f.scope === "proposed",
    orphanOf: f.partOf !== null && !names.has(f.partOf) ? f.partOf : null,
  });
  const out: FeatureRow[] = [];
  const placed = new Set<Feature>();
  for (const f of features) {
    if (placed.has(f)) continue;
    if (f.partOf !== null && names.has(f.partOf)) continue; // placed under its feature
    out.push(row(f, 0));
    placed.add(f);
    if (f.partOf === null) {
      for (const c of children.get(f.name) ?? []) {
        if (placed.has(c)) continue;
        out.push(row(c, 1));
        placed.add(c);
      }
    }
  }
  return out;
}

/** "25 of 40" when the service cut the list, else the full number ("2"). */
export function cutLabel(list: { count: number; items: unknown[] }): string {
  return list.count > list.items.length ? `${list.items.length} of ${list.count}` : String(list.count);
}

export function isCut(list: { count: number; items: unknown[] }): boolean {
  return list.count > list.items.length;
}

/** "app/recipes/page.tsx:12" → { file, line: 12 }; a bare file has no line. */
export function parseAnchor(anchor: string | null): { file: string; line: number | null } | null {
  if (!anchor) return null;
  const m = /^(.*?):(\d+)$/.exec(anchor);
  if (m && m[1] && m[2]) return { file: m[1], line: Number(m[2]) };
  return { file: anchor, line: null };
}

// ---- Progress over time ----

export interface ChartBox {
  width: number;
  height: number;
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const CHART_BOX: ChartBox = { width: 640, height: 240, top: 16, right: 48, bottom: 36, left: 44 };

export interface ChartSegment {
  status: string;
  count: number;
  y: number;
  height: number;
}

export interface ChartPoint {
  computedAt: string;
  percent: number;
  /** Centre of the point's column. */
  x: number;
  /** Where the percent line passes. */
  y: number;
  bars: ChartSegment[];
}

export interface ChartData {
  points: ChartPoint[];
  barWidth: number;
  /** The largest stack (right axis). */
  maxCount: number;
  /** Every status present, in stacking order. */
  statuses: string[];
  /** SVG path of the percent line. */
  path: string;
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/** Statuses of the history in stacking order: known ones in table order, then unknown ones by name. */
export function historyStatuses(history: PlanPoint[]): string[] {
  const found = new Set<string>();
  for (const p of history) for (const [s, n] of Object.entries(p.statuses)) if (n > 0) found.add(s);
  const known = STATUS_ORDER.filter((s) => found.has(s));
  const unknown = [...found].filter((s) => !isKnownStatus(s)).sort();
  return [...known, ...unknown];
}

/** Positions of the chart: one column per snapshot (oldest first), percent 0–100 on the left axis. */
export function chartData(history: PlanPoint[], box: ChartBox = CHART_BOX): ChartData {
  const plotW = box.width - box.left - box.right;
  const plotH = box.height - box.top - box.bottom;
  const n = history.length;
  const band = n ? plotW / n : plotW;
  const barWidth = r2(Math.min(28, band * 0.6));
  const statuses = historyStatuses(history);
  const maxCount = Math.max(1, ...history.map((p) => Object.values(p.statuses).reduce((a, b) => a + Math.max(0, b), 0)));
  const points = history.map((p, i) => {
    const x = r2(box.left + band * (i + 0.5));
    const y = r2(box.top + plotH * (1 - clampPct(p.percent) / 100));
    let base = box.top + plotH;
    const bars: ChartSegment[] = [];
    for (const s of statuses) {
      const count = p.statuses[s] ?? 0;
      if (count <= 0) continue;
      const h = (count / maxCount) * plotH;
      base -= h;
      bars.push({ status: s, count, y: r2(base), height: r2(h) });
    }
    return { computedAt: p.computedAt, percent: p.percent, x, y, bars };
  });
  const path = points.map((p, i) => `${i === 0 ? "M" : "L"}${p.x},${p.y}`).join(" ");
  return { points, barWidth, maxCount, statuses, path };
}
