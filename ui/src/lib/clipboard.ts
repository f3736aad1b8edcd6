// Copying text for the user, with the one plain error every screen shows when the clipboard is out
// of reach.
import { CommandError } from "../ipc/invoke";

/** Puts `text` on the clipboard; rejects with a plain IpcError naming the way out (`fallback`). */
export async function copyText(text: string, fallback = "Use “Download .md” instead."): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    throw new CommandError({ kind: "internal", message: `Specdesk could not reach the clipboard. ${fallback}` });
  }
}
