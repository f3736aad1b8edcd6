// A `tool_use` block as a card: the tool's name and input, and a form to answer it with a
// `tool_result` (sent as the next user turn).
import { useId, useState } from "react";

export function ToolUseCard({ id, name, input, answered, onAnswer, disabled }: { id: string; name: string; input: unknown; answered: boolean; onAnswer: (result: string, isError: boolean) => void; disabled: boolean }) {
  const [result, setResult] = useState("");
  const [isError, setIsError] = useState(false);
  const fieldId = useId();
  return (
    <section className="tool-card" aria-label={`Tool call ${name}`}>
      <header className="row">
        <span className="badge tone-badge" data-tone="info">
          Tool call
        </span>
        <strong className="mono">{name}</strong>
        <span className="muted mono tool-id">{id}</span>
      </header>
      <pre className="tool-input">{JSON.stringify(input, null, 2)}</pre>
      {answered ? (
        <p className="muted">Answered.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (result.trim()) onAnswer(result, isError);
          }}
        >
          <div className="field">
            <label htmlFor={fieldId}>Result for {name}</label>
            <textarea id={fieldId} className="textarea" rows={3} value={result} onChange={(e) => setResult(e.target.value)} placeholder='{"temperature": 21}' />
          </div>
          <div className="row">
            <label className="check">
              <input type="checkbox" checked={isError} onChange={(e) => setIsError(e.target.checked)} /> The tool failed
            </label>
            <button className="btn btn-primary" type="submit" disabled={disabled || !result.trim()}>
              Send result
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
