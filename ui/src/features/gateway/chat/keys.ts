// The composer's keys: Enter sends, Shift+Enter is a new line, and Enter never sends while an
// input method (Japanese, Chinese, Korean…) is composing: that Enter confirms the composition.

export interface SendKeyEvent {
  key: string;
  shiftKey: boolean;
  /** `KeyboardEvent.isComposing` (React: `e.nativeEvent.isComposing`). */
  isComposing?: boolean;
  /** 229 while an IME has the key (WebKit reports it where `isComposing` is not set). */
  keyCode?: number;
}

/** Whether this key press sends the message. */
export function isSendKey(e: SendKeyEvent): boolean {
  if (e.key !== "Enter" || e.shiftKey) return false;
  if (e.isComposing || e.keyCode === 229) return false;
  return true;
}
