// One task's details, under its line of the table: input names and values (values masked, shown
// on demand, never kept), the output JSON Schema with starters and a live parse, the success
// condition, the limits and the mode.
import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { newId, parsedOutput, type Cell, type InputPair, type TaskRow } from "./model";
import type { RowProblems } from "./checks";
import { STARTER_SCHEMAS, starterText } from "./schemas";
import { cellId, errorId } from "./ids";

export const VALUES_KEPT = "Values are kept in your system keychain, never in Specdesk's files or exports.";

function FieldError({ rowId, cell, problems }: { rowId: string; cell: Cell; problems: RowProblems }) {
  const message = problems[cell];
  if (!message) return null;
  return (
    <span className="error-text" id={errorId(rowId, cell)}>
      {message}
    </span>
  );
}

/**
 * An input value (a secret): masked unless shown, and set through the element's `value` property
 * only, so it never appears in the page's markup (React would mirror a controlled value into the
 * `value` attribute).
 */
function SecretInput({
  value,
  visible,
  label,
  describedBy,
  onValue,
}: {
  value: string;
  visible: boolean;
  label: string;
  describedBy: string;
  onValue: (v: string) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el && el.value !== value) el.value = value;
  }, [value]);
  return (
    <input
      ref={ref}
      className="input mono"
      type={visible ? "text" : "password"}
      placeholder="value"
      aria-label={label}
      aria-describedby={describedBy}
      onChange={(e) => onValue(e.target.value)}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

/** What the schema box holds, in a few words (the error itself is the field's error). */
function schemaStatus(text: string): string | null {
  if (!text.trim()) return "No schema: the task returns what it finds, unchecked.";
  const v = parsedOutput(text);
  if (v === undefined) return null;
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const props = v.properties;
    const names = props && typeof props === "object" && !Array.isArray(props) ? Object.keys(props) : [];
    return names.length > 0 ? `Parses as JSON: an object with ${names.join(", ")}.` : "Parses as JSON.";
  }
  return null;
}

export function TaskDetails({
  row,
  index,
  problems,
  onChange,
}: {
  row: TaskRow;
  index: number;
  problems: RowProblems;
  onChange: (patch: Partial<TaskRow>) => void;
}) {
  const n = index + 1;
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const describedBy = (cell: Cell, hint?: string) =>
    [hint, problems[cell] ? errorId(row.id, cell) : undefined].filter(Boolean).join(" ") || undefined;
  const setPair = (id: string, patch: Partial<InputPair>) =>
    onChange({ inputs: row.inputs.map((p) => (p.id === id ? { ...p, ...patch } : p)) });
  const toggle = (id: string) =>
    setShown((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const text = (cell: "successCondition" | "timeoutMs" | "maxSteps" | "maxDurationSeconds" | "mode", label: string, extra: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div className="field">
      <label htmlFor={cellId(row.id, cell)}>{label}</label>
      <input
        id={cellId(row.id, cell)}
        className="input"
        value={row[cell]}
        onChange={(e) => onChange({ [cell]: e.target.value })}
        aria-invalid={!!problems[cell]}
        aria-describedby={describedBy(cell)}
        {...extra}
      />
      <FieldError rowId={row.id} cell={cell} problems={problems} />
    </div>
  );
  const number: InputHTMLAttributes<HTMLInputElement> = { inputMode: "numeric", autoComplete: "off" };
  const status = schemaStatus(row.output);

  return (
    <div className="task-details" role="group" aria-label={`Task ${n} details`}>
      <div className="details-col">
      <fieldset className="task-inputs">
        <legend>Input values (optional)</legend>
        <p className="hint" id={`${row.id}-inputs-hint`}>
          Form values, credentials or queries the task may type. {VALUES_KEPT}
        </p>
        {row.inputs.length > 0 && (
          <ul className="input-pairs">
            {row.inputs.map((p, k) => {
              const visible = shown.has(p.id);
              return (
                <li key={p.id} className="input-pair">
                  <input
                    id={k === 0 ? cellId(row.id, "input") : undefined}
                    className="input"
                    value={p.name}
                    placeholder="name"
                    aria-label={`Task ${n} input ${k + 1} name`}
                    onChange={(e) => setPair(p.id, { name: e.target.value })}
                    aria-invalid={!!problems.input}
                    aria-describedby={describedBy("input")}
                    autoComplete="off"
                    spellCheck={false}
                  />
                  <SecretInput
                    value={p.value}
                    visible={visible}
                    label={`Task ${n} input ${k + 1} value`}
                    describedBy={`${row.id}-inputs-hint`}
                    onValue={(value) => setPair(p.id, { value })}
                  />
                  <button
                    className="btn btn-ghost btn-small"
                    type="button"
                    aria-pressed={visible}
                    aria-label={`${visible ? "Hide" : "Show"} the value of task ${n} input ${k + 1}`}
                    onClick={() => toggle(p.id)}
                  >
                    {visible ? "Hide" : "Show"}
                  </button>
                  <button
                    className="btn btn-ghost btn-small"
                    type="button"
                    aria-label={`Remove task ${n} input ${k + 1}`}
                    onClick={() => onChange({ inputs: row.inputs.filter((x) => x.id !== p.id) })}
                  >
                    Remove
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <button
          id={row.inputs.length === 0 ? cellId(row.id, "input") : undefined}
          className="btn"
          type="button"
          onClick={() => onChange({ inputs: [...row.inputs, { id: newId("i"), name: "", value: "" }] })}
        >
          Add an input
        </button>
        <FieldError rowId={row.id} cell="input" problems={problems} />
      </fieldset>
      {text("successCondition", "Success condition (optional)", { placeholder: "The page shows “Order confirmed”" })}
      </div>

      <div className="field task-schema">
        <label htmlFor={cellId(row.id, "output")}>Output JSON Schema (optional)</label>
        <div className="row starter-row" role="group" aria-label={`Starter schemas for task ${n}`}>
          <span className="hint">Start from:</span>
          {STARTER_SCHEMAS.map((s) => (
            <button key={s.id} className="btn btn-small" type="button" onClick={() => onChange({ output: starterText(s.id) })}>
              {s.label}
            </button>
          ))}
        </div>
        <textarea
          id={cellId(row.id, "output")}
          className="textarea mono schema-box"
          rows={row.output ? Math.min(10, row.output.split("\n").length + 1) : 3}
          value={row.output}
          placeholder='{"type": "object", "properties": {…}}'
          onChange={(e) => onChange({ output: e.target.value })}
          aria-invalid={!!problems.output}
          aria-describedby={describedBy("output", status ? `${row.id}-schema-status` : undefined)}
          spellCheck={false}
        />
        {status && (
          <span className="hint" id={`${row.id}-schema-status`}>
            {status}
          </span>
        )}
        <FieldError rowId={row.id} cell="output" problems={problems} />
      </div>

      <div className="task-limits">
        {text("timeoutMs", "Time limit (ms)", { ...number, placeholder: "240000" })}
        {text("maxSteps", "Max steps", number)}
        {text("maxDurationSeconds", "Max duration (s)", number)}
        {text("mode", "Mode", { placeholder: "extract", autoComplete: "off" })}
      </div>
    </div>
  );
}
