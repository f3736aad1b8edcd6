// One turn of the thread: who said it, its content (markdown, images, tool calls and results),
// its branch switcher ("2 / 3"), its state (streaming, cut off, stopped, failed) and actions.
import { useId, useState } from "react";
import type { ContentBlock } from "../../../bindings/ContentBlock";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { MarkdownText } from "./MarkdownText";
import { formatCreditsWord } from "../../../lib/format";
import type { TurnRow } from "./Thread";
import { ToolUseCard } from "./ToolUseCard";
import { textOf, type Turn } from "./tree";

export interface TurnActions {
  busy: boolean;
  answered: (toolUseId: string) => boolean;
  onSwitch: (delta: number) => void;
  onRegenerate: () => void;
  onRetry: () => void;
  onContinue: () => void;
  onEdit: (text: string) => void;
  onCopy: () => void;
  onAnswer: (toolUseId: string, result: string, isError: boolean) => void;
}

/** `row`: the virtualized thread's placement and measuring of this turn (Thread.tsx). */
export function TurnView({ turn, branch, actions, row }: { turn: Turn; branch: { index: number; count: number }; actions: TurnActions; row?: TurnRow }) {
  const [editing, setEditing] = useState<string | null>(null);
  const editId = useId();
  const who = turn.role === "user" ? "You" : (turn.model ?? "Assistant");
  const text = textOf(turn.content);
  const streaming = turn.status === "streaming";
  return (
    <li
      className="turn"
      data-role={turn.role}
      data-status={turn.status}
      aria-busy={streaming || undefined}
      ref={row?.ref}
      data-index={row?.index}
      aria-posinset={row ? row.index + 1 : undefined}
      aria-setsize={row?.count}
      style={row ? { transform: `translateY(${row.start}px)` } : undefined}
      onFocus={row?.onFocus}
      onBlur={row?.onBlur}
    >
      <header className="turn-head">
        <strong className="turn-who">{who}</strong>
        {branch.count > 1 && (
          <span className="branch-switch" role="group" aria-label={`Versions of this ${turn.role === "user" ? "message" : "reply"}`}>
            <button className="btn btn-ghost btn-small" type="button" aria-label="Previous version" disabled={branch.index === 0 || actions.busy} onClick={() => actions.onSwitch(-1)}>
              ‹
            </button>
            <span className="branch-count">
              {branch.index + 1} / {branch.count}
            </span>
            <button className="btn btn-ghost btn-small" type="button" aria-label="Next version" disabled={branch.index === branch.count - 1 || actions.busy} onClick={() => actions.onSwitch(1)}>
              ›
            </button>
          </span>
        )}
        {streaming && <span className="badge tone-badge" data-tone="info">Writing…</span>}
        {turn.status === "cut" && <span className="badge tone-badge" data-tone="warning">Cut off</span>}
        {turn.status === "stopped" && <span className="badge tone-badge" data-tone="warning">Stopped</span>}
        {turn.ttftMs !== undefined && turn.role === "assistant" && <span className="muted turn-meta">first word after {(turn.ttftMs / 1000).toFixed(1)} s</span>}
        {turn.credits !== undefined && <span className="muted turn-meta turn-credits">{formatCreditsWord(turn.credits)}</span>}
        {turn.requestId && <span className="muted turn-meta mono">request {turn.requestId}</span>}
        {turn.balanceAfter !== undefined && <span className="muted turn-meta turn-balance">balance after: {formatCreditsWord(turn.balanceAfter)}</span>}
      </header>

      {editing !== null ? (
        <form
          className="turn-edit"
          onSubmit={(e) => {
            e.preventDefault();
            if (!editing.trim()) return;
            actions.onEdit(editing.trim());
            setEditing(null);
          }}
        >
          <label className="visually-hidden" htmlFor={editId}>
            Edit your message
          </label>
          <textarea id={editId} className="textarea" value={editing} onChange={(e) => setEditing(e.target.value)} rows={3} />
          <div className="row">
            <button className="btn btn-primary" type="submit" disabled={actions.busy || !editing.trim()}>
              Send as a new version
            </button>
            <button className="btn" type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="turn-body">
          {turn.content.map((b, i) => (
            <Block key={i} block={b} role={turn.role} actions={actions} />
          ))}
          {streaming && !text && <p className="muted">Waiting for the first word…</p>}
        </div>
      )}

      {turn.status === "error" && turn.error && <ErrorPanel error={turn.error} onRetry={actions.busy ? undefined : actions.onRetry} />}
      {turn.status === "cut" && turn.error && <ErrorPanel error={turn.error} onRetry={actions.busy ? undefined : actions.onRetry} />}

      {!streaming && editing === null && (
        <div className="row turn-actions">
          {turn.role === "user" && text && (
            <button className="btn btn-ghost btn-small" type="button" disabled={actions.busy} onClick={() => setEditing(text)}>
              Edit
            </button>
          )}
          {turn.role === "assistant" && (turn.status === "cut" || turn.status === "stopped") && text && (
            <button className="btn btn-small" type="button" disabled={actions.busy} onClick={actions.onContinue}>
              Continue
            </button>
          )}
          {turn.role === "assistant" && turn.status !== "error" && (
            <button className="btn btn-ghost btn-small" type="button" disabled={actions.busy} onClick={actions.onRegenerate}>
              Regenerate
            </button>
          )}
          {text && (
            <button className="btn btn-ghost btn-small" type="button" onClick={actions.onCopy}>
              Copy
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function Block({ block, role, actions }: { block: ContentBlock; role: Turn["role"]; actions: TurnActions }) {
  switch (block.type) {
    case "text":
      return role === "assistant" ? <MarkdownText text={block.text} /> : <p className="pre-wrap user-text">{block.text}</p>;
    case "image":
      return block.source.type === "base64" ? (
        <img className="turn-image" src={`data:${block.source.media_type};base64,${block.source.data}`} alt="Attached image" />
      ) : block.source.type === "url" ? (
        <p className="muted">Image: {block.source.url}</p>
      ) : null;
    case "tool_use":
      return (
        <ToolUseCard
          id={block.id}
          name={block.name}
          input={block.input}
          answered={actions.answered(block.id)}
          disabled={actions.busy}
          onAnswer={(result, isError) => actions.onAnswer(block.id, result, isError)}
        />
      );
    case "tool_result":
      return (
        <div className="tool-result">
          <span className="badge tone-badge" data-tone={block.is_error ? "danger" : "success"}>
            {block.is_error ? "Tool failed" : "Tool result"}
          </span>
          <pre className="tool-input">{typeof block.content === "string" ? block.content : JSON.stringify(block.content ?? null, null, 2)}</pre>
        </div>
      );
    case "thinking":
      return (
        <details className="thinking">
          <summary>Thinking</summary>
          <p className="pre-wrap">{block.thinking}</p>
        </details>
      );
    default:
      return null;
  }
}
