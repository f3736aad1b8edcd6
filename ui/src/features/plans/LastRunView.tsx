// The last run that changed the code: kind, when, code version before → after, files changed and
// what it added, removed and changed in the app map.
import type { AppMapDiffEntry } from "../../bindings/AppMapDiffEntry";
import type { LastRun } from "../../bindings/LastRun";
import { formatDateTime, humanizeKind } from "./lastRun";

function DiffList({ title, entries, mark }: { title: string; entries: AppMapDiffEntry[]; mark: string }) {
  return (
    <div className="diff-col">
      <h5>
        {title} ({entries.length})
      </h5>
      {entries.length === 0 ? (
        <p className="muted">Nothing.</p>
      ) : (
        <ul>
          {entries.map((e, i) => (
            <li key={i}>
              <span aria-hidden="true" className="diff-mark">
                {mark}
              </span>{" "}
              {e.name} <span className="muted">({e.kind})</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function LastRunView({ run }: { run: LastRun | undefined }) {
  if (!run) return <p className="muted">No code change yet.</p>;
  return (
    <div className="lastrun">
      <dl className="details-grid">
        <div>
          <dt>Kind</dt>
          <dd>{humanizeKind(run.kind)}</dd>
        </div>
        <div>
          <dt>Ended</dt>
          <dd>{formatDateTime(run.endedAt)}</dd>
        </div>
        <div>
          <dt>Code version</dt>
          <dd>
            <code>{run.codeVersion.before ?? "none"}</code> <span aria-hidden="true">→</span>
            <span className="visually-hidden"> to </span> <code>{run.codeVersion.after ?? "none"}</code>
          </dd>
        </div>
        <div>
          <dt>Files changed</dt>
          <dd>{run.filesChanged.count}</dd>
        </div>
      </dl>
      {run.filesChanged.paths.length > 0 && (
        <details className="files-changed">
          <summary>
            {run.filesChanged.paths.length < run.filesChanged.count
              ? `${run.filesChanged.paths.length} of ${run.filesChanged.count} files`
              : `The ${run.filesChanged.count === 1 ? "file" : `${run.filesChanged.count} files`}`}
          </summary>
          <ul>
            {run.filesChanged.paths.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      <h4>App map changes</h4>
      <div className="diff-cols">
        <DiffList title="Added" entries={run.appMap.added} mark="+" />
        <DiffList title="Removed" entries={run.appMap.removed} mark="−" />
        <DiffList title="Changed" entries={run.appMap.changed} mark="~" />
      </div>
    </div>
  );
}
