// Scenarios of the app shell: first run, themes, settings, errors. Open one with ?scenario=<name>.
import type { StartProblem } from "../../bindings/StartProblem";
import { baseHandlers } from "../base";
import { defineScenario, ipcError } from "../registry";

export const TOP_UP_URL = "https://example.com/account/top-up";
export const BROKE_MESSAGE = "You have run out of credits. Top up your balance, then try again.";

defineScenario("default", {}, { description: "A fresh install on the Sandbox (base answers), light theme." });

defineScenario("welcome", {}, {
  description: "First run: the welcome screen, until it is dismissed.",
  setup: (db) => {
    db.appInfo.firstRun = true;
  },
});

/** Why the first "finish welcome" of scenario "welcome-unsaved" fails. */
export const WELCOME_UNSAVED = "Specdesk could not save its settings: the data folder is read-only.";
let welcomeTries = 0;

defineScenario(
  "welcome-unsaved",
  {
    finish_welcome: (args, ctx) => {
      welcomeTries += 1;
      if (welcomeTries === 1) throw ipcError("storage", WELCOME_UNSAVED);
      return baseHandlers.finish_welcome(args, ctx);
    },
  },
  {
    description: "First run whose first dismissal of the welcome cannot be saved (the second is).",
    setup: (db) => {
      welcomeTries = 0;
      db.appInfo.firstRun = true;
    },
  },
);

defineScenario("dark", {}, {
  description: "Everything as default, in the dark theme.",
  setup: (db) => {
    db.settings.theme = "dark";
  },
});

defineScenario("system-theme", {}, {
  description: "The theme follows the system (prefers-color-scheme).",
  setup: (db) => {
    db.settings.theme = "system";
  },
});

defineScenario("connections", {}, {
  description: "Two connections besides the Sandbox: Work (active, with a key) and Personal (no key yet).",
  setup: (db) => {
    db.profiles.push(
      {
        id: "p_work",
        name: "Work",
        baseUrl: "https://api.example.com",
        keyKind: "organization",
        projectId: "6741a0c3e4b0f1a2b3c4d5aa",
        builtIn: false,
        active: false,
        key: { hasKey: true, maskedTail: "••••9f2c" },
      },
      {
        id: "p_personal",
        name: "Personal",
        baseUrl: "https://api.example.com",
        keyKind: "personal",
        builtIn: false,
        active: false,
        key: { hasKey: false },
      },
    );
    db.credits.p_work = 2500;
    db.settings.activeProfileId = "p_work";
  },
});

defineScenario(
  "broke",
  {
    credits_balance: () => {
      throw ipcError("insufficientCredits", BROKE_MESSAGE, { status: 402, action: { label: "Top up", url: TOP_UP_URL } });
    },
    test_connection: () => {
      throw ipcError("insufficientCredits", BROKE_MESSAGE, { status: 402, action: { label: "Top up", url: TOP_UP_URL } });
    },
  },
  { description: "The active key has no credits left: the service refuses with a Top up action." },
);

// TanStack Query retries a failed query once by itself: the first two reads fail, so the error
// panel stays until the user presses Try again (the third read).
let appInfoReads = 0;
defineScenario(
  "startup-error",
  {
    app_info: (_args, ctx) => {
      appInfoReads += 1;
      if (appInfoReads <= 2) {
        throw ipcError(
          "storage",
          "Specdesk could not read or write its local data (disk I/O error). Check that the disk is not full, then try again.",
        );
      }
      return { ...ctx.db.appInfo };
    },
  },
  { description: "Reading the app's local data fails at start; Try again succeeds." },
);

defineScenario(
  "keychain-locked",
  {
    set_api_key: () => {
      throw ipcError("keychainLocked", "Your keychain is locked. Unlock it (it may be asking for your password), then try again.");
    },
  },
  {
    description: "Saving a key fails because the system keychain is locked.",
    setup: (db) => {
      db.profiles.push({
        id: "p_personal",
        name: "Personal",
        baseUrl: "https://api.example.com",
        keyKind: "personal",
        builtIn: false,
        active: false,
        key: { hasKey: false },
      });
    },
  },
);

/** What the recovery window shows for a library held by another program. */
export const LOCKED_LIBRARY: StartProblem = {
  step: "library",
  message:
    "Your library is in use by another program: it stayed locked for 5 seconds. Close any other copy of Specdesk, or any program that has /home/ada/.local/share/specdesk/library.sqlite open, then choose Try again.",
  detail: "database is locked",
  dataDir: "/home/ada/.local/share/specdesk",
  library: "locked",
};

defineScenario(
  "start-locked",
  {
    // Still locked on Try again; a fresh library starts the app (the page then reloads).
    retry_start: () => ({ ...LOCKED_LIBRARY, detail: "database is locked (again)" }),
    start_fresh_library: () => null,
  },
  {
    description: "The app could not start: its library is locked by another program (the recovery window).",
    setup: (db) => {
      db.appInfo.startProblem = LOCKED_LIBRARY;
    },
  },
);

defineScenario("start-read-only", {}, {
  description: "The app could not start: its data folder cannot be written (no fresh library offered).",
  setup: (db) => {
    db.appInfo.startProblem = {
      step: "dataFolder",
      message:
        "Specdesk could not make or write its folder /media/usb/specdesk. Check that it is writable and on a disk that is connected, then choose Try again.",
      detail: "Read-only file system (os error 30)",
      dataDir: "/media/usb/specdesk",
    };
  },
});
