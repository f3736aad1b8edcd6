// The app map: screens, API routes (marking those that write data) and storage found in the
// code, each list showing "25 of N" when the service cut it; anchors as file:line.
import type { ReactNode } from "react";
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

/** One list of the map: its heading with "N of M", each item's own content, then its anchor. */
function MapList<T extends { name: string; anchor: string | null }>({
  id,
  title,
  noun,
  list,
  children,
}: {
  id: string;
  title: string;
  noun: string;
  list: { count: number; items: T[] };
  children: (item: T) => ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <ListHead id={id} title={title} list={list} noun={noun} />
      {list.items.length === 0 ? (
        <p className="muted">None found.</p>
      ) : (
        <ul className="map-list">
          {list.items.map((item, i) => (
            <li key={`${item.name}-${i}`}>
              {children(item)}
              <Anchor anchor={item.anchor} />
            </li>
          ))}
        </ul>
      )}
    </section>
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
        <MapList id="map-screens" title="Screens" noun="screens" list={map.screens}>
          {(s) => (
            <>
              <strong>{s.name}</strong>
              {s.path && <code className="route">{s.path}</code>}
            </>
          )}
        </MapList>
        <MapList id="map-endpoints" title="API routes" noun="routes" list={map.endpoints}>
          {(e) => (
            <>
              <code className="route">{e.name}</code>
              {e.writes && (
                <span className="badge tone-badge" data-tone="warning">
                  <span aria-hidden="true">✎</span>Writes data
                </span>
              )}
            </>
          )}
        </MapList>
        <MapList id="map-storage" title="Storage" noun="places" list={map.storage}>
          {(s) => (
            <>
              <strong>{s.name}</strong>
              <span className="muted">
                {s.kind} in {s.where}
              </span>
            </>
          )}
        </MapList>
      </div>
    </div>
  );
}
