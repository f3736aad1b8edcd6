// The mock IPC's in-memory state: its shape, the constants the handlers share, and small helpers.
import type { AppInfo, Batch, BrowserTask, ChatWinner, Conversation, ConversationMessage, CreditEntry, Job, MediaItem, ProfileView, Settings } from "../ipc/contract";
import type { Activity } from "../bindings/Activity";
import type { PlanPoint } from "../bindings/PlanPoint";
import type { PlanResponse } from "../bindings/PlanResponse";
import type { RecentProject } from "../bindings/RecentProject";
import type { SpecStatusResponse } from "../bindings/SpecStatusResponse";


/** The two markdown documents of a spec. */
export interface SpecDocs {
  human: string;
  codingAgent: string;
}

/** The page's mutable state. Scenarios change it in `setup(db)`. */
export interface MockDb {
  appInfo: AppInfo;
  /** Every profile, the Sandbox first; `active` is derived from `settings.activeProfileId`. */
  profiles: ProfileView[];
  settings: Settings;
  /** Balance per profile id. */
  credits: Record<string, number>;
  ledger: CreditEntry[];
  jobs: Job[];
  /** Full spec-status answers, newest first (markdown kept apart in `docs`). */
  specs: SpecStatusResponse[];
  docs: Record<string, SpecDocs>;
  /** Plans by project id. */
  plans: Record<string, { response: PlanResponse; history: PlanPoint[] }>;
  /** Projects whose plan was opened, per profile id, most recent first (as the library keeps them). */
  recentProjects: RecentProject[];
  batches: Batch[];
  /** The tasks of batches still processing, by batch id. */
  batchTasks: Record<string, BrowserTask[]>;
  media: MediaItem[];
  conversations: Conversation[];
  /** Ids of conversations deleted and kept for their Undo (out of every list). */
  deletedConversations: number[];
  messages: ConversationMessage[];
  /** The branches kept per conversation id (the chat studio's tree, as it sent it). */
  conversationTrees: Record<number, unknown>;
  chatWinners: ChatWinner[];
  /** What a file or folder dialog answers (`null`: the user cancelled); `choose_file` too. */
  dialog: { open: string | string[] | null; save: string | null };
  /** The system clipboard the copy commands write (`null`: out of reach, they reject). */
  clipboard: { text: string } | null;
  /** What read_text_file finds at a path the dialog returned. */
  textFiles: Record<string, string>;
  /** The batch builder's draft input values as the keychain keeps them, by input id. */
  draftValues: Record<string, string>;
  /** The keychain refuses every call (a scenario's; a test unlocks it by setting it false). */
  keychainLocked?: boolean;
  /** When set, the service cannot be reached and every model catalog is the copy kept then. */
  catalogsKeptAt?: string;
  /** The `specdesk://` link the app was launched with (`take_deep_link`, once). */
  launchLink?: string;
  /** What `activity` lists (the work running and recently ended); none when absent. */
  activity?: Activity[];
  /** Fake clock (ms since epoch); `now()` advances it one second per read. */
  clock: number;
  seq: number;
}

export const SANDBOX_ID = "sandbox";
export const SANDBOX_URL = "http://127.0.0.1:8787";
export const ROTATION_NOTICE =
  "Your new key is saved. If you replaced the old key on the service, the old key keeps working for 15 minutes, then stops.";
export const NOT_FOUND =
  "The service could not find that. It may have been deleted, or it belongs to another account.";
export const NO_PROJECT_YET =
  "This spec has no project yet. Wait until the spec is completed, then open its plan again.";
export const MISSING_KEY = "The service needs an API key for this. Add your key in Settings, then try again.";

export function now(db: MockDb): string {
  db.clock += 1000;
  return new Date(db.clock).toISOString();
}

export function nextId(db: MockDb): number {
  db.seq += 1;
  return db.seq;
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** `••••` and the last four characters (fewer for a short key), as crates/core masks a key. */
export function maskedTail(key: string): string {
  const chars = [...key];
  const shown = chars.length >= 12 ? 4 : Math.floor(chars.length / 4);
  return `••••${chars.slice(chars.length - shown).join("")}`;
}

