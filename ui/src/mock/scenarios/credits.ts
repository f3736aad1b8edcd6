// Scenario of the credit ledger and the daily spend cap (issue 15, "Credits everywhere"): the
// Sandbox has spent exactly its cap today (3.75 credits), so a gateway call is refused before it is
// sent (`spendCap`, words as crates/core `SpendToday::check`); a ledger over the last days (and one
// line outside the 30-day window) for the Spending section. The mock's clock is today, local noon.
// "credits-faults": the same Spending with the credit ledger unreadable and a CSV export refused.
import type { CreditEntry } from "../../ipc/contract";
import { baseHandlers, spendToday } from "../base";
import { defineScenario, ipcError, type MockContext } from "../registry";
import { SANDBOX_ID, type MockDb } from "../state";

/** Noon of the local day `daysAgo` before today, as the ledger writes it. */
export function noonAgo(daysAgo: number, minute = 0): string {
  const t = new Date();
  return new Date(t.getFullYear(), t.getMonth(), t.getDate() - daysAgo, 12, minute).toISOString();
}

function words(x: number): string {
  const n = String(Math.round(x * 1e6) / 1e6);
  return n === "1" ? "1 credit" : `${n} credits`;
}

function line(daysAgo: number, endpoint: string, credits: number, requestId?: string, minute = 0, model?: string): CreditEntry {
  return { at: noonAgo(daysAgo, minute), profileId: SANDBOX_ID, endpoint, ...(model ? { model } : {}), creditsCharged: credits, ...(requestId ? { requestId } : {}), pending: false, estimated: false };
}

/** What crates/core refuses before a gateway call of unknown price (estimate 0, so only a reached cap stops it; crates/core/src/spend estimates priced calls and counts the calls under way). */
function checkCap(ctx: MockContext): void {
  const id = ctx.db.settings.activeProfileId;
  const today = spendToday(ctx.db, id);
  if (today.limit === undefined || today.spent < today.limit) return;
  const name = ctx.db.profiles.find((p) => p.id === id)?.name ?? id;
  const cap =
    today.raised > 0
      ? `its cap for today is ${words(today.limit)} (${words(today.dailyCap ?? today.limit)} a day, raised by ${words(today.raised)} today)`
      : `its daily cap is ${words(today.limit)}`;
  throw ipcError(
    "spendCap",
    `This call was not sent: ${words(today.spent)} spent today on ${name} has reached the cap (${cap}), and the call's cost is only known once it runs. Raise today's cap to send it, or wait until tomorrow.`,
    { spendCap: { profileId: id, spent: today.spent, underWay: 0, limit: today.limit, estimate: 0 } },
  );
}

/** The Sandbox at its cap with a month of ledger lines (each gateway call's with its model). */
function setupCredits(db: MockDb): void {
  const t = new Date();
  db.clock = new Date(t.getFullYear(), t.getMonth(), t.getDate(), 12, 30).getTime();
  db.settings.spendCaps = { [SANDBOX_ID]: 3.75 };
  db.ledger = [
    line(0, "v1/images", 0.8, "req_img", 3, "openai/gpt-image-1"),
    line(0, "v1/messages", 0.45, "req_chat", 2, "anthropic/claude-sonnet-4"),
    line(0, "fast_spec", 2.5, undefined, 1),
    { at: noonAgo(1, 30), profileId: SANDBOX_ID, endpoint: "credits-balance", creditsRemaining: 9990, pending: false, estimated: false },
    line(1, "browser-agents", 1.2, undefined, 20),
    line(1, "v1/audio/speech", 0.3, "req_tts", 10, "openai/gpt-4o-mini-tts"),
    line(2, "v1/images", 0.25, "req_img2", 5, "openai/gpt-image-1"),
    line(3, "v1/rerank", 0.01, "req_rr", 0, "cohere/rerank-v3.5"),
    // A charge under 0.005 credits, which two decimals wrote as "0" (issue 24).
    line(5, "v1/embeddings", 0.004, "req_emb", 0, "openai/text-embedding-3-small"),
    line(40, "v1/images", 9, undefined, 0, "openai/gpt-image-1"),
    { ...line(0, "v1/images", 7, undefined, 0, "google/imagen-4"), profileId: "p_other" },
  ];
}

defineScenario(
  "credits",
  {
    rerank: (args, ctx) => {
      checkCap(ctx);
      return baseHandlers.rerank(args, ctx);
    },
    generate_images: (args, ctx) => {
      checkCap(ctx);
      return baseHandlers.generate_images(args, ctx);
    },
    chat_stream: (args, ctx) => {
      checkCap(ctx);
      return baseHandlers.chat_stream(args, ctx);
    },
  },
  {
    description: "The Sandbox at its daily cap of 3.75 credits, with a month of ledger lines",
    setup: setupCredits,
  },
);

/** Gate the test releases when the credit ledger can be read again (scenario "credits-faults"). */
export const LEDGER_BACK = "ledger-back";
export const LEDGER_UNREADABLE = "The credit ledger on this computer could not be read. Try again in a moment.";
export const DISK_FULL = "The file could not be written to /home/user/Downloads: there is no space left on the disk.";

// Per page: the credit ledger is unreadable until the test releases LEDGER_BACK; the first CSV
// export fails.
let ledgerBack = false;
let exports = 0;

defineScenario(
  "credits-faults",
  {
    credit_ledger: (args, ctx) => {
      void ctx.gate(LEDGER_BACK).then(() => {
        ledgerBack = true;
      });
      if (!ledgerBack) throw ipcError("internal", LEDGER_UNREADABLE);
      return baseHandlers.credit_ledger(args, ctx);
    },
    save_document: (args, ctx) => {
      exports += 1;
      if (exports === 1) throw ipcError("storage", DISK_FULL);
      return baseHandlers.save_document(args, ctx);
    },
  },
  {
    description: "The Spending section with the credit ledger unreadable (until released) and a first CSV export that fails.",
    setup: (db) => {
      ledgerBack = false;
      exports = 0;
      setupCredits(db);
    },
  },
);
