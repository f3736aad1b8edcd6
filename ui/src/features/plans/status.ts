// Every feature status of the service's table, each with its own colour token, icon and words.
// Unknown statuses (new ones the service may add) get a neutral look and their own words.

export interface StatusLook {
  /** The CSS colour token (custom property) of the status. */
  token: string;
  /** A symbol shown beside the words (aria-hidden: the words carry the meaning). */
  icon: string;
  /** Words when the service sends no `statusText`. */
  words: string;
  /** What the status means, from the service's table. */
  meaning: string;
}

export const FEATURE_STATUSES = {
  works: { token: "--status-works", icon: "✓", words: "Works", meaning: "A check of the feature passed at the current code." },
  built_not_checked: {
    token: "--status-built",
    icon: "●",
    words: "Built, not checked yet",
    meaning: "The code exists; nothing has proven it works yet.",
  },
  changed_since_check: {
    token: "--status-changed",
    icon: "↻",
    words: "Changed since its check",
    meaning: "Its files changed after its check passed.",
  },
  needs_a_look: { token: "--status-look", icon: "!", words: "Needs a look", meaning: "Its check failed the last time it ran." },
  not_working: { token: "--status-broken", icon: "✕", words: "Not working", meaning: "Its check keeps failing." },
  in_progress: { token: "--status-progress", icon: "◐", words: "In progress", meaning: "Being built; not built yet." },
  planned: { token: "--status-planned", icon: "○", words: "Planned", meaning: "Not built yet." },
  out_of_scope: {
    token: "--status-out",
    icon: "⊘",
    words: "Out of scope",
    meaning: "Set outside the project's scope; listed, not counted.",
  },
  removed: { token: "--status-removed", icon: "⌫", words: "Removed", meaning: "Taken out at the owner's request; listed, not counted." },
} as const satisfies Record<string, StatusLook>;

export type KnownFeatureStatus = keyof typeof FEATURE_STATUSES;

/** Statuses in the order the chart stacks them (proven at the bottom). */
export const STATUS_ORDER: KnownFeatureStatus[] = [
  "works",
  "built_not_checked",
  "changed_since_check",
  "needs_a_look",
  "not_working",
  "in_progress",
  "planned",
  "out_of_scope",
  "removed",
];

export function isKnownStatus(s: string): s is KnownFeatureStatus {
  return Object.prototype.hasOwnProperty.call(FEATURE_STATUSES, s);
}

/** "needs_review" → "Needs review". */
export function humanize(status: string): string {
  const t = status.replace(/[_-]+/g, " ").trim();
  return t ? t.charAt(0).toUpperCase() + t.slice(1) : "Unknown";
}

/** How a feature's status looks; `statusText` (the service's words) wins when given. */
export function featureStatusLook(status: string, statusText?: string | null): StatusLook & { status: string; known: boolean } {
  const known = isKnownStatus(status);
  const base: StatusLook = known
    ? FEATURE_STATUSES[status]
    : { token: "--status-unknown", icon: "?", words: humanize(status), meaning: "A status this version of Specdesk does not know yet." };
  const words = statusText?.trim() ? statusText.trim() : base.words;
  return { ...base, words, status, known };
}

/** Short words for a status in the chart's legend and table. */
export function statusLabel(status: string): string {
  return isKnownStatus(status) ? FEATURE_STATUSES[status].words : humanize(status);
}
