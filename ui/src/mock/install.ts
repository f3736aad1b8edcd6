// Installs the mock IPC for the screen tests. Imported only by main.tsx in the mock build
// (`vite build --mode mock`); see ./registry.ts for how scenarios are written.
import { Channel } from "@tauri-apps/api/core";
import { mockIPC, mockWindows } from "@tauri-apps/api/mocks";
import type { AppEvents, CommandName } from "../ipc/contract";
import { baseHandlers, createDb, type MockDb } from "./base";
import { getScenario, ipcError, scenarioNames, type ChannelSender, type Handler, type MockContext } from "./registry";
import { finishedTracker } from "./jobFinished";

// Every file in ./scenarios registers its scenarios when loaded: nothing to list by hand.
import.meta.glob(["./scenarios/*.ts", "!./scenarios/*.test.ts"], { eager: true });

interface TauriInternals {
  runCallback: (id: number, data: unknown) => void;
}

/** What a test reaches through `window.__SPECDESK_MOCK__` (page.evaluate). */
export interface MockControl {
  scenario: string;
  db: MockDb;
  /** Every command invoked (event-plugin calls aside), args as JSON (a Channel is `__CHANNEL__:<id>`). */
  calls: { cmd: string; args: unknown }[];
  /** Commands no handler answered (they rejected with an `internal` IpcError). */
  unhandled: string[];
  emit<E extends keyof AppEvents>(event: E, payload: AppEvents[E]): void;
  /** Resolves `ctx.gate(name)` (now, or as soon as a handler asks for it). */
  release(name: string): void;
  /** Sends to the open channel of the latest call of `command`; false when there is none. */
  send(command: CommandName, message: unknown): boolean;
  /** Ends the open channel of the latest call of `command`. */
  end(command: CommandName): boolean;
  /** Event names with at least one listener. */
  listening(): string[];
}

declare global {
  interface Window {
    __SPECDESK_MOCK__?: MockControl;
  }
}

function internals(): TauriInternals {
  return (window as unknown as { __TAURI_INTERNALS__: TauriInternals }).__TAURI_INTERNALS__;
}

/** The callback id of a Channel argument (as passed, or serialized as `__CHANNEL__:<id>`). */
function argChannelId(value: unknown): number | null {
  if (value instanceof Channel) return value.id;
  if (typeof value === "string" && value.startsWith("__CHANNEL__:")) return Number(value.slice("__CHANNEL__:".length));
  return null;
}

function channelId(value: unknown): number | null {
  const id = argChannelId(value);
  if (id !== null) return id;
  if (value && typeof value === "object" && "id" in value && typeof value.id === "number") return value.id;
  return null;
}

const THEMES = ["system", "light", "dark"] as const;

/**
 * Installs the mock for the scenario named by `?scenario=` in `search` (default "default").
 * `&theme=light|dark|system` overrides the theme of the settings (after the scenario's setup).
 */
