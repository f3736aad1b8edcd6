// "Open by project id…": a secondary action on the Plans home, a disclosure button that shows the
// id form, checked before the plan is asked for.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { PlanTarget } from "../../ipc/contract";
import { checkHexId } from "./target";

function ProjectIdForm({ id, onOpen }: { id: string; onOpen: (t: PlanTarget) => void }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = checkHexId(value);
    setError(problem);
    if (!problem) onOpen({ projectId: value.trim().toLowerCase() });
  };
  return (
    <form id={id} className="open-plan" onSubmit={submit} noValidate aria-label="Open a plan by project id">
      <div className="field">
        <label htmlFor={`${id}-pid`}>Project id</label>
        <div className="row">
          <input
            ref={input}
            id={`${id}-pid`}
            className="input mono pid-input"
            value={value}
            spellCheck={false}
            autoComplete="off"
            placeholder="24 characters, 0–9 and a–f"
            onChange={(e) => {
              setValue(e.target.value);
              if (error) setError(null);
            }}
            aria-invalid={!!error}
            aria-describedby={error ? `${id}-pid-error` : `${id}-pid-hint`}
          />
          <button className="btn btn-primary" type="submit">
            Open plan
          </button>
        </div>
        {error ? (
          <span className="error-text" id={`${id}-pid-error`} role="alert">
            {error}
          </span>
        ) : (
          <span className="hint" id={`${id}-pid-hint`}>
            The project id is on the project's page on the service.
          </span>
        )}
      </div>
    </form>
  );
}

export function OpenByProject({ onOpen }: { onOpen: (t: PlanTarget) => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="open-by-id">
      <button className="btn btn-ghost" type="button" aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen((o) => !o)}>
        Open by project id…
      </button>
      {open && <ProjectIdForm id={id} onOpen={onOpen} />}
    </div>
  );
}
