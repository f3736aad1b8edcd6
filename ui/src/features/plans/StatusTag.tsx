import { featureStatusLook } from "./status";

/** A feature's status: its colour, icon and words (`statusText`). */
export function StatusTag({ status, statusText }: { status: string; statusText?: string | null }) {
  const look = featureStatusLook(status, statusText);
  return (
    <span className="status-tag" data-status={look.known ? status : "unknown"} title={look.meaning} style={{ ["--tag" as string]: `var(${look.token})` }}>
      <span className="status-icon" aria-hidden="true">
        {look.icon}
      </span>
      <span>{look.words}</span>
    </span>
  );
}
