// One project's plan: intent, progress, features, launch readiness, app map, last code change
// and progress over time. Read again every 30 seconds while open and on demand; exported as
// Markdown for a coding agent.
import { useEffect, useRef, useState } from "react";
import { ErrorKind } from "../../ipc/contract";
import { useQueryClient } from "@tanstack/react-query";
import type { IpcError, PlanTarget, PlanView as PlanViewData } from "../../ipc/contract";
import type { Intent } from "../../bindings/Intent";
import { call, toIpcError } from "../../ipc/invoke";
import { ErrorPanel } from "../../components/ErrorPanel";
import { useErrorToast } from "../../components/Toasts";
import { formatDateTime, slugify } from "../../lib/format";
import { useNavigate } from "../../lib/nav";
import { useNotice } from "../../lib/notices";
import { AppMapView } from "./AppMapView";
import { FeatureList } from "./FeatureList";
import { LastRunView } from "./LastRunView";
import { LaunchChecklist } from "./LaunchChecklist";
import { ProgressChart } from "./ProgressChart";
import { ProgressSummary } from "./ProgressSummary";
import { PLAN_REFRESH_MS, planKeys, usePlan } from "./queries";

/** Whether an error is get-plan's "No project yet" (a spec still becoming a project). */
export function isNoProjectYet(e: IpcError): boolean {
  return e.kind === ErrorKind.notFound && /no project yet/i.test(e.message);
}

