// Plain-words formatting shared by the Specs and Plans screens.

const NUM = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** A number with at most one decimal: 1,234.5. */
export function formatNumber(n: number): string {
  return NUM.format(n);
}

/** Hours of work: "16.5 h". */
export function formatHours(h: number | undefined | null): string {
  if (h === undefined || h === null || !Number.isFinite(h)) return "—";
  return `${NUM.format(h)} h`;
}

// One Intl formatter per number of decimals, made once: building one takes about 0.1 ms on the
// 2-core test VM, and a table of credits formats many figures per render.
const CREDIT_FORMATS = new Map<number, Intl.NumberFormat>();

function creditFormat(decimals: number): Intl.NumberFormat {
  let f = CREDIT_FORMATS.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { maximumFractionDigits: decimals });
    CREDIT_FORMATS.set(decimals, f);
  }
  return f;
}

/**
 * A number of credits, the one way every screen writes one: up to three decimals ("10,000",
 * "9,999.95", "0.025"), and an amount under 0.001 with its first two significant digits
 * ("0.0004", "0.00045"), so a real charge never reads "0" (nor its change "−0"). 0 is "0".
 */
export function formatCredits(n: number): string {
  if (n === 0) return "0"; // -0 too
  if (!Number.isFinite(n)) return creditFormat(3).format(n);
  // 0.004: the first significant digit is the 3rd decimal, so 4 decimals keep two digits.
  const firstDigit = -Math.floor(Math.log10(Math.abs(n)));
  return creditFormat(Math.min(20, Math.max(3, firstDigit + 1))).format(n);
}

/** Credits with the word: "23.4 credits", "1 credit", "0.004 credits". */
export function formatCreditsWord(n: number): string {
  const v = formatCredits(n);
  return `${v} ${v === "1" ? "credit" : "credits"}`;
}

/** A file size: "812 bytes", "4.2 KB", "3.1 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? "byte" : "bytes"}`;
  if (n < 1024 * 1024) return `${NUM.format(n / 1024)} KB`;
  if (n < 1024 * 1024 * 1024) return `${NUM.format(n / (1024 * 1024))} MB`;
  return `${NUM.format(n / (1024 * 1024 * 1024))} GB`;
}

/** A processing time in milliseconds: "34 s", "2 min 28 s", "1 h 5 min". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** Elapsed time as a clock: "0:42", "12:05", "1:02:03". */
export function formatElapsed(totalSeconds: number): string {
  const t = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const s = t % 60;
  const ss = String(s).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** A date and time in the reader's time zone: "Nov 20, 2026, 9:14 AM". Empty or bad input: "—". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return d.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}

/** How long ago `iso` was, in words: "just now", "5 minutes ago", "2 hours ago", "3 days ago";
 * past a month, the date. Empty or bad input: "—". */
export function formatAgo(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return "—";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return "—";
  const minutes = Math.floor(Math.max(0, now - t) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${plural(minutes, "minute")} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${plural(hours, "hour")} ago`;
  const days = Math.floor(hours / 24);
  if (days < 31) return `${plural(days, "day")} ago`;
  return `on ${formatDate(iso)}`;
}

/** A date only: "Nov 20, 2026". */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return d.toLocaleDateString("en-US", { dateStyle: "medium" });
}

/** "1 feature", "3 features". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/** A safe file name from a title: "Recipe Box!" → "recipe-box". */
export function slugify(text: string, fallback = "spec"): string {
  const s = text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return s || fallback;
}
