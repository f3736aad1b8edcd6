// A feature's detail panel: its status and what it means, stories done of total, whether it is
// counted, its scope (and how to confirm a suggested one), what it extends and what extends it,
// the parts taken out, its id.
import { useEffect, useId, useRef } from "react";
import type { Feature } from "../../bindings/Feature";
import { useNavigate } from "../../lib/nav";
import { featureFacts } from "./featureFacts";
import { featureStatusLook } from "./status";
import { StatusTag } from "./StatusTag";

interface Props {
  id: string;
  feature: Feature;
  features: Feature[];
  /** The plan's spec, when it names one: "Open its spec" is offered for a suggested feature. */
  specId: string | null;
  onSelect: (featureId: string) => void;
  onClose: () => void;
}

export function FeatureDetail({ id, feature: f, features, specId, onSelect, onClose }: Props) {
  const navigate = useNavigate();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const facts = featureFacts(f, features, !!specId);
  const look = featureStatusLook(f.status, f.statusText);
  useEffect(() => heading.current?.focus(), [f.id]);
  const byName = (name: string) => features.find((o) => o.partOf === null && o.name === name);
  return (
    <section
      id={id}
      className="feature-detail"
      aria-labelledby={headingId}
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
    >
      <div className="feature-detail-head">
        <h4 id={headingId} ref={heading} tabIndex={-1}>
          {f.name}
        </h4>
        <button className="btn btn-ghost btn-small" type="button" onClick={onClose} aria-label={`Close the details of ${f.name}`}>
          Close
        </button>
      </div>
      <p className="feature-detail-status">
        <StatusTag status={f.status} statusText={f.statusText} /> <span className="muted">{look.meaning}</span>
      </p>
      {facts.confirm && (
        <div className="feature-confirm">
          <p>{facts.confirm}</p>
          {specId && (
            <button className="btn btn-small" type="button" onClick={() => navigate({ area: "specs", specId })}>
              Open its spec
            </button>
          )}
        </div>
      )}
      <dl className="feature-facts">
        <div>
          <dt>Stories</dt>
          <dd>{facts.stories}</dd>
        </div>
        <div>
          <dt>Counted in progress</dt>
          <dd>{facts.counted}</dd>
        </div>
        <div>
          <dt>Scope</dt>
          <dd>{facts.scope}</dd>
        </div>
        {f.addedByAgent && (
          <div>
            <dt>Added by</dt>
            <dd>The coding agent</dd>
          </div>
        )}
        <div>
          <dt>Extends</dt>
          <dd>
            {!facts.extends ? (
              "Nothing: a feature of its own"
            ) : facts.extends.present ? (
              <button className="link-button" type="button" onClick={() => onSelect(byName(facts.extends?.name ?? "")?.id ?? f.id)}>
                {facts.extends.name}
              </button>
            ) : (
              `${facts.extends.name} (not in this plan)`
            )}
          </dd>
        </div>
        {facts.extendedBy.length > 0 && (
          <div>
            <dt>Extended by</dt>
            <dd>
              <ul className="plain-list">
                {facts.extendedBy.map((c) => (
                  <li key={c.id}>
                    <button className="link-button" type="button" onClick={() => onSelect(c.id)}>
                      {c.name}
                    </button>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
        <div>
          <dt>Parts taken out</dt>
          <dd>
            {facts.removed.length === 0 ? (
              "None"
            ) : (
              <ul className="plain-list">
                {facts.removed.map((p, i) => (
                  <li key={`${i}-${p}`}>{p}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>Feature id</dt>
          <dd>
            <code>{f.id}</code>
          </dd>
        </div>
      </dl>
    </section>
  );
}
