// Renaming a spec in place: an input with the current title; Enter keeps it, Escape leaves it as
// it was (so does leaving the field with nothing changed). An empty title removes the local one.
import { useEffect, useRef, useState } from "react";
import { MAX_TITLE_LENGTH } from "./titles";

interface Props {
  id: string;
  initial: string;
  onSave: (title: string) => void;
  onCancel: () => void;
}

export function TitleEditor({ id, initial, onSave, onCancel }: Props) {
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  // Enter or Escape ended the edit: the blur that follows must not end it a second time.
  const ended = useRef(false);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const end = (save: boolean) => {
    if (ended.current) return;
    ended.current = true;
    if (save) onSave(value);
    else onCancel();
  };

  return (
    <div className="lib-rename">
      <label className="visually-hidden" htmlFor={`${id}-title`}>
        Title
      </label>
      <input
        ref={input}
        id={`${id}-title`}
        className="input"
        type="text"
        value={value}
        maxLength={MAX_TITLE_LENGTH}
        placeholder="A short name for this spec"
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.nativeEvent.isComposing) return;
          if (e.key === "Enter") {
            e.preventDefault();
            end(true);
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            end(false);
          }
        }}
        onBlur={() => end(value !== initial)}
        aria-describedby={`${id}-title-hint`}
      />
      <span className="hint-inline muted" id={`${id}-title-hint`}>
        Enter saves, Escape cancels. Kept on this computer only.
      </span>
    </div>
  );
}