export function installMock(search: string): MockControl {
  const params = new URLSearchParams(search);
  const name = params.get("scenario") || "default";
  const scenario = getScenario(name);
  if (!scenario) {
    throw new Error(`Unknown mock scenario "${name}". Known scenarios: ${scenarioNames().join(", ")}.`);
  }
  const db = createDb();
  scenario.setup?.(db);
  const theme = THEMES.find((t) => t === params.get("theme"));
  if (theme) db.settings.theme = theme;

  const listeners = new Map<string, Set<number>>();
  const senders = new Map<number, ChannelSender<unknown>>();
  const latest = new Map<string, ChannelSender<unknown>>();
  const gates = new Map<string, { promise: Promise<void>; resolve: () => void }>();

  const gateOf = (gate: string) => {
    let g = gates.get(gate);
    if (!g) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => {
        resolve = r;
      });
      g = { promise, resolve };
      gates.set(gate, g);
    }
    return g;
  };

  // As Rust does (core::job_changes): a job's request goes with its first `job-changed` only, and
  // again when it changed.
  const toldRequests = new Map<number, string>();
  const slimJobChange = (payload: unknown): unknown => {
    if (!payload || typeof payload !== "object" || !("id" in payload) || !("request" in payload)) return payload;
    const { id, request } = payload as { id: number; request: unknown };
    const text = JSON.stringify(request);
    const before = toldRequests.get(id);
    toldRequests.set(id, text);
    if (before !== text) return payload;
    const slim: Record<string, unknown> = { ...payload };
    delete slim.request;
    return slim;
  };

  const finished = finishedTracker();
  const emit = (event: string, payload: unknown) => {
    const sent = event === "job-changed" ? slimJobChange(payload) : payload;
    for (const id of [...(listeners.get(event) ?? [])]) {
      internals().runCallback(id, { event, id, payload: sent });
    }
    const ended = event === "job-changed" ? finished(payload) : null;
    if (ended) emit("job-finished", ended);
  };

  const channel = <T>(value: unknown): ChannelSender<T> => {
    const id = channelId(value);
    if (id === null) throw new Error("mock: this argument is not a Channel");
    return senderFor<T>(id);
  };

  const senderFor = <T>(id: number): ChannelSender<T> => {
    const existing = senders.get(id);
    if (existing) return existing as ChannelSender<T>;
    let index = 0;
    let ended = false;
    const sender: ChannelSender<T> = {
      id,
      get ended() {
        return ended;
      },
      // Tauri 2 delivers `{ message, index }`, and `{ end: true, index }` when Rust drops the
      // channel (core.js `Channel` orders by index and unregisters itself at the end).
      send(message: T) {
        if (ended) return;
        internals().runCallback(id, { message, index });
        index += 1;
      },
      end() {
        if (ended) return;
        ended = true;
        internals().runCallback(id, { end: true, index });
      },
    };
    senders.set(id, sender as ChannelSender<unknown>);
    return sender;
  };

  const ctx: MockContext = {
    scenario: name,
    db,
    emit,
    channel,
    gate: (gate) => gateOf(gate).promise,
  };

  const control: MockControl = {
    scenario: name,
    db,
    calls: [],
    unhandled: [],
    emit,
    release: (gate) => gateOf(gate).resolve(),
    send(command, message) {
      const s = latest.get(command);
      if (!s || s.ended) return false;
      s.send(message);
      return true;
    },
    end(command) {
      const s = latest.get(command);
      if (!s || s.ended) return false;
      s.end();
      return true;
    },
    listening: () => [...listeners].filter(([, ids]) => ids.size > 0).map(([event]) => event),
  };

  const eventPlugin = (cmd: string, args: Record<string, unknown>): unknown => {
    const event = String(args.event);
    switch (cmd) {
      case "plugin:event|listen": {
        const handler = Number(args.handler);
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)?.add(handler);
        return handler;
      }
      case "plugin:event|unlisten":
        listeners.get(event)?.delete(Number(args.eventId));
        return null;
      case "plugin:event|emit":
      case "plugin:event|emit_to":
        emit(event, args.payload);
        return null;
      default:
        throw ipcError("internal", `The mock has no answer for "${cmd}".`);
    }
  };

  mockWindows("main");
  mockIPC(async (cmd, rawArgs) => {
    const args = (rawArgs ?? {}) as Record<string, unknown>;
    if (cmd.startsWith("plugin:event|")) return eventPlugin(cmd, args);
    control.calls.push({ cmd, args: JSON.parse(JSON.stringify(args)) as unknown });
    // Never answer inside the caller's own call stack: Tauri's IPC is always asynchronous.
    await Promise.resolve();
    if (cmd === "plugin:dialog|open") return db.dialog.open;
    if (cmd === "plugin:dialog|save") return db.dialog.save;

    const handler = (scenario.handlers[cmd as CommandName] ?? baseHandlers[cmd as CommandName]) as
      | Handler<CommandName>
      | undefined;
    if (!handler) {
      control.unhandled.push(cmd);
      throw ipcError("internal", `The mock has no answer for "${cmd}".`);
    }
    const channels = Object.values(args)
      .map(argChannelId)
      .filter((id): id is number => id !== null)
      .map((id) => senderFor<unknown>(id));
    for (const s of channels) latest.set(cmd, s);
    try {
      return await handler(args as never, ctx);
    } finally {
      // Rust drops a command's channels when the command returns.
      for (const s of channels) s.end();
    }
  });

  window.__SPECDESK_MOCK__ = control;
  return control;
}
