// The tech stack grouped by category, each item with the reason it was chosen, helpful links and
// alternatives (from `enrichedTechStack`).
import type { EnrichedTech } from "../../bindings/EnrichedTech";
import type { ScopeOfWork } from "../../bindings/ScopeOfWork";
import { ExternalLink, isWebUrl } from "../../lib/external";

export interface StackGroup {
  category: string;
  items: { name: string; enriched?: EnrichedTech }[];
}

/** Categories in the spec's order, each with its items; enriched items no category names go to "Other". */
export function stackGroups(sow: ScopeOfWork | undefined, enriched: EnrichedTech[]): StackGroup[] {
  const byName = new Map(enriched.map((e) => [e.name.toLowerCase(), e]));
  const groups: StackGroup[] = [];
  const placed = new Set<string>();
  const grouped = sow?.techStackGrouped ?? {};
  const categories = Object.keys(grouped).length
    ? Object.entries(grouped)
    : Object.entries(
        (sow?.techStack ?? []).reduce<Record<string, string[]>>((acc, t) => {
          (acc[t.category] ??= []).push(t.name);
          return acc;
        }, {}),
      );
  for (const [category, names] of categories) {
    groups.push({
      category,
      items: names.map((name) => {
        placed.add(name.toLowerCase());
        return { name, enriched: byName.get(name.toLowerCase()) };
      }),
    });
  }
  const rest = enriched.filter((e) => !placed.has(e.name.toLowerCase()));
  if (rest.length) groups.push({ category: "Other", items: rest.map((e) => ({ name: e.name, enriched: e })) });
  return groups;
}

function Link({ href, children }: { href: string; children: string }) {
  return isWebUrl(href) ? <ExternalLink href={href}>{children}</ExternalLink> : <span>{children}</span>;
}

export function TechStack({ sow, enriched }: { sow: ScopeOfWork | undefined; enriched: EnrichedTech[] }) {
  const groups = stackGroups(sow, enriched);
  if (groups.length === 0) return <div className="empty">This spec names no tech stack.</div>;
  return (
    <div className="stack">
      {groups.map((g) => (
        <section key={g.category} className="stack-group" aria-label={g.category}>
          <h2>{g.category}</h2>
          <ul className="stack-items">
            {g.items.map(({ name, enriched: e }) => (
              <li key={name} className="card stack-item">
                <h3>{e?.link ? <Link href={e.link}>{name}</Link> : name}</h3>
                {e?.useFor && (
                  <p>
                    <strong>Used for:</strong> {e.useFor}
                  </p>
                )}
                {e?.reason && (
                  <p>
                    <strong>Why:</strong> {e.reason}
                  </p>
                )}
                {e?.description && <p className="muted">{e.description}</p>}
                {e && e.helpfulLinks.length > 0 && (
                  <>
                    <h4>Helpful links</h4>
                    <ul>
                      {e.helpfulLinks.map((l, i) => (
                        <li key={i}>
                          <Link href={l.url}>{l.description || l.url}</Link>
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {e && e.alternatives.length > 0 && (
                  <>
                    <h4>Alternatives</h4>
                    <ul>
                      {e.alternatives.map((a, i) => (
                        <li key={i}>
                          {a.link ? <Link href={a.link}>{a.name}</Link> : <strong>{a.name}</strong>}
                          {a.description && <span className="muted"> — {a.description}</span>}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
