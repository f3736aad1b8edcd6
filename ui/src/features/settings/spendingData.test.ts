import { describe, expect, it } from "vitest";
import type { CreditEntry } from "../../ipc/contract";
import { suggestedRaise } from "../../components/ErrorPanel";
import { areaOf, dayStart, ledgerCsv, localDay, spendByArea, spendByDay, spendByModel, windowStart } from "./spendingData";

/** An instant at local `day` and `hour`, as the ledger writes it (UTC ISO). */
function at(day: string, hour = 12): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y ?? 2026, (m ?? 1) - 1, d ?? 1, hour).toISOString();
}

function line(day: string, endpoint: string, credits: number | undefined, extra: Partial<CreditEntry> = {}): CreditEntry {
  return { at: at(day), profileId: "sandbox", endpoint, creditsCharged: credits, pending: false, estimated: false, ...extra };
}

const TODAY = new Date(2026, 10, 25, 15, 0);

describe("spending", () => {
  it("maps every endpoint the ledger records to its area", () => {
    expect(areaOf("v1/messages")).toBe("gateway");
    expect(areaOf("v1/audio/transcriptions")).toBe("gateway");
    expect(areaOf("rerank")).toBe("gateway");
    expect(areaOf("browser-agents")).toBe("agents");
    expect(areaOf("spec")).toBe("specs");
    expect(areaOf("deep-spec")).toBe("specs");
    expect(areaOf("credits-balance")).toBeNull();
    expect(areaOf("something-new")).toBe("other");
  });

  it("sums each local day of the last 30, empty days included, and leaves readings and pending lines out", () => {
    const entries = [
      line("2026-11-25", "v1/images", 0.8),
      line("2026-11-25", "v1/messages", 0.1),
      line("2026-11-25", "v1/messages", 0.2),
      line("2026-11-24", "spec", 2),
      line("2026-11-24", "credits-balance", undefined, { creditsRemaining: 90 }),
      line("2026-11-24", "v1/messages", undefined, { pending: true }),
      line("2026-10-26", "browser-agents", 1.5),
      line("2026-10-25", "browser-agents", 9), // 31 days ago: outside
    ];
    const days = spendByDay(entries, TODAY);
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: "2026-10-27", credits: 0, calls: 0 });
    expect(days[29]).toEqual({ day: "2026-11-25", credits: 1.1, calls: 3 });
    expect(days[28]).toEqual({ day: "2026-11-24", credits: 2, calls: 1 });
    expect(days.reduce((s, d) => s + d.credits, 0)).toBe(3.1);

    const from = windowStart(TODAY);
    expect(from).toBe("2026-10-27");
    expect(spendByArea(entries, "2026-10-26")).toEqual([
      { key: "specs", label: "Specs", credits: 2, calls: 1 },
      { key: "agents", label: "Browser agents", credits: 1.5, calls: 1 },
      { key: "gateway", label: "Gateway", credits: 1.1, calls: 3 },
    ]);
    expect(spendByArea(entries, from).map((g) => g.key)).toEqual(["specs", "gateway"]);
  });

  it("groups the gateway's charged lines by their model, largest first, those without one apart", () => {
    expect(
      spendByModel(
        [
          line("2026-11-25", "v1/images", 0.4, { model: "lab/image-1" }),
          line("2026-11-20", "v1/images", 0.4, { model: "lab/image-1" }),
          line("2026-11-20", "v1/messages", undefined, { model: "lab/chat-1", pending: true }),
          line("2026-11-21", "v1/audio/speech", 1, { model: "lab/speech-1" }),
          line("2026-11-21", "spec", 3),
          line("2026-11-22", "v1/rerank", 0.5),
          line("2026-09-01", "v1/images", 5, { model: "lab/old" }),
        ],
        "2026-10-27",
      ),
    ).toEqual([
      { key: "lab/speech-1", label: "lab/speech-1", credits: 1, calls: 1 },
      { key: "lab/image-1", label: "lab/image-1", credits: 0.8, calls: 2 },
      { key: "", label: "Model not recorded (an earlier version of Specdesk)", credits: 0.5, calls: 1 },
    ]);
    expect(dayStart("2026-11-02")).toBe(new Date(2026, 10, 2).toISOString());
  });

  it("writes the charged lines as CSV, oldest first, quoted where needed", () => {
    const csv = ledgerCsv(
      [
        line("2026-11-25", "v1/images", 0.8, { requestId: "req_2", creditsRemaining: 41.2, model: "lab/image-1" }),
        line("2026-11-24", "spec", 2, { estimated: true }),
        line("2026-11-24", "credits-balance", undefined, { creditsRemaining: 42 }),
        line("2026-11-23", "=cmd", 1, { requestId: 'a,"b"' }),
      ],
      "2026-11-24",
    );
    expect(csv.split("\r\n")).toEqual([
      "day,at,connection,area,endpoint,model,request id,credits charged,credits remaining,state",
      `2026-11-24,${at("2026-11-24")},sandbox,Specs,spec,,,2,,estimated`,
      `2026-11-25,${at("2026-11-25")},sandbox,Gateway,v1/images,lab/image-1,req_2,0.8,41.2,charged`,
      "",
    ]);
    expect(ledgerCsv([line("2026-11-24", "=cmd", 1, { requestId: 'a,"b"' })], "2026-11-01")).toContain(`,Other,'=cmd,,"a,""b""",1,,charged`);
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });

  it("suggests raising today's cap by what the call would pass it by, at least 1", () => {
    expect(suggestedRaise({ spent: 10, underWay: 0, limit: 10, estimate: 0 })).toBe(1);
    expect(suggestedRaise({ spent: 9.5, underWay: 0, limit: 10, estimate: 2.2 })).toBe(2);
    expect(suggestedRaise({ spent: 9.5, underWay: 0, limit: 10, estimate: 3.1 })).toBe(3);
    expect(suggestedRaise({ spent: 0.1 + 0.2, underWay: 0, limit: 0.3, estimate: 0 })).toBe(1);
    // Calls still running count as spent: 9.5 + 1.6 + 0.4 passes 10 by 1.5.
    expect(suggestedRaise({ spent: 9.5, underWay: 1.6, limit: 10, estimate: 0.4 })).toBe(2);
    // A call of unknown cost needs the cap above what is committed (9 + 2 = 11): raised to 12.
    expect(suggestedRaise({ spent: 9, underWay: 2, limit: 10, estimate: 0 })).toBe(2);
    expect(suggestedRaise({ spent: 9, underWay: 1.5, limit: 10, estimate: 0 })).toBe(1);
  });
});
