// The library's search box: plain text searched as the user types (after a pause of
// SEARCH_DELAY_MS; Enter searches at once), or, with "Pattern", a regular expression checked
// before it is sent. Each keystroke (once an IME's composition has ended) is also handed over at
// once, for the specs kept on this computer to answer it before the service does. It marks each
// keystroke and each search run for the timing of the search as you type (./searchTiming.ts).
import { useRef, useState, type FormEvent } from "react";
import { checkPattern } from "../libraryFilters";
import { markKeystroke, markSearchRun } from "./searchTiming";
import { useDebouncedCallback } from "./useDebouncedCallback";

/** The pause in typing after which the search runs. */
export const SEARCH_DELAY_MS = 250;

interface Props {
  /** Prefix of the element ids. */
  id: string;
  /** The search in use. */
  search: string;
  pattern: boolean;
  /** A search to run (trimmed text; `pattern` says how to read it). */
  onSearch: (search: string, pattern: boolean) => void;
  /** The text in the box now (trimmed), at each keystroke; null while it is not a usable pattern. */
  onTyped: (typed: TypedSearch | null) => void;
  /** The service (or the search of the specs kept on this computer) refused the pattern. */
  refused: string | null;
}

export interface TypedSearch {
  search: string;
  pattern: boolean;
}

export function SearchBox({ id, search, pattern, onSearch, onTyped, refused }: Props) {
  const [text, setText] = useState(search);
  const [asPattern, setAsPattern] = useState(pattern);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const composing = useRef(false);
  // The search in use can change without the box (the address: Back, Forward, a hash typed in):
  // the box then shows it. A change the box made itself already matches what it holds, so the
  // text being typed is never overwritten (nor trimmed under the caret).
  const [inUse, setInUse] = useState({ search, pattern });
  if (inUse.search !== search || inUse.pattern !== pattern) {
    setInUse({ search, pattern });
    if (search !== text.trim()) {
      setText(search);
      setProblem(null);
    }
    if (pattern !== asPattern) setAsPattern(pattern);
  }

  /** Hands the box's text over for the answer from this computer. */
  const handOver = (raw: string, regex: boolean) => {
    onTyped(regex && checkPattern(raw) ? null : { search: raw.trim(), pattern: regex });
  };

  /** Runs the search; `typed`: it follows keystrokes (the pause in typing, or Enter). */
  const run = (raw: string, regex: boolean, typed: boolean) => {
    const p = regex ? checkPattern(raw) : null;
    setProblem(p);
    if (p) return;
    if (raw.trim() !== search || regex !== pattern) markSearchRun(raw.trim(), regex, typed);
    onSearch(raw.trim(), regex);
  };
  const later = useDebouncedCallback((raw: string, regex: boolean) => run(raw, regex, true), SEARCH_DELAY_MS);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    later.cancel();
    markKeystroke(text, e.nativeEvent.timeStamp);
    run(text, asPattern, true);
  };

  const shownError = problem ?? refused;
  const describedBy = `${id}-search-hint${shownError ? ` ${id}-search-error` : ""}`;

  return (
    <form className="lib-search" role="search" aria-label="Specs" onSubmit={submit} noValidate>
      <div className="field grow">
        <label htmlFor={`${id}-search`}>Search descriptions</label>
        <div className="row">
          <input
            ref={input}
            id={`${id}-search`}
            className="input grow"
            type="search"
            value={text}
            onChange={(e) => {
              markKeystroke(e.target.value, e.nativeEvent.timeStamp);
              setText(e.target.value);
              setProblem(null);
              later.schedule(e.target.value, asPattern);
              // An IME's text is handed over when its composition ends.
              if (!composing.current && !(e.nativeEvent as InputEvent).isComposing) handOver(e.target.value, asPattern);
            }}
            onCompositionStart={() => {
              composing.current = true;
            }}
            onCompositionEnd={(e) => {
              composing.current = false;
              markKeystroke(e.currentTarget.value, e.nativeEvent.timeStamp);
              handOver(e.currentTarget.value, asPattern);
            }}
            aria-invalid={!!shownError}
            aria-describedby={describedBy}
            autoComplete="off"
            spellCheck={false}
          />
          {(text !== "" || search !== "") && (
            <button
              className="btn btn-ghost"
              type="button"
              onClick={() => {
                setText("");
                later.cancel();
                handOver("", asPattern);
                run("", asPattern, false);
                input.current?.focus();
              }}
            >
              Clear search
            </button>
          )}
        </div>
        <label className="lib-check">
          <input
            type="checkbox"
            checked={asPattern}
            onChange={(e) => {
              setAsPattern(e.target.checked);
              later.cancel();
              handOver(text, e.target.checked);
              run(text, e.target.checked, false);
            }}
            aria-describedby={`${id}-search-hint`}
          />
          Pattern
        </label>
        <span className="hint" id={`${id}-search-hint`}>
          {asPattern
            ? "A regular expression on the description, ignoring case: recipe|meal finds either word."
            : "Finds the text as you type it, anywhere in the description, ignoring case."}
        </span>
        {shownError && (
          <span className="error-text" id={`${id}-search-error`} role="alert">
            {shownError}
          </span>
        )}
      </div>
    </form>
  );
}
