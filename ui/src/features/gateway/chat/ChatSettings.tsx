// The chat's settings beside the thread: model, system prompt, temperature, max tokens, tool
// definitions (a JSON editor checked as you type) and the models to compare with.
import { memo, useCallback } from "react";
import { ModelPicker } from "../models/ModelPicker";
import { checkTools, TOOLS_EXAMPLE } from "./tools";

export interface ChatForm {
  model: string;
  system: string;
  temperature: number;
  maxTokens: number;
  toolsText: string;
  compare: boolean;
  /** The other models of a compare (one or two). */
  compareWith: string[];
}

export const DEFAULT_FORM: ChatForm = { model: "", system: "", temperature: 1, maxTokens: 1024, toolsText: "", compare: false, compareWith: ["", ""] };

export function isChatForm(v: unknown): v is ChatForm {
  return !!v && typeof v === "object" && "model" in v && "maxTokens" in v && "compareWith" in v && Array.isArray((v as ChatForm).compareWith);
}

export const ChatSettings = memo(function ChatSettings({ form, onChange }: { form: ChatForm; onChange: (patch: Partial<ChatForm>) => void }) {
  const tools = checkTools(form.toolsText);
  const setModel = useCallback((model: string) => onChange({ model }), [onChange]);
  const setOther = (i: number) => (id: string) => onChange({ compareWith: form.compareWith.map((m, j) => (j === i ? id : m)) });
  return (
    <section className="chat-settings" aria-labelledby="chat-settings-title">
      <h2 id="chat-settings-title">Settings</h2>
      <ModelPicker label="Model" kind="text" value={form.model} onChange={setModel} />
      <div className="field">
        <label htmlFor="chat-system">System prompt</label>
        <textarea id="chat-system" className="textarea" rows={3} value={form.system} onChange={(e) => onChange({ system: e.target.value })} placeholder="You are a concise product designer." />
      </div>
      <div className="row settings-numbers">
        <div className="field">
          <label htmlFor="chat-temperature">Temperature</label>
          <input id="chat-temperature" className="input" type="number" min={0} max={2} step={0.1} value={form.temperature} onChange={(e) => onChange({ temperature: clamp(Number(e.target.value), 0, 2) })} />
        </div>
        <div className="field">
          <label htmlFor="chat-max-tokens">Max tokens</label>
          <input id="chat-max-tokens" className="input" type="number" min={1} max={64000} step={1} value={form.maxTokens} onChange={(e) => onChange({ maxTokens: Math.round(clamp(Number(e.target.value), 1, 64000)) })} />
        </div>
      </div>
      <details className="tools-editor" open={!!form.toolsText}>
        <summary>Tools {tools.tools.length ? `(${tools.tools.length})` : ""}</summary>
        <div className="field">
          <label htmlFor="chat-tools">Tool definitions (JSON)</label>
          <textarea
            id="chat-tools"
            className="textarea mono"
            rows={8}
            spellCheck={false}
            value={form.toolsText}
            onChange={(e) => onChange({ toolsText: e.target.value })}
            aria-invalid={tools.problems.length > 0}
            aria-describedby="chat-tools-check"
            placeholder={TOOLS_EXAMPLE}
          />
          <div id="chat-tools-check" aria-live="polite">
            {tools.problems.length > 0 ? (
              <ul className="error-text problems">
                {tools.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : (
              <span className="hint">{tools.tools.length ? `${tools.tools.length} ${tools.tools.length === 1 ? "tool" : "tools"} ready: ${tools.tools.map((t) => t.name).join(", ")}.` : "A JSON array of {name, description, input_schema}."}</span>
            )}
          </div>
          {!form.toolsText && (
            <button className="btn btn-small" type="button" onClick={() => onChange({ toolsText: TOOLS_EXAMPLE })}>
              Insert an example
            </button>
          )}
        </div>
      </details>
      <div className="compare-settings">
        <label className="check">
          <input type="checkbox" checked={form.compare} onChange={(e) => onChange({ compare: e.target.checked })} /> Compare models side by side
        </label>
        {form.compare && (
          <>
            <ModelPicker label="Compare with" kind="text" value={form.compareWith[0] ?? ""} onChange={setOther(0)} exclude={[form.model]} autoSelect={false} />
            <ModelPicker label="And with (optional)" kind="text" value={form.compareWith[1] ?? ""} onChange={setOther(1)} exclude={[form.model, form.compareWith[0] ?? ""]} autoSelect={false} />
          </>
        )}
      </div>
    </section>
  );
});

function clamp(n: number, lo: number, hi: number): number {
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : lo;
}

/** The models a compare sends to: the main one and the chosen others, each once. */
export function compareModels(form: ChatForm): string[] {
  return [...new Set([form.model, ...form.compareWith].filter(Boolean))].slice(0, 3);
}
