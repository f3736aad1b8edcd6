// Settings → Spending: the credit ledger of the connection in use over the last 30 days, by day
// (an SVG bar chart with the same figures in a table), by area and by model, and "Export CSV"
// (written from Rust by save_document).
import { useId, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { IpcError } from "../../ipc/contract";
import { call, toIpcError } from "../../ipc/invoke";
import { keys, useConnectionId, useProfiles, useSaveSettings, useSettings } from "../../ipc/hooks";
import { ProfileForm, capOf, type ProfileDraft } from "./ProfileForm";
import { useAppEvent } from "../../ipc/events";
import { ErrorPanel } from "../../components/ErrorPanel";
import { formatCredits } from "../../lib/format";
import { dayStart, ledgerCsv, localDay, spendByArea, spendByDay, spendByModel, windowStart, type DaySpend, type GroupSpend } from "./spendingData";

const DAYS = 30;
const BOX = { width: 640, height: 200, left: 44, right: 8, top: 12, bottom: 28 };

function shortDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y ?? 2000, (m ?? 1) - 1, d ?? 1).toLocaleDateString("en-US", { month: "short", day: "numeric" });
}

function DayChart({ days }: { days: DaySpend[] }) {
  const max = Math.max(...days.map((d) => d.credits), 0);
  const top = max > 0 ? max : 1;
  const plotW = BOX.width - BOX.left - BOX.right;
  const plotH = BOX.height - BOX.top - BOX.bottom;
  const step = plotW / days.length;
  const barW = Math.max(2, step * 0.7);
  const total = days.reduce((s, d) => s + d.credits, 0);
  const first = days[0];
  const last = days[days.length - 1];
  return (
    <svg
      className="spend-chart"
      viewBox={`0 0 ${BOX.width} ${BOX.height}`}
      role="img"
      aria-label={`Credits spent each day from ${shortDay(first?.day ?? "")} to ${shortDay(last?.day ?? "")}: ${formatCredits(total)} in all, at most ${formatCredits(max)} on one day. The table below has each day's figure.`}
    >
      {[0, 0.5, 1].map((f) => {
        const y = BOX.top + plotH * (1 - f);
        return (
          <g key={f}>
            <line x1={BOX.left} x2={BOX.width - BOX.right} y1={y} y2={y} style={{ stroke: "var(--border)" }} />
            <text x={BOX.left - 6} y={y} textAnchor="end" dominantBaseline="central" style={{ fill: "var(--text-muted)", fontSize: 11 }}>
              {formatCredits(top * f)}
            </text>
          </g>
        );
      })}
      {days.map((d, i) => {
        const h = (d.credits / top) * plotH;
        return (
          <rect
            key={d.day}
            x={BOX.left + i * step + (step - barW) / 2}
            y={BOX.top + plotH - h}
            width={barW}
            height={h}
            rx={1.5}
            style={{ fill: "var(--accent)" }}
          >
            <title>{`${shortDay(d.day)}: ${formatCredits(d.credits)} credits`}</title>
          </rect>
        );
      })}
      {first && (
        <text x={BOX.left} y={BOX.height - 8} style={{ fill: "var(--text-muted)", fontSize: 11 }}>
          {shortDay(first.day)}
        </text>
      )}
      {last && (
        <text x={BOX.width - BOX.right} y={BOX.height - 8} textAnchor="end" style={{ fill: "var(--text-muted)", fontSize: 11 }}>
          {shortDay(last.day)}
        </text>
      )}
    </svg>
  );
}

