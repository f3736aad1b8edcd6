// Scenario of bench/library-search.mjs (not of the screen tests): "library-1000", a library of
// 1000 finished specs for the search as you type.
//
// The descriptions are generated here, deterministically (a seeded generator, so every page load
// and every run of the bench sees the same 1000 specs): a kind of product, who it is for and two or
// three features, from lists of realistic phrases, so that a word such as "booking", "invoice" or
// "offline" matches a few dozen specs to a few hundred, and a typo matches none. Newest first, one
// every 17 hours or so back from 2026-11-24; fast and deep specs; about 4 % failed, the rest
// completed (none still generating: a live row would make the library poll, which the bench does
// not time). About one spec in twelve has a local title (the row then shows two lines).
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { TITLES_KEY } from "../../features/specs/library/titles";
import { defineScenario } from "../registry";

export const LIBRARY_1000_COUNT = 1000;

const KINDS = [
  "A booking app",
  "A marketplace",
  "An inventory tracker",
  "A team dashboard",
  "A mobile app",
  "A lightweight CRM",
  "A learning platform",
  "A habit tracker",
  "A recipe-sharing app",
  "An invoicing tool",
  "A support chat assistant",
  "A fleet tracker",
  "A ticketing system",
  "A volunteer scheduler",
  "A loyalty programme",
  "A document signing service",
  "A time-tracking app",
  "A donation platform",
  "A rental manager",
  "A survey builder",
];

const AUDIENCES = [
  "for dog walkers",
  "for a climbing gym",
  "for small bakeries",
  "for freelance designers",
  "for a community garden",
  "for dental clinics",
  "for music teachers",
  "for a city library",
  "for food trucks",
  "for wedding planners",
  "for a rowing club",
  "for property managers",
  "for a C++ game studio",
  "for school canteens",
  "for bike repair shops",
  "for language schools",
  "for a hospital pharmacy",
  "for indie bookshops",
  "for co-working spaces",
  "for student housing",
  "for vineyards",
  "for a local newspaper",
  "for physiotherapists",
  "for a makerspace",
];

const FEATURES = [
  "online payments",
  "calendar sync",
  "push reminders",
  "an admin dashboard",
  "CSV export",
  "role-based access",
  "offline mode",
  "a public API",
  "SMS notifications",
  "multi-currency invoices",
  "a weekly email summary",
  "photo uploads",
  "a map view",
  "reviews and ratings",
  "waiting lists",
  "gift cards",
  "barcode scanning",
  "recurring subscriptions",
  "a customer portal",
  "audit logs",
  "dark mode",
  "two-factor sign-in",
  "shift swaps",
  "PDF receipts",
  "live chat",
  "a referral scheme",
  "stock alerts",
  "group discounts (beta)",
  "tips under $5",
  "a Slack integration",
];

const TITLE_WORDS = ["Pilot", "Draft", "Client brief", "v2", "Pitch", "Prototype", "Q3 idea", "Workshop"];

/** mulberry32: a small seeded generator, the same sequence on every load. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The n-th spec id: 24 hex digits, like the service's. */
function specId(n: number): string {
  return `6750${n.toString(16).padStart(20, "0")}`;
}

export interface GeneratedLibrary {
  specs: SpecStatusResponse[];
  /** Local titles by spec id. */
  titles: Record<string, string>;
}

/** The 1000 specs (newest first) and their local titles. */
export function generateLibrary(count = LIBRARY_1000_COUNT): GeneratedLibrary {
  const random = seeded(20261125);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const specs: SpecStatusResponse[] = [];
  const titles: Record<string, string> = {};
  let at = Date.parse("2026-11-24T18:00:00.000Z");
  for (let n = 0; n < count; n += 1) {
    const kind = pick(KINDS);
    const audience = pick(AUDIENCES);
    const features = new Set<string>();
    const wanted = random() < 0.5 ? 2 : 3;
    while (features.size < wanted) features.add(pick(FEATURES));
    const [first, second, third] = [...features];
    const list = third ? `${first}, ${second} and ${third}` : `${first} and ${second}`;
    const input = `${kind} ${audience}: ${list}.`;
    const deep = random() < 0.35;
    const failed = random() < 0.04;
    const id = specId(n);
    at -= Math.round((10 + random() * 14) * 3_600_000);
    const hours = Math.round((deep ? 120 : 24) + random() * (deep ? 260 : 90));
    specs.push({
      _id: id,
      specId: id,
      endpoint: deep ? "deep_spec" : "fast_spec",
      input,
      status: failed ? "failed" : "completed",
      success: !failed,
      created: new Date(at).toISOString(),
      creditsUsed: failed ? 0 : Math.round((deep ? 12 : 3) + random() * (deep ? 30 : 6)),
      executionTime: Math.round((deep ? 140 : 35) + random() * 60),
      ...(failed ? { errorMessage: "The generation stopped: the service timed out. Try again." } : { totalHumanHours: hours }),
      zippedDocsUrls: [],
    });
    if (random() < 0.08) titles[id] = `${pick(TITLE_WORDS)}: ${kind.replace(/^An? /, "")} ${audience.replace(/^for /, "")}`;
  }
  return { specs, titles };
}

defineScenario("library-1000", {}, {
  description: "1000 finished specs with generated, varied descriptions (some with local titles), for bench/library-search.mjs.",
  setup: (db) => {
    const { specs, titles } = generateLibrary();
    db.specs = specs;
    // Local titles live in localStorage; a title the user (or a previous load) set is kept.
    if (window.localStorage.getItem(TITLES_KEY) === null) window.localStorage.setItem(TITLES_KEY, JSON.stringify(titles));
  },
});
