// The library's table: sortable headers over the rows given (already sorted by the caller).
import { useCallback, useLayoutEffect, useRef } from "react";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { SortHeader } from "./SortHeader";
import type { SortKey, SortOrder } from "./sortSpecs";
import { SpecRow } from "./SpecRow";

interface Props {
  caption: string;
  specs: readonly SpecRecord[];
  titles: Readonly<Record<string, string>>;
  order: SortOrder | null;
  onSort: (key: SortKey) => void;
  archived: boolean;
  onArchive: (spec: SpecRecord) => void;
  onUnarchive: (spec: SpecRecord) => void;
}

export function SpecTable({ caption, specs, titles, order, onSort, archived, onArchive, onUnarchive }: Props) {
  const header = { order, onSort };
  // The rows get the same two functions on every render (calling the latest ones given), so that
  // a row whose spec has not changed is not rendered again (SpecRow is memoized).
  const latest = useRef({ onArchive, onUnarchive });
  useLayoutEffect(() => {
    latest.current = { onArchive, onUnarchive };
  });
  const archive = useCallback((spec: SpecRecord) => latest.current.onArchive(spec), []);
  const unarchive = useCallback((spec: SpecRecord) => latest.current.onUnarchive(spec), []);
  return (
    <div className="table-wrap">
      <table className="lib-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <SortHeader sortKey="description" {...header}>
              Description
            </SortHeader>
            <SortHeader sortKey="status" {...header}>
              Status
            </SortHeader>
            <SortHeader sortKey="depth" {...header}>
              Depth
            </SortHeader>
            <SortHeader sortKey="created" {...header}>
              Created
            </SortHeader>
            <SortHeader sortKey="hours" numeric {...header}>
              Hours
            </SortHeader>
            <SortHeader sortKey="credits" numeric {...header}>
              Credits
            </SortHeader>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {specs.map((s) => (
            <SpecRow key={s._id} spec={s} title={titles[s._id]} archived={archived} onArchive={archive} onUnarchive={unarchive} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
