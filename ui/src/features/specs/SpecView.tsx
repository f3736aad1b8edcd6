// One spec: an overview (facts, open-in links, documentation packs), its two documents, the
// scope explorer, personas and features, the tech stack and the graphs. Tabs mount only the
// active panel, so even a 1 MB deep spec opens at once.
import { copyText } from "../../lib/clipboard";
import { Suspense, lazy, useMemo, useState, type ReactNode } from "react";
import type { SpecDoc, SpecView as SpecViewData } from "../../ipc/contract";
import type { ScopeOfWork } from "../../bindings/ScopeOfWork";
import type { SpecStatusResponse } from "../../bindings/SpecStatusResponse";
import { toIpcError } from "../../ipc/invoke";
import { ErrorPanel } from "../../components/ErrorPanel";
import { ExternalLink, isWebUrl } from "../../lib/external";
import { formatCreditsWord, formatDateTime, formatDuration, formatHours } from "../../lib/format";
import { useNavigate, type SpecTab } from "../../lib/nav";
import { useNotice } from "../../lib/notices";
import { Tabs, type TabDef } from "../../lib/Tabs";
import { EMPTY_COMPOSER, type ComposerDraft } from "./draft";
import { isLiveStatus, useSpec } from "./queries";
import { ScopeExplorer } from "./ScopeExplorer";
import { depthLabel } from "./status";
import { SpecStatusBadge } from "./StatusBadge";
import { TechStack } from "./TechStack";
import { DocumentView, NotSavedOffline } from "./DocumentView";
import { ProductPanel } from "./ProductPanel";
import { AcceptanceBar } from "../agents/acceptance/AcceptanceBar";
import { acceptanceStories, scopeMarks } from "../agents/acceptance/model";
import { useAcceptanceRuns } from "../agents/acceptance/useAcceptanceRuns";
import { ExportStoriesButton } from "./document/ExportStoriesButton";
import "./specs.css";

// The graphs (with React Flow and dagre) load when their tab is first opened, and highlight.js
// once a document is painted, so the app starts and a spec opens without them. The document view
// itself is small and is not lazy: a lazy one made every first open wait out React's 300 ms
// Suspense fallback throttle (bench/spec-view.mjs).
const GraphView = lazy(() => import("./GraphView").then((m) => ({ default: m.GraphView })));

export type { SpecTab } from "../../lib/nav";

export function specTitle(spec: SpecStatusResponse): string {
  const t = spec.humanSpecJson?.title ?? spec.codingAgentSpecJson?.title;
  if (t?.trim()) return t.trim();
  const input = spec.input?.trim() ?? "";
  if (input) return input.length > 80 ? `${input.slice(0, 80)}…` : input;
  if (spec.uploadedFileName) return `Spec from ${spec.uploadedFileName}`;
  return "Spec";
}

/** The scope of work the explorer shows: the human spec's (with hours), else the agent's. */
export function scopeOf(spec: SpecStatusResponse): ScopeOfWork | undefined {
  return spec.humanSpecJson ?? spec.codingAgentSpecJson;
}

/** The tabs a spec has, in order. */
export function specTabs(view: SpecViewData): TabDef<SpecTab>[] {
  const s = view.spec;
  const tabs: TabDef<SpecTab>[] = [{ id: "overview", label: "Overview" }];
  if (s.status !== "completed") return tabs;
  tabs.push({ id: "human", label: "Human spec" }, { id: "agent", label: "Coding-agent spec" });
  const sow = scopeOf(s);
  if (sow && sow.milestones.length > 0) tabs.push({ id: "scope", label: "Scope" });
  if (sow && ((sow.personas?.length ?? 0) > 0 || (sow.roles?.length ?? 0) > 0 || sow.coreFunctionalities.length > 0)) {
    tabs.push({ id: "product", label: "Personas and features" });
  }
  if ((sow && sow.techStack.length > 0) || (s.enrichedTechStack?.length ?? 0) > 0) tabs.push({ id: "stack", label: "Tech stack" });
  if (s.userFlowGraph || s.architectureGraph || s.architectureInfographicUrl) tabs.push({ id: "graphs", label: "Graphs" });
  return tabs;
}

