import { specStatusInfo, type Tone } from "./status";

export function ToneBadge({ tone, icon, children }: { tone: Tone; icon?: string; children: string }) {
  return (
    <span className="badge tone-badge" data-tone={tone}>
      {icon && <span aria-hidden="true">{icon}</span>}
      {children}
    </span>
  );
}

export function SpecStatusBadge({ status }: { status: string | undefined }) {
  const s = specStatusInfo(status);
  return (
    <ToneBadge tone={s.tone} icon={s.icon}>
      {s.label}
    </ToneBadge>
  );
}
