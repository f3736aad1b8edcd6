// The in-app notices of long jobs that ended (a spec, a browser batch, a video), on every screen:
// Rust tells the window once per job (`job-finished`, the job's activity entry), and the notice's
// Open goes to its item. A notice goes away once its item is shown, however it was reached (Open,
// the sidebar, a link); a job that ends while its own place is shown needs no notice at all. A
// click on a desktop notification opens its item too (`open-place`, src-tauri's notify.rs).
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import type { Activity } from "../../bindings/Activity";
import { showCard } from "../../components/Toasts";
import { useAppEvent } from "../../ipc/events";
import type { Navigate, NavTarget } from "../../lib/nav";
import { finishedSentence, opensAt, routeOf, showsPlace } from "./places";

const noticeId = (job: Activity) => `finished:${job.id}`;

export function useJobNotices(route: NavTarget, navigate: Navigate): void {
  // The notices shown now, by toast id, with the place each opens.
  const open = useRef(new Map<string, NavTarget>());
  const routeNow = useRef(route);

  useEffect(() => {
    routeNow.current = route;
    for (const [id, target] of open.current) {
      if (showsPlace(route, target)) {
        toast.dismiss(id);
        open.current.delete(id);
      }
    }
  }, [route]);

  useAppEvent("job-finished", (job) => {
    const target = routeOf(job.place);
    if (showsPlace(routeNow.current, target)) return;
    const id = noticeId(job);
    const failed = job.state === "failed";
    open.current.set(id, target);
    showCard({
      id,
      tone: failed ? "error" : "info",
      duration: 15000,
      onGone: () => open.current.delete(id),
      render: () => (
        <>
          <span>{finishedSentence(job)}</span>
          {failed && job.error && <p>{job.error.message}</p>}
          <button className="btn" type="button" onClick={() => navigate(opensAt(job.place))}>
            Open
          </button>
        </>
      ),
    });
  });

  useAppEvent("open-place", (place) => navigate(opensAt(place)));
}
