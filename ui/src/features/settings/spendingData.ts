// The credit ledger grouped for the Spending section: by local day (the last 30, empty days
// included), by area (specs, agents, gateway) and by model (each gateway call's line keeps its
// model), and the ledger's lines as CSV. Pure: no IPC, no React.
import type { CreditEntry } from "../../ipc/contract";

export type Area = "specs" | "agents" | "gateway" | "other";

export const AREA_LABELS: Record<Area, string> = { specs: "Specs", agents: "Browser agents", gateway: "Gateway", other: "Other" };

const GATEWAY_NAMES = new Set(["rerank", "images", "speech", "transcriptions", "messages", "videos", "chat", "audio"]);

/** The area a ledger endpoint belongs to; `null` for a balance reading (no charge). Endpoints are
 * what crates/core records: `v1/...` for the gateway, `browser-agents`, `spec` (or the spec
 * endpoint's own name). */
export function areaOf(endpoint: string): Area | null {
  const e = endpoint.toLowerCase().replace(/^\/+/, "");
  if (e === "credits-balance") return null;
  if (e.startsWith("v1/") || GATEWAY_NAMES.has(e)) return "gateway";
  if (e.includes("browser-agent") || e.includes("agents")) return "agents";
  if (e.includes("spec") || e.includes("plan")) return "specs";
  return "other";
}

/** `YYYY-MM-DD` of `date` in this computer's time zone. */
export function localDay(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/** Rounds to a millionth of a credit (sums of float charges stay exact to read). */
export function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The charged lines (a balance reading or a charge not known yet counts nothing). */
function charged(entries: CreditEntry[]): (CreditEntry & { creditsCharged: number })[] {
  return entries.filter((e): e is CreditEntry & { creditsCharged: number } => areaOf(e.endpoint) !== null && typeof e.creditsCharged === "number");
}

export interface DaySpend {
  /** `YYYY-MM-DD`, local. */
  day: string;
  credits: number;
  calls: number;
}

/** The `days` local days up to `today` (oldest first), each with its spend, empty days at 0. */
export function spendByDay(entries: CreditEntry[], today: Date, days = 30): DaySpend[] {
  const out: DaySpend[] = [];
  const index = new Map<string, DaySpend>();
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - i);
    const row = { day: localDay(d), credits: 0, calls: 0 };
    out.push(row);
    index.set(row.day, row);
  }
  for (const e of charged(entries)) {
    const row = index.get(localDay(new Date(e.at)));
    if (!row) continue;
    row.credits = round(row.credits + e.creditsCharged);
    row.calls += 1;
  }
  return out;
}

/** The first local day of the window `spendByDay` covers. */
export function windowStart(today: Date, days = 30): string {
  return localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1)));
}

export interface GroupSpend {
  key: string;
  label: string;
  credits: number;
  calls: number;
}

function inWindow(at: string, from: string): boolean {
  return localDay(new Date(at)) >= from;
}

/** Spend per area since `from` (a local day), largest first; areas with no charge left out. */
export function spendByArea(entries: CreditEntry[], from: string): GroupSpend[] {
  const groups = new Map<Area, GroupSpend>();
  for (const e of charged(entries)) {
    if (!inWindow(e.at, from)) continue;
    const area = areaOf(e.endpoint) as Area;
    const g = groups.get(area) ?? { key: area, label: AREA_LABELS[area], credits: 0, calls: 0 };
    g.credits = round(g.credits + e.creditsCharged);
    g.calls += 1;
    groups.set(area, g);
  }
  return [...groups.values()].sort((a, b) => b.credits - a.credits || a.label.localeCompare(b.label));
}

/** Where the gateway lines recorded before the ledger kept their model are counted. */
export const NO_MODEL = "Model not recorded (an earlier version of Specdesk)";

/** Spend per model since `from`, from the ledger's gateway lines (specs and browser agents have
 * no model), largest first; gateway lines without their model are counted under NO_MODEL, so the
 * models add up to the Gateway area. */
export function spendByModel(entries: CreditEntry[], from: string): GroupSpend[] {
  const groups = new Map<string, GroupSpend>();
  for (const e of charged(entries)) {
    if (areaOf(e.endpoint) !== "gateway" || !inWindow(e.at, from)) continue;
    const key = e.model ?? "";
    const g = groups.get(key) ?? { key, label: e.model ?? NO_MODEL, credits: 0, calls: 0 };
    g.credits = round(g.credits + e.creditsCharged);
    g.calls += 1;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.credits - a.credits || a.label.localeCompare(b.label));
}

/** The instant local day `day` (`YYYY-MM-DD`) begins, as the ledger writes instants. */
export function dayStart(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y ?? 2000, (m ?? 1) - 1, d ?? 1).toISOString();
}

function cell(v: string | number | undefined | null): string {
  const s = v === undefined || v === null ? "" : String(v);
  // Quoted when needed; a leading formula character is neutralised for spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v === "string" ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The ledger's charged lines since `from` as CSV (oldest first), one header line, CRLF ends. */
export function ledgerCsv(entries: CreditEntry[], from: string): string {
  const rows = charged(entries)
    .filter((e) => inWindow(e.at, from))
    .sort((a, b) => a.at.localeCompare(b.at));
  const lines = [["day", "at", "connection", "area", "endpoint", "model", "request id", "credits charged", "credits remaining", "state"].join(",")];
  for (const e of rows) {
    const state = e.pending ? "pending" : e.estimated ? "estimated" : "charged";
    lines.push(
      [localDay(new Date(e.at)), e.at, e.profileId, AREA_LABELS[areaOf(e.endpoint) as Area], e.endpoint, e.model, e.requestId, e.creditsCharged, e.creditsRemaining, state]
        .map(cell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
