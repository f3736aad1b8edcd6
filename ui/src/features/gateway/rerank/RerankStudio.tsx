// The Rerank studio: rank pasted documents against a query (model, top N; a ranked list with
// score bars and original positions; copy the order), and "Ask a spec" (AskSpec.tsx).
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RerankResult } from "../../../ipc/contract";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { keys } from "../../../ipc/hooks";
import { call, toIpcError } from "../../../ipc/invoke";
import { copyText } from "../../../lib/clipboard";
import { plural } from "../../../lib/format";
import { useNotice } from "../../../lib/notices";
import { Tabs } from "../../../lib/Tabs";
import { AskSpec } from "./AskSpec";
import { RankedList } from "./RankedList";
import { RERANK_MODELS, documentsFromFile, orderText, parseDocuments } from "./documents";
import { RerankModelSelect } from "./RerankModelSelect";
import type { Charge } from "../shared/charges";
import { CostLine } from "../shared/CostLine";
import "./rerank.css";

type Mode = "documents" | "ask";

export function RerankStudio() {
  const [mode, setMode] = useState<Mode>("documents");
  return (
    <Tabs
      idPrefix="rerank"
      label="Rerank"
      tabs={[
        { id: "documents", label: "Rank documents" },
        { id: "ask", label: "Ask a spec" },
      ]}
      active={mode}
      onChange={setMode}
    >
      {mode === "documents" ? <RankDocuments /> : <AskSpec />}
    </Tabs>
  );
}

function RankDocuments() {
  const [query, setQuery] = useState("");
  const [docsText, setDocsText] = useState("");
  const [model, setModel] = useState<string>(RERANK_MODELS[0]);
  const [topN, setTopN] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [ranked, setRanked] = useState<{ result: RerankResult; documents: string[]; charge: Charge | null } | null>(null);
  const qc = useQueryClient();
  const notice = useNotice();
  const toast = useErrorToast();
  // A .txt, .md or .csv file chosen in the app's dialog, read by Rust, added to the documents.
  const importFile = async () => {
    try {
      const path = await call("choose_file", { purpose: "documents" });
      if (!path) return;
      const text = await call("read_text_file", { path });
      const added = documentsFromFile(path, text);
      setDocsText((d) => (d.trim() ? `${d.trim()}\n\n${added}` : added));
      notice(`Added ${plural(parseDocuments(added).length, "document")} from ${path.split(/[\\/]/).pop() ?? path}.`);
    } catch (e) {
      toast(e);
    }
  };
  const documents = parseDocuments(docsText);
  const run = useMutation({
    // Every document is ranked and the top N kept here: the contract does not name the service's
    // own "top N" parameter, and the call costs the same either way.
    mutationFn: (v: { documents: string[]; top?: number }) => call("rerank", { request: { model, query: query.trim(), documents: v.documents } }),
    onSuccess: ({ value, charge }, v) => {
      const result = v.top ? { ...value, results: value.results.slice(0, v.top) } : value;
      setRanked({ result, documents: v.documents, charge });
      void qc.invalidateQueries({ queryKey: keys.credits });
    },
  });

  const submit = () => {
    const top = topN.trim() ? Number(topN) : undefined;
    if (!query.trim()) return setProblem("Write the query to rank the documents against.");
    if (documents.length === 0) return setProblem("Paste at least one document: one per block, with a blank line between documents.");
    if (top !== undefined && (!Number.isInteger(top) || top < 1)) return setProblem("Top N is a whole number from 1 up, or empty for every document.");
    setProblem(null);
    run.mutate({ documents, top });
  };

  return (
    <div className="rerank">
      <form
        className="rerank-form"
        aria-label="Rank documents"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="field">
          <label htmlFor="rerank-query">Query</label>
          <input id="rerank-query" className="input" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Which feature helps teams stay motivated?" />
        </div>
        <div className="field">
          <label htmlFor="rerank-docs">Documents</label>
          <textarea id="rerank-docs" className="textarea" rows={10} value={docsText} onChange={(e) => setDocsText(e.target.value)} aria-describedby="rerank-docs-hint" />
          <span className="hint" id="rerank-docs-hint">
            One document per block, with a blank line between documents, or a .txt, .md or .csv file (one document per row).{" "}
            {documents.length ? `${plural(documents.length, "document")} found.` : ""}
          </span>
          <div className="row">
            <button className="btn" type="button" onClick={() => void importFile()}>
              Import a file…
            </button>
          </div>
        </div>
        <div className="row">
          <RerankModelSelect value={model} onChange={setModel} />
          <div className="field">
            <label htmlFor="rerank-top">Top N (optional)</label>
            <input id="rerank-top" className="input top-n" type="number" min={1} step={1} value={topN} onChange={(e) => setTopN(e.target.value)} />
          </div>
        </div>
        {problem && (
          <p className="error-text" role="alert">
            {problem}
          </p>
        )}
        <button className="btn btn-primary" type="submit" disabled={run.isPending}>
          {run.isPending ? "Ranking…" : "Rank documents"}
        </button>
      </form>

      {run.isError && <ErrorPanel error={toIpcError(run.error)} onRetry={submit} level={2} />}

      {ranked && !run.isError && (
        <section className="rerank-results" aria-labelledby="rerank-results-title">
          <div className="section-head">
            <h2 id="rerank-results-title">Ranked by {ranked.result.model}</h2>
            <button
              className="btn btn-small"
              type="button"
              onClick={() =>
                copyText(orderText(ranked.result.results, ranked.documents))
                  .then(() => notice("Order copied."))
                  .catch(toast)
              }
            >
              Copy the order
            </button>
          </div>
          <p className="muted rerank-facts">
            {plural(ranked.result.results.length, "result")} of {ranked.documents.length}
            {ranked.result.usage ? ` · ${plural(ranked.result.usage.total_tokens, "token")}` : ""}
          </p>
          <CostLine charge={ranked.charge} />
          <RankedList results={ranked.result.results} documents={ranked.documents} label="Ranked documents" />
        </section>
      )}
    </div>
  );
}
