// Rerank results: most relevant first, each with its score as a bar, its original position and
// its text.
import type { RerankHit } from "../../../bindings/RerankHit";

export function RankedList({ results, documents, label, labels }: { results: RerankHit[]; documents: string[]; label: string; labels?: string[] }) {
  const top = Math.max(...results.map((r) => r.relevance_score), 0) || 1;
  return (
    <ol className="ranked" aria-label={label}>
      {results.map((r, i) => (
        <li key={r.index} className="ranked-item">
          <div className="ranked-head">
            <span className="ranked-rank">{i + 1}</span>
            <span className="ranked-pos muted">{labels?.[r.index] ?? `Document ${r.index + 1}`}</span>
            <span className="ranked-score">score {r.relevance_score.toFixed(3)}</span>
          </div>
          <div className="score-bar" aria-hidden="true">
            <span style={{ width: `${Math.max(2, (r.relevance_score / top) * 100)}%` }} />
          </div>
          <p className="pre-wrap ranked-text">{documents[r.index] ?? ""}</p>
        </li>
      ))}
    </ol>
  );
}
