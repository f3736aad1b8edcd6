// The line a model list shows when the service could not be reached and the models are the copy
// kept on this computer: "Offline — models as of 2 hours ago".
import type { CatalogView } from "../../../bindings/CatalogView";
import { formatAgo, formatDateTime } from "../../../lib/format";
import { useNow } from "../../../lib/useNow";

/** What a model list needs to say where its models came from. */
export type CatalogSource = Pick<CatalogView<unknown>, "offline" | "cachedAt">;

/** The oldest kept copy among the `sources` shown offline, or `undefined` when all are live. */
export function offlineSince(...sources: (CatalogSource | undefined)[]): string | null | undefined {
  const kept = sources.filter((s): s is CatalogSource => s?.offline === true);
  if (kept.length === 0) return undefined;
  const times = kept.map((s) => s.cachedAt).filter((t): t is string => !!t).sort();
  return times[0] ?? null;
}

/** The offline line, in plain words. */
export function offlineLine(since: string | null, now: number = Date.now()): string {
  return since ? `Offline — models as of ${formatAgo(since, now)}` : "Offline — models kept from an earlier visit";
}

export function OfflineNote({ sources, id }: { sources: (CatalogSource | undefined)[]; id?: string }) {
  const since = offlineSince(...sources);
  const now = useNow(since !== undefined, 60_000);
  if (since === undefined) return null;
  return (
    <p className="hint offline-note" id={id} title={since ? formatDateTime(since) : undefined}>
      {offlineLine(since, now)}
    </p>
  );
}
