// A task's status as a chip: icon and label (never colour alone), its tone as the colour. The
// icons are inline SVG, so they look the same whatever fonts the system has.
import { phaseInfo, type StatusIcon, type TaskPhase } from "./statuses";

const PATHS: Record<StatusIcon, string> = {
  check: "M3 8.5l3 3 7-7",
  cross: "M4 4l8 8M12 4l-8 8",
  clock: "M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M8 5v3.2l2.2 1.4",
  blocked: "M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11M4.2 4.2l7.6 7.6",
  warning: "M8 2l6 11H2zM8 6.5v3M8 11.2v.3",
  loop: "M12.5 8a4.5 4.5 0 1 1-1.3-3.2M12 2.5v2.8H9.2",
  empty: "M8 3a5 5 0 1 0 0 10a5 5 0 1 0 0-10M3.5 12.5l9-9",
  dots: "M3.5 8h.1M8 8h.1M12.5 8h.1",
  play: "M5 3.5l7 4.5-7 4.5z",
  question: "M6 6a2 2 0 1 1 2.8 1.8C8.3 8 8 8.4 8 9v.5M8 11.8v.2",
};

export function StatusIconSvg({ icon }: { icon: StatusIcon }) {
  return (
    <svg className="status-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path d={PATHS[icon]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function StatusChip({ phase }: { phase: TaskPhase }) {
  const info = phaseInfo(phase);
  return (
    <span className="status-chip" data-tone={info.tone} data-status={phase}>
      <StatusIconSvg icon={info.icon} />
      {info.label}
    </span>
  );
}