function GroupTable({ caption, head, rows }: { caption: string; head: string; rows: GroupSpend[] }) {
  return (
    <div className="table-wrap">
      <table className="data-table" aria-label={caption}>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              Credits
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.label}</th>
              <td className="num">{r.calls}</td>
              <td className="num">{formatCredits(r.credits)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Saves connection `id`'s daily cap (`undefined`: none) into the settings, read fresh so nothing
 * else changes. */
export function useSaveCap() {
  const qc = useQueryClient();
  const save = useSaveSettings();
  return async (id: string, cap: number | undefined) => {
    const current = await qc.fetchQuery({ queryKey: keys.settings, queryFn: () => call("get_settings"), staleTime: 0 });
    if ((current.spendCaps ?? {})[id] === cap) return;
    const spendCaps = Object.fromEntries(
      Object.entries({ ...(current.spendCaps ?? {}), [id]: cap }).filter((e): e is [string, number] => typeof e[1] === "number"),
    );
    await save.mutateAsync({ ...current, spendCaps });
  };
}

/** The daily cap of the connection in use, and a form to change it (the built-in Sandbox has no
 * connection form, so its cap is set here). */
function CapLine({ connection, name }: { connection: string; name: string }) {
  const settings = useSettings();
  const saveCap = useSaveCap();
  const [editing, setEditing] = useState(false);
  const cap = settings.data?.spendCaps?.[connection];
  if (editing) {
    const initial: ProfileDraft = { name, baseUrl: "", keyKind: "personal", projectId: "", apiKey: "", dailyCap: cap === undefined ? "" : String(cap) };
    return (
      <ProfileForm
        initial={initial}
        withKey={false}
        capOnly
        submitLabel={`Save ${name}'s cap`}
        onSubmit={async (d) => {
          await saveCap(connection, capOf(d));
          setEditing(false);
        }}
        onCancel={() => setEditing(false)}
      />
    );
  }
  return (
    <div className="row">
      <span>{cap === undefined ? `${name} has no daily spend cap.` : `Daily spend cap of ${name}: ${formatCredits(cap)} credits.`}</span>
      <button className="btn" type="button" onClick={() => setEditing(true)}>
        Change daily cap
      </button>
    </div>
  );
}

export function Spending({ now = () => new Date() }: { now?: () => Date }) {
  const id = useId();
  const connection = useConnectionId();
  const profiles = useProfiles();
  const today = now();
  const from = windowStart(today, DAYS);
  // Every line of this connection in the window (not the newest 1000 of all connections).
  const ledger = useQuery({
    queryKey: ["credit_ledger", connection ?? "", from],
    queryFn: () => call("credit_ledger", { limit: 100_000, profileId: connection ?? "", since: dayStart(from) }),
    enabled: connection !== undefined,
  });
  useAppEvent("credits-changed", () => {
    void ledger.refetch();
  });
  const [saved, setSaved] = useState<string | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);

  const name = profiles.data?.find((p) => p.id === connection)?.name ?? "this connection";
  const entries = (ledger.data ?? []).filter((e) => e.profileId === connection);
  const days = spendByDay(entries, today, DAYS);
  const areas = spendByArea(entries, from);
  const models = spendByModel(entries, from);
  const total = days.reduce((s, d) => s + d.credits, 0);

  const exportCsv = async () => {
    setSaved(null);
    setFailure(null);
    try {
      const path = await call("save_document", { fileName: `specdesk-credits-${localDay(today)}.csv`, contents: ledgerCsv(entries, from), choose: false });
      if (path) setSaved(`Saved to ${path}.`);
    } catch (err) {
      setFailure(toIpcError(err));
    }
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Spending</h2>
      <p className="muted">
        Credits charged to {name} over the last {DAYS} days, from this computer&apos;s credit ledger.
      </p>
      {connection !== undefined && <CapLine connection={connection} name={name} />}
      {ledger.isError && <ErrorPanel error={toIpcError(ledger.error)} onRetry={() => void ledger.refetch()} />}
      {ledger.isPending && connection !== undefined && <p className="muted">Reading the credit ledger…</p>}
      {ledger.isSuccess && (
        <>
          <p>
            <strong>{formatCredits(total)}</strong> credits in {DAYS} days.
          </p>
          <figure className="chart">
            <DayChart days={days} />
            <details className="chart-table">
              <summary>Spend by day as a table</summary>
              <div className="table-wrap">
                <table className="data-table" aria-label="Spend by day">
                  <thead>
                    <tr>
                      <th scope="col">Day</th>
                      <th scope="col" className="num">
                        Calls
                      </th>
                      <th scope="col" className="num">
                        Credits
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {days
                      .filter((d) => d.calls > 0)
                      .map((d) => (
                        <tr key={d.day}>
                          <th scope="row">{d.day}</th>
                          <td className="num">{d.calls}</td>
                          <td className="num">{formatCredits(d.credits)}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
              </div>
            </details>
          </figure>
          <h3>By area</h3>
          {areas.length ? <GroupTable caption="Spend by area" head="Area" rows={areas} /> : <p className="muted">Nothing charged in these {DAYS} days.</p>}
          <h3>By model</h3>
          {models.length ? (
            <GroupTable caption="Spend by model" head="Model" rows={models} />
          ) : (
            <p className="muted">No gateway calls charged in these {DAYS} days.</p>
          )}
          <p className="hint">By model counts the Gateway's calls (chat, images, speech, transcription, video, rerank); specs and browser agents have no model.</p>
          {failure && <ErrorPanel error={failure} onRetry={() => void exportCsv()} />}
          <div className="row">
            <button className="btn" type="button" onClick={() => void exportCsv()}>
              Export CSV
            </button>
            {saved && (
              <span role="status" className="muted">
                {saved}
              </span>
            )}
          </div>
        </>
      )}
    </section>
  );
}
