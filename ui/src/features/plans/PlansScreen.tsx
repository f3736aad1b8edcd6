// The Plans area. With no plan open: the user's projects (PlansHome) and, as a secondary action,
// "Open by project id…". With a plan open (a project id, or a spec id arriving from a spec): that
// plan, followed, and a way back. App routes `{area: "plans", target}` here.
import type { PlanTarget } from "../../ipc/contract";
import { useNavigate } from "../../lib/nav";
import { OpenByProject } from "./OpenByProject";
import { PlansHome } from "./PlansHome";
import { PlanView } from "./PlanView";
import { targetKey } from "./target";
import "./plans.css";

export function PlansScreen({ target }: { target?: PlanTarget }) {
  const navigate = useNavigate();
  const open = (t: PlanTarget) => navigate({ area: "plans", target: t });
  return (
    <section className="page page-wide plans" aria-labelledby="plans-title">
      <div className="plans-head">
        <h1 id="plans-title">Plans</h1>
        {!target && <OpenByProject onOpen={open} />}
      </div>
      <p className="muted">Follow a project's verified plan: features, progress and launch readiness.</p>
      {target ? (
        <>
          <button className="link-button plans-back" type="button" onClick={() => navigate({ area: "plans" })}>
            ← All projects
          </button>
          <PlanView key={targetKey(target)} target={target} />
        </>
      ) : (
        <PlansHome onOpen={open} />
      )}
    </section>
  );
}
