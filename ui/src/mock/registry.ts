/**
 * Mock IPC scenarios for the screen tests (ui/playwright). Only the mock bundle contains this
 * folder: main.tsx imports ./mock/install when `import.meta.env.MODE === "mock"`, i.e. in
 * `npm run build:mock` (`vite build --mode mock --outDir dist-mock`), never in `vite build`.
 *
 * A page picks its scenario with `?scenario=<name>` (default "default"). A scenario is a partial
 * map `command -> handler(args, ctx)` merged over the base answers of ./base.ts (every command of
 * ../ipc/contract.ts, on a realistic in-memory state: the built-in Sandbox profile active, 10000
 * credits...). A handler returns the command's result (or a Promise of it); to reject, it throws
 * an IpcError, e.g. `throw ipcError("notFound", "That spec no longer exists.")`.
 *
 * Add scenarios in a new file under ./scenarios/ (one file per area): every file there is loaded
 * by ./install.ts, nothing to register by hand.
 *
 * ```ts
 * import { defineScenario, ipcError } from "../registry";
 *
 * defineScenario("credits-broke", {
 *   credits_balance: () => {
 *     throw ipcError("insufficientCredits", "You have run out of credits.", {
 *       action: { label: "Top up", url: "https://example.com/topup" },
 *     });
 *   },
 * });
 *
 * defineScenario("welcome", {}, { setup: (db) => { db.appInfo.firstRun = true; } });
 * ```
 *
 * What a handler gets as `ctx` (MockContext):
 * - `ctx.db`: the page's mutable state (./base.ts `MockDb`); base handlers read and write it, so a
 *   scenario's `setup(db)` changes what every screen sees.
 * - `ctx.emit(event, payload)`: broadcasts an app event (`credits-changed`, `job-changed`...) to
 *   every `listen()` of the page.
 * - `ctx.channel(args.onEvent)`: the sending end of a Channel passed by a streaming command
 *   (`follow_job`, `watch_batch`, `chat_stream`); `.send(event)` delivers it to the Channel's
 *   `onmessage` exactly as Tauri does. Channels still open when the handler settles are ended.
 * - `ctx.gate(name)`: a Promise that resolves when the test calls
 *   `window.__SPECDESK_MOCK__.release(name)`, to hold a command (or a stream) at a chosen point.
 *
 * From a test (page.evaluate), `window.__SPECDESK_MOCK__` (MockControl in ./install.ts) offers
 * `emit`, `release`, `send(command, event)` (to the open channel of that command's latest call),
 * `calls` (every invoke with its args) and `unhandled` (commands no handler answered).
 */
import type { Channel } from "@tauri-apps/api/core";
import type { AppEvents, CommandName, Commands, IpcError, IpcErrorKind } from "../ipc/contract";
import type { MockDb } from "./state";

export type Args<C extends CommandName> = Commands[C]["args"];
export type Result<C extends CommandName> = Commands[C]["result"];

/** Answers one command: its result, a Promise of it, or a thrown IpcError. */
export type Handler<C extends CommandName> = (args: Args<C>, ctx: MockContext) => Result<C> | Promise<Result<C>>;

/** A partial command table of handlers. */
export type Handlers = { [C in CommandName]?: Handler<C> };

/** The sending end of a Channel, as the Rust side holds it. */
export interface ChannelSender<T> {
  readonly id: number;
  /** Delivers one message to the Channel's `onmessage` (in order). */
  send(message: T): void;
  /** Closes the channel (as Rust does when it drops it); later sends are ignored. */
  end(): void;
  readonly ended: boolean;
}

export interface MockContext {
  /** The scenario's name. */
  readonly scenario: string;
  /** The page's mutable state. */
  readonly db: MockDb;
  emit<E extends keyof AppEvents>(event: E, payload: AppEvents[E]): void;
  channel<T>(channel: Channel<T> | string | { id: number }): ChannelSender<T>;
  gate(name: string): Promise<void>;
}

export interface ScenarioOptions {
  /** One line for a reader of the test. */
  description?: string;
  /** Changes the initial state before the app starts. */
  setup?: (db: MockDb) => void;
}

export interface Scenario extends ScenarioOptions {
  name: string;
  handlers: Handlers;
}

const scenarios = new Map<string, Scenario>();

/** Registers a scenario (a name used twice is a mistake and throws). */
export function defineScenario(name: string, handlers: Handlers, options: ScenarioOptions = {}): Scenario {
  if (scenarios.has(name)) throw new Error(`mock scenario "${name}" is defined twice`);
  const scenario: Scenario = { name, handlers, ...options };
  scenarios.set(name, scenario);
  return scenario;
}

export function getScenario(name: string): Scenario | undefined {
  return scenarios.get(name);
}

export function scenarioNames(): string[] {
  return [...scenarios.keys()].sort();
}

/** An IpcError to throw from a handler. */
export function ipcError(kind: IpcErrorKind, message: string, extra: Omit<Partial<IpcError>, "kind" | "message"> = {}): IpcError {
  return { kind, message, ...extra };
}
