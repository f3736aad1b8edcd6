// Compare: the same prompt to two or three models, streaming side by side, each with its time
// to first word, length and credits. Picking a winner puts every finished reply into the thread
// as versions of one reply (the winner shown) and records the winner on the conversation.
import { memo, useCallback, useLayoutEffect, useReducer, useRef } from "react";
import type { Message } from "../../../bindings/Message";
import type { IpcError } from "../../../ipc/contract";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { formatCreditsWord } from "../../../lib/format";
import { MarkdownText } from "./MarkdownText";
import { NO_COMPARE, compareReducer, comparing, pickable, ttftOf, wordCount, type CompareState } from "./compare";
import { recordWinner } from "./conversations";
import { creditsOf, newStreamId, startChatStream, type RunningStream } from "./stream";
import { newTurnId, textOf, type Turn } from "./tree";
import { buildRequest, type ChatApi, type ChatSettings } from "./useChat";

const LANE_FAILED: IpcError = { kind: "failed", message: "This model did not answer." };

/** `onError`: a winner the library could not record (the pick itself stands). */
export function useCompare(chat: ChatApi, onError: (e: unknown) => void) {
  const [state, dispatch] = useReducer(compareReducer, NO_COMPARE);
  const streams = useRef<RunningStream[]>([]);
  const parent = useRef<string | null>(null);
  const stateRef = useRef<CompareState>(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  });

  // What the compare sent, so a failed lane can be tried again with the same messages.
  const sent = useRef<{ messages: Message[]; settings: ChatSettings } | null>(null);

  /** Streams one lane; `onStart` gets the conversation the service names, `onFail` its error. */
  const run = useCallback(
    (lane: { model: string; streamId: string }, conv: number | undefined, onStart?: (id: number) => void, onFail?: (error: IpcError) => void) => {
      const { messages, settings } = sent.current ?? { messages: [], settings: null };
      if (!settings) throw new Error("compare: nothing sent yet");
      return startChatStream(
        buildRequest({ ...settings, model: lane.model }, messages),
        conv,
        {
          onStart,
          onText: (text) => dispatch({ type: "text", streamId: lane.streamId, text, at: performance.now() }),
          onDone: (message, _conv, { creditsCharged, ...ids }) => {
            dispatch({ type: "done", streamId: lane.streamId, text: textOf(message.content), credits: creditsCharged ?? creditsOf(message), ...ids, at: performance.now() });
            chat.refreshLists();
          },
          onError: (error) => {
            dispatch({ type: "error", streamId: lane.streamId, error, at: performance.now() });
            onFail?.(error);
          },
        },
        lane.streamId,
      );
    },
    [chat],
  );

  const start = useCallback(
    (userTurnId: string, prompt: string, models: string[], messages: Message[], settings: ChatSettings) => {
      parent.current = userTurnId;
      sent.current = { messages, settings };
      const lanes = models.map((model) => ({ model, streamId: newStreamId() }));
      dispatch({ type: "start", prompt, lanes, at: performance.now() });
      const [first, ...others] = lanes;
      if (!first) return;
      if (chat.conversationId !== undefined) {
        streams.current = lanes.map((l) => run(l, chat.conversationId));
        return;
      }
      // A new conversation: the first lane creates it, the others join it once it exists. Refused
      // before that (the spend cap, a key), the others fail with it rather than wait for good:
      // each can be tried again.
      let joined = false;
      streams.current = [
        run(
          first,
          undefined,
          (id) => {
            if (joined) return;
            joined = true;
            chat.adoptConversation(id);
            streams.current.push(...others.map((l) => run(l, id)));
          },
          (error) => {
            if (joined) return;
            joined = true;
            for (const l of others) dispatch({ type: "error", streamId: l.streamId, error, at: performance.now() });
          },
        ),
      ];
    },
    [chat, run],
  );

  /** A lane that failed before its first word, streamed again (the others are kept). */
  const retryLane = useCallback(
    (streamId: string) => {
      const lane = stateRef.current.lanes.find((l) => l.streamId === streamId);
      if (!lane || lane.status !== "error" || !sent.current) return;
      const again = { model: lane.model, streamId: newStreamId() };
      dispatch({ type: "retry", streamId, newStreamId: again.streamId, at: performance.now() });
      streams.current.push(run(again, chat.conversationId, (id) => chat.adoptConversation(id)));
    },
    [chat, run],
  );

  const pickWinner = useCallback(
    (model: string) => {
      const s = stateRef.current;
      const userTurnId = parent.current;
      if (!userTurnId || comparing(s)) return;
      const finished = s.lanes.filter(pickable);
      const turns: Turn[] = finished.map((l) => ({
        id: newTurnId(),
        parentId: userTurnId,
        role: "assistant",
        content: l.text ? [{ type: "text", text: l.text }] : [],
        status: l.status === "done" ? "done" : l.status === "cut" ? "cut" : "stopped",
        model: l.model,
        credits: l.credits,
        ttftMs: ttftOf(l) === undefined ? undefined : Math.round(ttftOf(l) ?? 0),
        createdAt: new Date().toISOString(),
      }));
      const winner = turns[finished.findIndex((l) => l.model === model)];
      if (!winner) return;
      dispatch({ type: "winner", model });
      chat.addTurns(turns, winner.id);
      if (chat.conversationId !== undefined) {
        recordWinner(chat.conversationId, { prompt: s.prompt, models: s.lanes.map((l) => l.model), winner: model, at: new Date().toISOString() }).catch(onError);
      }
      chat.setAnnouncement(`${model} picked as the winner.`);
      streams.current = [];
      parent.current = null;
      dispatch({ type: "start", prompt: "", lanes: [], at: 0 });
    },
    [chat, onError],
  );

  return {
    state,
    busy: comparing(state),
    start,
    stop: () => streams.current.forEach((s) => s.stop()),
    pickWinner,
    retryLane,
  };
}

