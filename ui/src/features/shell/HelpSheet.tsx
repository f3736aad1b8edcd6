// The help sheet (`?` when not typing): every keyboard shortcut of the app, with the keys of this
// system (Ctrl and Alt, or ⌘ and ⌥ on macOS).
import { useId, useRef } from "react";
import { Modal } from "./Modal";
import { isMac } from "./shortcuts";

export interface Shortcut {
  keys: string[][];
  does: string;
}

/** The shortcuts listed, in order; `keys`: one or more combinations, each a list of keys. */
export function shortcutList(mac = isMac()): Shortcut[] {
  const mod = mac ? "⌘" : "Ctrl";
  const alt = mac ? "⌥" : "Alt";
  return [
    { keys: [[mod, "K"]], does: "Open the command palette: go to an area, start a new spec, open a spec, switch connection" },
    { keys: [["?"]], does: "Show these shortcuts (when not typing in a field)" },
    { keys: [[alt, "←"]], does: "Go back" },
    { keys: [[alt, "→"]], does: "Go forward" },
    { keys: [[mod, "Enter"]], does: "Send the spec described in the composer" },
    { keys: [["Enter"]], does: "Send a chat message in the Gateway" },
    { keys: [["Shift", "Enter"]], does: "Start a new line in a chat message" },
    { keys: [["↑"], ["↓"]], does: "Move through the command palette's list" },
    { keys: [["Esc"]], does: "Close the palette or this sheet" },
  ];
}

/** "Ctrl+K" as the sheet writes it (tests, and the text a screen reader reads). */
export function keysText(keys: string[][]): string {
  return keys.map((combo) => combo.join("+")).join(" or ");
}

export function HelpSheet({ onClose }: { onClose: () => void }) {
  const id = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={`${id}-title`} className="help-sheet" onClose={onClose} initialFocus={closeRef}>
      <div className="help-head">
        <h2 id={`${id}-title`}>Keyboard shortcuts</h2>
        <button ref={closeRef} className="btn" type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="shortcut-list">
        {shortcutList().map((s) => (
          <div key={s.does} className="shortcut">
            <dt>
              {s.keys.map((combo, i) => (
                <span key={combo.join("+")}>
                  {i > 0 && <span className="muted"> or </span>}
                  {combo.map((k, j) => (
                    <span key={k}>
                      {j > 0 && "+"}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </span>
              ))}
            </dt>
            <dd>{s.does}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
