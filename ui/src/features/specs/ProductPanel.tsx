// Personas, roles and core functionalities of a spec.
import type { ScopeOfWork } from "../../bindings/ScopeOfWork";

function priorityTone(p: string | undefined): string {
  if (p === "High") return "danger";
  if (p === "Medium") return "warning";
  if (p === "Low") return "neutral";
  return "neutral";
}

function List({ title, items }: { title: string; items: string[] | undefined }) {
  if (!items || items.length === 0) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul>
        {items.map((x, i) => (
          <li key={i}>{x}</li>
        ))}
      </ul>
    </>
  );
}

export function ProductPanel({ sow }: { sow: ScopeOfWork }) {
  const personas = sow.personas ?? [];
  const roles = sow.roles ?? [];
  return (
    <div className="product">
      {personas.length > 0 && (
        <section aria-labelledby="personas-title">
          <h2 id="personas-title">Personas</h2>
          <ul className="persona-grid">
            {personas.map((p, i) => (
              <li key={i} className="card persona">
                <h3>{p.title}</h3>
                <p>{p.description}</p>
                <List title="Primary goals" items={p.primaryGoals} />
                <List title="Pain points" items={p.painPoints} />
                <List title="Key tasks" items={p.keyTasks} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {roles.length > 0 && (
        <section aria-labelledby="roles-title">
          <h2 id="roles-title">Roles</h2>
          <ul className="chips roles">
            {roles.map((r) => (
              <li key={r.shortHand} className="chip">
                <strong>{r.shortHand}</strong> {r.name}
              </li>
            ))}
          </ul>
        </section>
      )}
      {sow.coreFunctionalities.length > 0 && (
        <section aria-labelledby="core-title">
          <h2 id="core-title">Core functionalities</h2>
          <ul className="core-list">
            {sow.coreFunctionalities.map((c, i) => (
              <li key={i} className="core-item">
                <div className="row">
                  <strong>{c.name}</strong>
                  {c.priority && (
                    <span className="badge tone-badge" data-tone={priorityTone(c.priority)}>
                      {c.priority} priority
                    </span>
                  )}
                </div>
                <p>{c.description}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
