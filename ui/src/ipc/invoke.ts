// Typed calls to the Rust shell. Every command resolves with its contract type or throws a
// CommandError carrying the IpcError, never a bare string.
import { invoke } from "@tauri-apps/api/core";
import type { BytesHeaders, CommandName, Commands, IpcError } from "./contract";

export class CommandError extends Error {
  readonly ipc: IpcError;
  constructor(ipc: IpcError) {
    super(ipc.message);
    this.name = "CommandError";
    this.ipc = ipc;
  }
}

const FALLBACK =
  "Something went wrong inside Specdesk. Try again; if it keeps happening, restart the app.";

/** Turns whatever a failed invoke gave into an IpcError. */
export function toIpcError(e: unknown): IpcError {
  if (e instanceof CommandError) return e.ipc;
  if (e && typeof e === "object" && "kind" in e && "message" in e) {
    const { kind, message } = e as { kind: unknown; message: unknown };
    if (typeof kind === "string" && typeof message === "string") return e as IpcError;
  }
  if (typeof e === "string" && e.trim()) return { kind: "internal", message: e };
  return { kind: "internal", message: FALLBACK };
}

/** A command's call with JSON arguments (commands taking raw bytes go through `callBytes`). */
export async function call<C extends Exclude<CommandName, keyof BytesHeaders>>(
  command: C,
  ...args: Commands[C]["args"] extends Record<string, never> ? [] : [Commands[C]["args"]]
): Promise<Commands[C]["result"]> {
  try {
    return await invoke<Commands[C]["result"]>(command, args[0] ?? {});
  } catch (e) {
    throw new CommandError(toIpcError(e));
  }
}

/** A command whose IPC body is raw bytes (a recording), described by headers; no JSON round trip. */
export async function callBytes<C extends keyof BytesHeaders>(command: C, bytes: Uint8Array, headers: BytesHeaders[C]): Promise<Commands[C]["result"]> {
  try {
    return await invoke<Commands[C]["result"]>(command, bytes, { headers });
  } catch (e) {
    throw new CommandError(toIpcError(e));
  }
}
