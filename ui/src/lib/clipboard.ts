// Copying text for the user. The clipboard is written from Rust (a command): WebKit, the app's web
// view, drops a click's permission to write the clipboard across an await, so the web view's own
// clipboard API cannot be relied on. Documents are copied by their own commands
// (`copy_spec_markdown`, `copy_plan_markdown`), so their markdown never makes the round trip.
import { call } from "../ipc/invoke";

/** Puts `text` on the clipboard; rejects with the command's plain IpcError naming the way out. */
export async function copyText(text: string): Promise<void> {
  await call("copy_text", { text });
}
