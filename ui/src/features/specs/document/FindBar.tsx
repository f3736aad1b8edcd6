// The find bar of a document: the query, "3 of 12", Previous and Next. Enter goes to the next
// match, Shift+Enter to the previous one, Escape closes the bar.
import { useId, type RefObject } from "react";
import { statusText } from "./finder";
import type { DocumentFind } from "./useDocumentFind";

export function FindBar({ find, inputRef, docName }: { find: DocumentFind; inputRef: RefObject<HTMLInputElement | null>; docName: string }) {
  const id = useId();
  const text = statusText(find.query, find.status);
  const none = find.status.count === 0;
  return (
    <div
      role="search"
      className="find-bar"
      aria-label={`Find in the ${docName.toLowerCase()}`}
      onKeyDown={(e) => {
        if (e.key !== "Escape" || e.nativeEvent.isComposing) return;
        e.preventDefault();
        e.stopPropagation();
        find.close();
      }}
    >
      <label className="visually-hidden" htmlFor={`${id}-q`}>
        Find in the {docName.toLowerCase()}
      </label>
      <input
        ref={inputRef}
        id={`${id}-q`}
        className="input find-input"
        type="search"
        placeholder="Find in the document"
        autoComplete="off"
        spellCheck={false}
        value={find.query}
        aria-describedby={`${id}-count`}
        aria-invalid={find.query.trim() !== "" && none ? true : undefined}
        onChange={(e) => find.setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.nativeEvent.isComposing) return;
          if (e.key === "Enter") {
            e.preventDefault();
            if (e.shiftKey) find.previous();
            else find.next();
          }
        }}
      />
      <span id={`${id}-count`} className="find-count" role="status" aria-live="polite">
        {text}
      </span>
      <button className="btn btn-ghost" type="button" disabled={none} onClick={find.previous} aria-keyshortcuts="Shift+Enter">
        Previous
      </button>
      <button className="btn btn-ghost" type="button" disabled={none} onClick={find.next} aria-keyshortcuts="Enter">
        Next
      </button>
      <button className="btn btn-ghost" type="button" onClick={find.close} aria-keyshortcuts="Escape">
        Close
      </button>
    </div>
  );
}