function PlanError({ error, onRetry, byProject }: { error: IpcError; onRetry: () => void; byProject: boolean }) {
  if (isNoProjectYet(error)) {
    return (
      <div className="panel panel-info" role="status">
        <h2>No project yet</h2>
        <p>This spec is still becoming a project. Its plan appears a moment after the spec is completed.</p>
        <p className="muted">Specdesk checks again every 30 seconds while this page is open.</p>
        <button className="btn" type="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  if (error.kind === ErrorKind.notFound) {
    return (
      <div className="panel panel-error" role="alert">
        <h2>Plan not found</h2>
        <p>{error.message}</p>
        <p className="muted">
          {byProject
            ? "Check the project id: it may belong to another account, or the project was deleted."
            : "The spec's project may have been deleted, or it belongs to another account."}
        </p>
        <button className="btn" type="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  }
  // A personal key without a paid plan, a bad key, and everything else: the message and its action.
  return <ErrorPanel error={error} onRetry={onRetry} level={2} />;
}

function IntentBlock({ intent }: { intent: Intent | null }) {
  if (!intent) return <p className="muted">No intent written yet.</p>;
  return (
    <div className="intent">
      <p className="intent-text">{intent.text}</p>
      {intent.proposedBySvc && (
        <p>
          <span className="badge badge-proposed">Proposed by the service</span>{" "}
          <span className="muted">It stays a proposal until you edit it in the project.</span>
        </p>
      )}
      {intent.removedSince.length > 0 && (
        <p className="muted">
          Taken out at your request: <span className="removed-list">{intent.removedSince.join(", ")}</span>
        </p>
      )}
    </div>
  );
}

function ExportActions({ target, name }: { target: PlanTarget; name: string }) {
  const toast = useErrorToast();
  const notice = useNotice();
  const [busy, setBusy] = useState(false);
  const run = async (f: (md: string) => Promise<void>) => {
    setBusy(true);
    try {
      await f(await call("plan_markdown", { target }));
    } catch (e) {
      toast(e);
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    setBusy(true);
    try {
      await call("copy_plan_markdown", { target });
      notice("Copied. Paste the plan into your coding agent.");
    } catch (e) {
      toast(e);
    } finally {
      setBusy(false);
    }
  };
  const fileName = `${slugify(name, "plan")}-plan.md`;
  const save = (choose: boolean) =>
    void run(async (md) => {
      const path = await call("save_document", { fileName, contents: md, choose });
      if (path) notice(`Saved to ${path}`);
    });
  return (
    <div className="row">
      <button
        className="btn"
        type="button"
        disabled={busy}
        onClick={() => void copy()}
      >
        Copy for a coding agent
      </button>
      <button className="btn" type="button" disabled={busy} onClick={() => save(false)}>
        Download .md
      </button>
      <button className="btn" type="button" disabled={busy} onClick={() => save(true)}>
        Save as…
      </button>
    </div>
  );
}

export function PlanBody({ view, target }: { view: PlanViewData; target: PlanTarget }) {
  const navigate = useNavigate();
  const { response, history } = view;
  const plan = response.plan;
  const name = plan?.name ?? "Untitled project";
  return (
    <>
      <div className="plan-head">
        <div>
          <h2 className="plan-name">{name}</h2>
          <p className="muted plan-ids">
            Project <code>{response.projectId}</code>
            {plan?.codeVersion.short && (
              <>
                {" "}
                · code <code>{plan.codeVersion.short}</code>
              </>
            )}
            {plan && <> · computed {formatDateTime(plan.computedAt)}</>}
          </p>
        </div>
        {response.specId && (
          <button className="btn btn-ghost" type="button" onClick={() => navigate({ area: "specs", specId: response.specId ?? undefined })}>
            Open its spec
          </button>
        )}
      </div>
      <ExportActions target={target} name={name} />
      {!plan ? (
        <div className="empty plan-empty">Nothing is planned or built in this project yet. The plan appears once there is.</div>
      ) : (
        <div className="plan-sections">
          <section className="card" aria-labelledby="plan-intent">
            <h3 id="plan-intent">What the app is for</h3>
            <IntentBlock intent={plan.intent} />
          </section>
          <section className="card" aria-labelledby="plan-progress">
            <h3 id="plan-progress">Progress</h3>
            <ProgressSummary progress={plan.progress} />
          </section>
          <section className="card" aria-labelledby="plan-features">
            <h3 id="plan-features">Features</h3>
            <FeatureList features={plan.features} specId={response.specId} />
          </section>
          <section className="card" aria-labelledby="plan-launch">
            <h3 id="plan-launch">Launch readiness</h3>
            <LaunchChecklist ready={plan.readyToLaunch} />
          </section>
          <section className="card" aria-labelledby="plan-map">
            <h3 id="plan-map">App map</h3>
            <AppMapView map={plan.appMap} />
          </section>
          <section className="card" aria-labelledby="plan-run">
            <h3 id="plan-run">Last code change</h3>
            <LastRunView run={plan.lastRun} />
          </section>
        </div>
      )}
      <section className="card" aria-labelledby="plan-history">
        <h3 id="plan-history">Progress over time</h3>
        <ProgressChart history={history} />
      </section>
    </>
  );
}

export function PlanView({ target }: { target: PlanTarget }) {
  const plan = usePlan(target);
  const notice = useNotice();
  const data = plan.data;

  // Each read puts the project first in the library's list of opened projects (Rust records it).
  const qc = useQueryClient();
  const projectId = data?.response.projectId;
  useEffect(() => {
    if (projectId) void qc.invalidateQueries({ queryKey: planKeys.recent });
  }, [projectId, qc]);
  // Each read that stored a new snapshot is said once.
  const readBefore = useRef(false);
  useEffect(() => {
    if (!plan.dataUpdatedAt) return;
    if (readBefore.current && data?.changed) notice("The plan changed; a snapshot was saved for the progress chart.");
    readBefore.current = true;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [plan.dataUpdatedAt]);

  return (
    <div className="plan-view">
      <div className="row plan-refresh">
        <button className="btn" type="button" onClick={() => void plan.refetch()} disabled={plan.isFetching}>
          {plan.isFetching ? "Refreshing…" : "Refresh"}
        </button>
        <span className="muted">
          {plan.dataUpdatedAt ? `Read ${formatDateTime(new Date(plan.dataUpdatedAt).toISOString())}. ` : ""}
          Read again every {PLAN_REFRESH_MS / 1000} seconds while open.
        </span>
      </div>
      {plan.isPending && <p className="skeleton">Opening the plan…</p>}
      {plan.isError && !data && <PlanError error={toIpcError(plan.error)} onRetry={() => void plan.refetch()} byProject={!!target.projectId} />}
      {plan.isError && data && (
        <p className="muted" role="status">
          The last refresh failed ({toIpcError(plan.error).message}); showing the plan as read before.
        </p>
      )}
      {data && <PlanBody view={data} target={target} />}
    </div>
  );
}
