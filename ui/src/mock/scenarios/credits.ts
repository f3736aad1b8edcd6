// Scenario of the credit ledger and the daily spend cap (issue 15, "Credits everywhere"): the
// Sandbox has spent exactly its cap today (3.75 credits), so a gateway call is refused before it is
// sent (`spendCap`, words as crates/core `SpendToday::check`); a ledger over the last days (and one
// line outside the 30-day window) for the Spending section. The mock's clock is today, local noon.
// "credits-faults": the same Spending with the media library unreadable and a CSV export refused.
import type { CreditEntry, MediaItem } from "../../ipc/contract";
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

function line(daysAgo: number, endpoint: string, credits: number, requestId?: string, minute = 0): CreditEntry {
  return { at: noonAgo(daysAgo, minute), profileId: SANDBOX_ID, endpoint, creditsCharged: credits, ...(requestId ? { requestId } : {}), pending: false, estimated: false };
}

/** What crates/core refuses before a gateway call of unknown price (estimate 0, so only a reached cap stops it; crates/core/src/spend.rs estimates priced calls). */
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
    { spendCap: { profileId: id, spent: today.spent, limit: today.limit, estimate: 0 } },
  );
}

function image(id: number, model: string, credits: number, daysAgo: number): MediaItem {
  return { id, kind: "image", path: `/media/image-${id}.png`, prompt: "A kite", model, profileId: SANDBOX_ID, credits, createdAt: noonAgo(daysAgo, 5) };
}

/** The Sandbox at its cap with a month of ledger lines and three images. */
function setupCredits(db: MockDb): void {
  const t = new Date();
  db.clock = new Date(t.getFullYear(), t.getMonth(), t.getDate(), 12, 30).getTime();
  db.settings.spendCaps = { [SANDBOX_ID]: 3.75 };
  db.ledger = [
    line(0, "v1/images", 0.8, "req_img", 3),
    line(0, "v1/messages", 0.45, "req_chat", 2),
    line(0, "fast_spec", 2.5, undefined, 1),
    { at: noonAgo(1, 30), profileId: SANDBOX_ID, endpoint: "credits-balance", creditsRemaining: 9990, pending: false, estimated: false },
    line(1, "browser-agents", 1.2, undefined, 20),
    line(1, "v1/audio/speech", 0.3, "req_tts", 10),
    line(3, "v1/rerank", 0.01, "req_rr"),
    line(40, "fast_spec", 9),
    { ...line(0, "v1/images", 7), profileId: "p_other" },
  ];
  db.media = [image(901, "openai/gpt-image-1", 0.8, 0), image(902, "google/imagen-4", 0.6, 2), image(903, "openai/gpt-image-1", 0.4, 5)];
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
  },
  {
    description: "The Sandbox at its daily cap of 3.75 credits, with a month of ledger lines",
    setup: setupCredits,
  },
);

/** Gate the test releases when the media library can be read again (scenario "credits-faults"). */
export const MEDIA_BACK = "media-back";
export const MEDIA_UNREADABLE = "The media library on this computer could not be read. Try again in a moment.";
export const DISK_FULL = "The file could not be written to /home/user/Downloads: there is no space left on the disk.";

// Per page: the media library is unreadable until the test releases MEDIA_BACK; the first CSV
// export fails.
let mediaBack = false;
let exports = 0;

defineScenario(
  "credits-faults",
  {
    list_media: (args, ctx) => {
      void ctx.gate(MEDIA_BACK).then(() => {
        mediaBack = true;
      });
      if (!mediaBack) throw ipcError("internal", MEDIA_UNREADABLE);
      return baseHandlers.list_media(args, ctx);
    },
    save_document: (args, ctx) => {
      exports += 1;
      if (exports === 1) throw ipcError("storage", DISK_FULL);
      return baseHandlers.save_document(args, ctx);
    },
  },
  {
    description: "The Spending section with the media library unreadable (until released) and a first CSV export that fails.",
    setup: (db) => {
      mediaBack = false;
      exports = 0;
      setupCredits(db);
    },
  },
);