export const ComparePanel = memo(function ComparePanel({ state, busy, onPick, onRetry }: { state: CompareState; busy: boolean; onPick: (model: string) => void; onRetry: (streamId: string) => void }) {
  if (!state.lanes.length) return null;
  return (
    <section className="compare" aria-labelledby="compare-title">
      <div className="section-head">
        <h3 id="compare-title">Compare</h3>
        <p className="muted">{busy ? "The replies are streaming…" : "Pick the reply you prefer: the others stay as versions."}</p>
      </div>
      <ul className="compare-lanes" data-count={state.lanes.length}>
        {state.lanes.map((l) => {
          const ttft = ttftOf(l);
          return (
            <li key={l.streamId} className="compare-lane" aria-label={`Reply from ${l.model}`} aria-busy={l.status === "waiting" || l.status === "streaming"}>
              <header className="row">
                <strong className="mono">{l.model}</strong>
                {l.status === "cut" && <span className="badge tone-badge" data-tone="warning">Cut off</span>}
                {l.status === "stopped" && <span className="badge tone-badge" data-tone="warning">Stopped</span>}
                {l.status === "error" && <span className="badge tone-badge" data-tone="danger">Failed</span>}
              </header>
              <dl className="lane-stats">
                <div>
                  <dt>First word</dt>
                  <dd>{ttft === undefined ? "—" : `${(ttft / 1000).toFixed(1)} s`}</dd>
                </div>
                <div>
                  <dt>Length</dt>
                  <dd>{`${wordCount(l.text)} words`}</dd>
                </div>
                <div>
                  <dt>Credits</dt>
                  <dd>{l.credits === undefined ? "—" : formatCreditsWord(l.credits)}</dd>
                </div>
                <div>
                  <dt>Balance after</dt>
                  <dd>{l.balanceAfter === undefined ? "—" : formatCreditsWord(l.balanceAfter)}</dd>
                </div>
                <div>
                  <dt>Request id</dt>
                  <dd className="mono">{l.requestId ?? "—"}</dd>
                </div>
              </dl>
              {l.status === "error" ? (
                // Under the lane's model, inside the Compare section (h3).
                <ErrorPanel error={l.error ?? LANE_FAILED} onRetry={() => onRetry(l.streamId)} level={4} />
              ) : (
                <MarkdownText text={l.text} />
              )}
              <button className="btn" type="button" disabled={busy || !pickable(l)} onClick={() => onPick(l.model)}>
                Pick {l.model} as the winner
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
});
