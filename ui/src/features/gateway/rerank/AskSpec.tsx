// "Ask a spec": pick a spec kept in the library, split its document into sections and stories,
// rerank them against a question, send the best ones as context to a chat model, and show which
// sections the answer cites.
import { useId, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { IpcError } from "../../../ipc/contract";
import type { RerankHit } from "../../../bindings/RerankHit";
import { ErrorPanel, errorTitle } from "../../../components/ErrorPanel";
import { keys, useConnectionId } from "../../../ipc/hooks";
import { call, toIpcError } from "../../../ipc/invoke";
import { MarkdownText } from "../chat/MarkdownText";
import { creditsOf, startChatStream, type RunningStream } from "../chat/stream";
import type { Charge } from "../shared/charges";
import { CostLine } from "../shared/CostLine";
import { textOf } from "../chat/tree";
import { ModelPicker } from "../models/ModelPicker";
import { RerankModelSelect } from "./RerankModelSelect";
import { ASK_SYSTEM, RERANK_MODELS, askMessage, citationsOf, firstLine, splitSpec, type SpecChunk } from "./documents";

type Phase = "idle" | "reading" | "ranking" | "answering" | "done" | "stopped" | "failed";

interface Sent {
  hit: RerankHit;
  chunk: SpecChunk;
}

const SECTION_COUNTS = [2, 3, 4, 5, 6, 8];

/** Every spec kept on this computer, read 500 at a time (the list is never cut). */
async function allCachedSpecs() {
  const all = [];
  for (let offset = 0; ; offset += 500) {
    const page = await call("cached_specs", { limit: 500, offset });
    all.push(...page);
    if (page.length < 500) return all;
  }
}

export function AskSpec() {
  const connection = useConnectionId();
  const specs = useQuery({
    queryKey: ["cached_specs", connection ?? "", "ask"],
    queryFn: allCachedSpecs,
    enabled: connection !== undefined,
  });
  const readable = (specs.data ?? []).filter((s) => s.hasMarkdown);
  const [specId, setSpecId] = useState("");
  const [question, setQuestion] = useState("");
  const [rerankModel, setRerankModel] = useState<string>(RERANK_MODELS[0]);
  const [chatModel, setChatModel] = useState("");
  const [count, setCount] = useState(4);
  const [phase, setPhase] = useState<Phase>("idle");
  const [sent, setSent] = useState<Sent[]>([]);
  const [answer, setAnswer] = useState("");
  const [charge, setCharge] = useState<Charge | null>(null);
  const [rankCharge, setRankCharge] = useState<Charge | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const stream = useRef<RunningStream | null>(null);
  const qc = useQueryClient();
  const ids = { spec: useId(), question: useId(), count: useId() };
  const chosen = specId || readable[0]?.specId || "";
  const title = (id: string) => firstLine(readable.find((s) => s.specId === id)?.input ?? id, 80);
  const busy = phase === "reading" || phase === "ranking" || phase === "answering";

  const ask = async () => {
    if (!chosen) return setProblem("Choose a spec first.");
    if (!question.trim()) return setProblem("Write your question about the spec.");
    if (!chatModel) return setProblem("Choose a chat model.");
    setProblem(null);
    setError(null);
    setAnswer("");
    setCharge(null);
    setRankCharge(null);
    setSent([]);
    setAnnouncement("");
    try {
      setPhase("reading");
      const chunks = splitSpec(await call("spec_markdown", { specId: chosen, doc: "human" }));
      if (!chunks.length) throw { kind: "notFound", message: "This spec's document has no sections to search." } satisfies IpcError;
      setPhase("ranking");
      const { value: ranked, charge: ranking } = await call("rerank", { request: { model: rerankModel, query: question.trim(), documents: chunks.map((c) => c.text) } });
      const top = ranked.results.slice(0, count).flatMap((hit) => {
        const chunk = chunks[hit.index];
        return chunk ? [{ hit, chunk }] : [];
      });
      setSent(top);
      setRankCharge(ranking);
      setPhase("answering");
      let text = "";
      stream.current = startChatStream(
        { model: chatModel, max_tokens: 1024, system: ASK_SYSTEM, messages: [{ role: "user", content: askMessage(title(chosen), question, top.map((s) => s.chunk)) }] },
        undefined,
        {
          onText: (d) => {
            text += d;
            setAnswer(text);
          },
          onDone: (message, _conversation, meta) => {
            const full = textOf(message.content) || text;
            setAnswer(full);
            const charged = creditsOf(message);
            setCharge({ ...(charged !== undefined ? { creditsCharged: charged } : {}), ...meta });
            setPhase("done");
            setAnnouncement(full);
            stream.current = null;
            void qc.invalidateQueries({ queryKey: keys.credits });
            void qc.invalidateQueries({ queryKey: ["list_conversations"] });
          },
          onError: (e) => {
            setPhase(e.kind === "cancelled" ? "stopped" : "failed");
            if (e.kind !== "cancelled") setError(e);
            // The panel below shows the failure with its next step; this says it in the same words.
            setAnnouncement(e.kind === "cancelled" ? "Stopped." : `${errorTitle(e.kind)}. ${e.message}`);
            stream.current = null;
          },
        },
      );
    } catch (e) {
      setError(toIpcError(e));
      setPhase("failed");
    }
  };

  const cited = phase === "done" ? citationsOf(answer, sent.length) : [];

  return (
    <div className="ask-spec">
      <p className="muted">Ask a question about one of your specs: its sections are ranked against the question, and the best ones are sent to a chat model, which cites them.</p>
      {specs.isError && <ErrorPanel error={toIpcError(specs.error)} onRetry={() => void specs.refetch()} level={2} />}
      <form
        className="rerank-form"
        aria-label="Ask a spec"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) void ask();
        }}
      >
        <div className="field">
          <label htmlFor={ids.spec}>Spec</label>
          <select id={ids.spec} className="select" value={chosen} onChange={(e) => setSpecId(e.target.value)} disabled={!readable.length}>
            {readable.length === 0 && <option value="">{specs.isPending ? "Loading specs…" : "No spec kept on this computer yet"}</option>}
            {readable.map((s) => (
              <option key={s.specId} value={s.specId}>
                {firstLine(s.input ?? s.specId, 80)}
              </option>
            ))}
          </select>
          {!specs.isPending && readable.length === 0 && <span className="hint">Open a finished spec in Specs first: its document is then kept here.</span>}
        </div>
        <div className="field">
          <label htmlFor={ids.question}>Question</label>
          <textarea id={ids.question} className="textarea" rows={3} value={question} onChange={(e) => setQuestion(e.target.value)} placeholder="How do streaks work?" />
        </div>
        <div className="row">
          <RerankModelSelect value={rerankModel} onChange={setRerankModel} />
          <div className="field">
            <label htmlFor={ids.count}>Sections to send</label>
            <select id={ids.count} className="select top-n" value={count} onChange={(e) => setCount(Number(e.target.value))}>
              {SECTION_COUNTS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <ModelPicker label="Chat model" kind="text" value={chatModel} onChange={setChatModel} />
        </div>
        {problem && (
          <p className="error-text" role="alert">
            {problem}
          </p>
        )}
        <div className="row">
          <button className="btn btn-primary" type="submit" disabled={busy}>
            {phase === "reading" ? "Reading the spec…" : phase === "ranking" ? "Ranking sections…" : phase === "answering" ? "Answering…" : "Ask"}
          </button>
          {phase === "answering" && (
            <button className="btn" type="button" onClick={() => stream.current?.stop()}>
              Stop
            </button>
          )}
        </div>
      </form>

      {error && <ErrorPanel error={error} onRetry={busy ? undefined : () => void ask()} level={2} />}

      {(answer || phase === "answering") && (
        <section className="ask-answer" aria-labelledby="ask-answer-title" aria-busy={phase === "answering"}>
          <div className="section-head">
            <h2 id="ask-answer-title">Answer</h2>
            {phase === "stopped" && <span className="badge tone-badge" data-tone="warning">Stopped</span>}
          </div>
          {rankCharge && <CostLine charge={rankCharge} label="What ranking the sections cost" />}
          {charge && <CostLine charge={charge} label="What the answer cost" />}
          {answer ? <MarkdownText text={answer} /> : <p className="muted">Waiting for the first word…</p>}
          {phase === "done" && (
            <>
              <h3>Sections cited</h3>
              {cited.length ? (
                <ol className="cited" aria-label="Sections cited">
                  {cited.map((n) => (
                    <li key={n} value={n}>
                      {sent[n - 1]?.chunk.label}
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="muted">The answer cites no section.</p>
              )}
            </>
          )}
        </section>
      )}

      {sent.length > 0 && (
        <section aria-labelledby="ask-sent-title">
          <h2 id="ask-sent-title">Sections sent as context</h2>
          <ol className="cited" aria-label="Sections sent">
            {sent.map((s, i) => (
              <li key={s.hit.index}>
                {s.chunk.label} <span className="muted">(score {s.hit.relevance_score.toFixed(3)}{cited.includes(i + 1) ? ", cited" : ""})</span>
              </li>
            ))}
          </ol>
        </section>
      )}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="ask-announcer">
        {announcement}
      </div>
    </div>
  );
}