const TOOLS: { key: "toolAUrl" | "toolBUrl" | "toolCUrl" | "toolDUrl"; label: string }[] = [
  { key: "toolAUrl", label: "Coding tool A" },
  { key: "toolBUrl", label: "Coding tool B" },
  { key: "toolCUrl", label: "Coding tool C" },
  { key: "toolDUrl", label: "Coding tool D" },
];

function OpenIn({ spec }: { spec: SpecStatusResponse }) {
  const notice = useNotice();
  const links = TOOLS.flatMap((t) => (spec[t.key] ? [{ label: t.label, url: spec[t.key] as string }] : []));
  if (!spec.svcUrl && links.length === 0) return null;
  return (
    <section className="card" aria-labelledby="open-in-title">
      <h2 id="open-in-title">Open in</h2>
      <p className="muted">Each opens in your browser. The coding tools receive a prompt that downloads this spec and builds it.</p>
      <ul className="open-in">
        {spec.svcUrl && (
          <li>
            <ExternalLink href={spec.svcUrl} className="btn btn-primary">
              The project
            </ExternalLink>
          </li>
        )}
        {links.map((l) => (
          <li key={l.label}>
            {isWebUrl(l.url) ? (
              <ExternalLink href={l.url} className="btn">
                {l.label}
              </ExternalLink>
            ) : (
              <button
                className="btn"
                type="button"
                onClick={() => {
                  copyText(l.url)
                    .then(() => notice(`${l.label} opens from its own app link; the link is copied, paste it where the tool asks.`))
                    .catch(() => notice(`Specdesk could not copy the link of ${l.label}.`));
                }}
              >
                Copy the link for {l.label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function DocPacks({ spec }: { spec: SpecStatusResponse }) {
  const packs = spec.zippedDocsUrls ?? [];
  if (packs.length === 0) return null;
  return (
    <section className="card" aria-labelledby="packs-title">
      <h2 id="packs-title">Documentation packs</h2>
      <p className="muted">The documentation sites you listed, collected for your coding agent.</p>
      <ul className="packs">
        {packs.map((p, i) => (
          <li key={`${p.platform}-${i}`}>
            <strong>{p.platform}</strong>
            <span className="row">
              <ExternalLink href={p.masterZipShortUrl} label={`ZIP of the ${p.platform} documentation`}>
                ZIP
              </ExternalLink>
              {p.masterMarkdownShortUrl && (
                <ExternalLink href={p.masterMarkdownShortUrl} label={`Markdown of the ${p.platform} documentation`}>
                  Markdown
                </ExternalLink>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Overview({ view, onRetryDraft }: { view: SpecViewData; onRetryDraft: () => void }) {
  const s = view.spec;
  const navigate = useNavigate();
  const sow = scopeOf(s);
  const specId = s._id ?? s.specId;
  return (
    <div className="overview">
      {isLiveStatus(s.status) && (
        <div className="panel panel-info" role="status">
          <h2>{s.status === "pending" ? "Waiting for the service to start" : "Generating"}</h2>
          <p>{s.progress ?? "The service has your request and will start shortly."}</p>
          {s.creditsUsed !== undefined && <p className="muted">Credits used so far: {formatCreditsWord(s.creditsUsed)}</p>}
          <p className="muted">This page refreshes on its own. You can close Specdesk; the generation goes on.</p>
        </div>
      )}
      {s.status === "failed" && (
        <div className="panel panel-error" role="alert">
          <h2>This spec could not be generated</h2>
          <p>{s.errorMessage ?? "The service did not say why."}</p>
          <p className="muted">A failed spec is not charged.</p>
          <button className="btn" type="button" onClick={onRetryDraft}>
            Edit and try again
          </button>
        </div>
      )}
      <dl className="stat-grid">
        <div className="stat">
          <dt>Status</dt>
          <dd>
            <SpecStatusBadge status={s.status} />
          </dd>
        </div>
        <div className="stat">
          <dt>Depth</dt>
          <dd>{depthLabel(s.endpoint)}</dd>
        </div>
        <div className="stat">
          <dt>Created</dt>
          <dd className="stat-small">{formatDateTime(s.created)}</dd>
        </div>
        {s.totalHumanHours !== undefined && (
          <div className="stat">
            <dt>Estimated work</dt>
            <dd>{formatHours(s.totalHumanHours)}</dd>
          </div>
        )}
        {s.creditsUsed !== undefined && (
          <div className="stat">
            <dt>Credits used</dt>
            <dd>{formatCreditsWord(s.creditsUsed)}</dd>
          </div>
        )}
        {s.executionTime !== undefined && (
          <div className="stat">
            <dt>Execution time</dt>
            <dd>{formatDuration(s.executionTime)}</dd>
          </div>
        )}
      </dl>
      {s.status === "completed" && specId && (
        <div className="row overview-actions">
          <button className="btn btn-primary" type="button" onClick={() => navigate({ area: "plans", target: { specId } })}>
            Open plan
          </button>
          <span className="muted">Follow the project built from this spec: features, progress and launch readiness.</span>
        </div>
      )}
      {sow?.executiveSummary && (
        <section className="card" aria-labelledby="summary-title">
          <h2 id="summary-title">Summary</h2>
          <p>{sow.executiveSummary}</p>
        </section>
      )}
      {s.status === "completed" && <OpenIn spec={s} />}
      <DocPacks spec={s} />
      {(s.input || s.uploadedFileName) && (
        <section className="card" aria-labelledby="request-title">
          <h2 id="request-title">What was asked</h2>
          {s.input && <p className="pre-wrap">{s.input}</p>}
          {s.uploadedFileName && (
            <p className="muted">
              File: {s.uploadedFileShortUrl ? <ExternalLink href={s.uploadedFileShortUrl}>{s.uploadedFileName}</ExternalLink> : s.uploadedFileName}
            </p>
          )}
        </section>
      )}
    </div>
  );
}

function Infographic({ url, title }: { url: string; title: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <section className="graph" aria-labelledby="infographic-title">
      <h2 id="infographic-title">Architecture infographic</h2>
      {failed ? (
        <p className="muted">
          The image could not be loaded here (it needs a connection). <ExternalLink href={url}>Open it in your browser</ExternalLink>
        </p>
      ) : (
        <img className="infographic" src={url} alt={`Architecture infographic of ${title}`} loading="lazy" onError={() => setFailed(true)} />
      )}
    </section>
  );
}

export function SpecView({
  specId,
  onBack,
  onEditAgain,
  tab,
  onTabChange,
}: {
  specId: string;
  onBack: () => void;
  /** Refills the composer with this spec's request (a failed spec's "Edit and try again"). */
  onEditAgain: (d: ComposerDraft) => void;
  /** The tab shown (Overview until the spec has that tab): the spec's address names it. */
  tab?: SpecTab;
  /** A tab chosen; without it (a screen test) the view keeps its tab itself. */
  onTabChange?: (tab: SpecTab) => void;
}) {
  const spec = useSpec(specId);
  const [ownTab, setOwnTab] = useState<SpecTab>(tab ?? "overview");
  const shownTab = onTabChange ? (tab ?? "overview") : ownTab;
  // Set when "Try again" on a document not saved offline found the service still out of reach.
  const [stillOffline, setStillOffline] = useState(false);

  if (spec.isPending) {
    return (
      <section className="page page-wide">
        <BackButton onBack={onBack} />
        <p className="skeleton">Opening the spec…</p>
      </section>
    );
  }
  if (spec.isError) {
    return (
      <section className="page page-wide">
        <BackButton onBack={onBack} />
        <h1>Spec</h1>
        <ErrorPanel error={toIpcError(spec.error)} onRetry={() => void spec.refetch()} level={2} />
      </section>
    );
  }
  const view = spec.data;
  const s = view.spec;
  const title = specTitle(s);
  const tabs = specTabs(view);
  const active = tabs.some((t) => t.id === shownTab) ? shownTab : "overview";
  const sow = scopeOf(s);
  const deep = s.endpoint === "deep_spec";

  // Opening a document starts at the click on its tab (bench/spec-view.mjs measures from this
  // mark to DocumentView's "specdesk:spec-view:painted"). The overview never holds the documents.
  const changeTab = (next: SpecTab) => {
    if (next !== active && (next === "human" || next === "agent")) {
      performance.mark("specdesk:spec-view:open", { detail: { specId, doc: next === "human" ? "human" : "codingAgent" } });
    }
    if (next !== active) (onTabChange ?? setOwnTab)(next);
    setStillOffline(false);
  };

  const retryDraft = () =>
    onEditAgain({ ...EMPTY_COMPOSER, description: s.input ?? "", depth: deep ? "deep" : s.endpoint === "fast_spec" ? "fast" : null });

  const retryOnline = () => {
    setStillOffline(false);
    void spec.refetch().then((r) => setStillOffline(!!r.data?.offline));
  };

  let panel: ReactNode = null;
  if (active === "overview") panel = <Overview view={view} onRetryDraft={retryDraft} />;
  else if (active === "human" || active === "agent") {
    const doc: SpecDoc = active === "human" ? "human" : "codingAgent";
    // Read from this computer's copy, without this document's markdown: rendering it would fail.
    const saved = doc === "human" ? view.hasHumanMarkdown : view.hasAgentMarkdown;
    panel =
      view.offline && !saved ? (
        <NotSavedOffline key={doc} doc={doc} checking={spec.isFetching} stillOffline={stillOffline} onRetry={retryOnline} />
      ) : (
        <DocumentView key={doc} specId={specId} doc={doc} title={title} />
      );
  } else if (active === "scope" && sow) panel = <ScopePanel specId={specId} sow={sow} totalHumanHours={s.totalHumanHours} deep={deep} title={title} />;
  else if (active === "product" && sow) panel = <ProductPanel sow={sow} />;
  else if (active === "stack") panel = <TechStack sow={sow} enriched={s.enrichedTechStack ?? []} />;
  else if (active === "graphs")
    panel = (
      <div className="graphs">
        {s.userFlowGraph && <GraphView graph={s.userFlowGraph} title="User flow" direction="TB" />}
        {s.architectureGraph && <GraphView graph={s.architectureGraph} title="Architecture" direction="LR" />}
        {s.architectureInfographicUrl && <Infographic url={s.architectureInfographicUrl} title={title} />}
      </div>
    );

  return (
    <section className="page page-wide spec-view" aria-labelledby="spec-title">
      <BackButton onBack={onBack} />
      <div className="spec-head">
        <h1 id="spec-title">{title}</h1>
        <div className="row">
          <SpecStatusBadge status={s.status} />
          <span className="badge">{depthLabel(s.endpoint)}</span>
          {spec.isFetching && <span className="muted">Refreshing…</span>}
        </div>
      </div>
      {view.offline && (
        <div className="panel panel-info" role="status">
          <h2>Showing the copy saved on this computer</h2>
          <p>
            The service cannot be reached right now{view.cachedAt ? `; this copy was saved ${formatDateTime(view.cachedAt)}` : ""}.
          </p>
        </div>
      )}
      <Tabs idPrefix="spec" label="Parts of the spec" tabs={tabs} active={active} onChange={changeTab}>
        <Suspense fallback={<p className="skeleton">Opening…</p>}>{panel}</Suspense>
      </Tabs>
    </section>
  );
}

/** The scope explorer, with "Check these stories on my app" and the latest acceptance run's marks. */
function ScopePanel({ specId, sow, totalHumanHours, deep, title }: { specId: string; sow: ScopeOfWork; totalHumanHours?: number; deep: boolean; title: string }) {
  const [runs] = useAcceptanceRuns(specId);
  const marks = useMemo(() => scopeMarks(sow, runs), [sow, runs]);
  const criteria = useMemo(() => acceptanceStories(sow).reduce((n, st) => n + st.criteria.length, 0), [sow]);
  return (
    <>
      <AcceptanceBar specId={specId} criteria={criteria} runs={runs} marks={marks} />
      <div className="row scope-export">
        <ExportStoriesButton sow={sow} title={title} />
      </div>
      <ScopeExplorer sow={sow} totalHumanHours={totalHumanHours} deep={deep} marks={marks} />
    </>
  );
}

function BackButton({ onBack }: { onBack: () => void }) {
  return (
    <button className="btn btn-ghost back" type="button" onClick={onBack}>
      <span aria-hidden="true">←</span> All specs
    </button>
  );
}
