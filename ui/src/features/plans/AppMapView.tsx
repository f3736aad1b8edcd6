// The app map: screens, API routes (marking those that write data) and storage found in the
// code, each list showing "25 of N" when the service cut it; anchors as file:line.
import type { AppMap } from "../../bindings/AppMap";
import { formatDateTime } from "../../lib/format";
import { cutLabel, isCut, parseAnchor } from "./progress";

function Anchor({ anchor }: { anchor: string | null }) {
  const a = parseAnchor(anchor);
  if (!a) return <span className="muted">no file</span>;
  return (
    <code className="anchor" title={a.line !== null ? `${a.file}, line ${a.line}` : a.file}>
      {a.file}
      {a.line !== null && `:${a.line}`}
    </code>
  );
}

function ListHead({ id, title, list, noun }: { id: string; title: string; list: { count: number; items: unknown[] }; noun: string }) {
  return (
    <>
      <h4 id={id}>
        {title} <span className="count">({cutLabel(list)})</span>
      </h4>
      {isCut(list) && (
        <p className="muted cut-note">
          Showing the first {list.items.length} of {list.count} {noun}; the service lists at most {list.items.length}.
        </p>
      )}
    </>
  );
}

export function AppMapView({ map }: { map: AppMap | null }) {
  if (!map) return <p className="muted">The app map appears once there is code.</p>;
  return (
    <div className="appmap">
      <p className="muted">
        {map.mappedAt ? `Mapped ${formatDateTime(map.mappedAt)}` : "Not mapped yet"}
        {map.codeVersion && (
          <>
            {" "}
            at code version <code>{map.codeVersion}</code>
          </>
        )}
      </p>
      <div className="appmap-cols">
        <section aria-labelledby="map-screens">
          <ListHead id="map-screens" title="Screens" list={map.screens} noun="screens" />
          {map.screens.items.length === 0 ? (
            <p className="muted">None found.</p>
          ) : (
            <ul className="map-list">
              {map.screens.items.map((s, i) => (
                <li key={`${s.name}-${i}`}>
                  <strong>{s.name}</strong>
                  {s.path && <code className="route">{s.path}</code>}
                  <Anchor anchor={s.anchor} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="map-endpoints">
          <ListHead id="map-endpoints" title="API routes" list={map.endpoints} noun="routes" />
          {map.endpoints.items.length === 0 ? (
            <p className="muted">None found.</p>
          ) : (
            <ul className="map-list">
              {map.endpoints.items.map((e, i) => (
                <li key={`${e.name}-${i}`}>
                  <code className="route">{e.name}</code>
                  {e.writes && (
                    <span className="badge tone-badge" data-tone="warning">
                      <span aria-hidden="true">✎</span>Writes data
                    </span>
                  )}
                  <Anchor anchor={e.anchor} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="map-storage">
          <ListHead id="map-storage" title="Storage" list={map.storage} noun="places" />
          {map.storage.items.length === 0 ? (
            <p className="muted">None found.</p>
          ) : (
            <ul className="map-list">
              {map.storage.items.map((s, i) => (
                <li key={`${s.name}-${i}`}>
                  <strong>{s.name}</strong>
                  <span className="muted">
                    {s.kind} in {s.where}
                  </span>
                  <Anchor anchor={s.anchor} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
