// A column header of the library that sorts by its column: a button inside the <th>, whose
// aria-sort says the order in use (only the sorted column carries it).
import type { ReactNode } from "react";
import type { SortKey, SortOrder } from "./sortSpecs";

interface Props {
  sortKey: SortKey;
  order: SortOrder | null;
  onSort: (key: SortKey) => void;
  numeric?: boolean;
  children: ReactNode;
}

export function SortHeader({ sortKey, order, onSort, numeric = false, children }: Props) {
  const active = order?.key === sortKey ? order.direction : undefined;
  return (
    <th scope="col" className={numeric ? "num" : undefined} aria-sort={active}>
      <button className="lib-sort" type="button" onClick={() => onSort(sortKey)} data-sorted={active ?? "none"}>
        {children}
        <span className="lib-sort-mark" aria-hidden="true">
          {active === "ascending" ? "▲" : active === "descending" ? "▼" : "↕"}
        </span>
      </button>
    </th>
  );
}
