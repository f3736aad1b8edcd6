// Asks for the address of the user's running app; nothing is sent until it is an absolute
// http(s) address (the error sits under the field, which gets the focus).
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { checkAppUrl } from "./model";
import "./acceptance.css";

export function AppUrlPrompt({
  initialUrl = "",
  onSubmit,
  onCancel,
  submitLabel = "Prepare the tasks",
}: {
  initialUrl?: string;
  onSubmit: (url: string) => void;
  onCancel?: () => void;
  submitLabel?: string;
}) {
  const id = useId();
  const [url, setUrl] = useState(initialUrl);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = checkAppUrl(url);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    onSubmit(url.trim());
  };

  return (
    <form className="app-url-form" onSubmit={submit} noValidate aria-label="The app to check">
      <div className="field">
        <label htmlFor={`${id}-url`}>Address of your running app</label>
        <span className="hint" id={`${id}-hint`}>
          Where the app answers now, for example http://localhost:3000 or https://staging.example.com. Each acceptance criterion becomes a
          browser task that opens this address.
        </span>
        <input
          ref={input}
          id={`${id}-url`}
          className="input"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          value={url}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          onChange={(e) => {
            setUrl(e.target.value);
            if (error) setError(null);
          }}
        />
        {error && (
          <span className="error-text" id={`${id}-error`} role="alert">
            {error}
          </span>
        )}
      </div>
      <div className="row">
        <button className="btn btn-primary" type="submit">
          {submitLabel}
        </button>
        {onCancel && (
          <button className="btn btn-ghost" type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
