// The row under the search box: the filters, and the "Show archived" box once there is something
// archived (or the archived specs are shown, so the way back stays).
import type { RefObject } from "react";
import type { LibraryFilters } from "../libraryFilters";
import { FilterFields } from "./FilterFields";

interface Props {
  /** Prefix of the element ids. */
  id: string;
  filters: LibraryFilters;
  onChange: (filters: LibraryFilters) => void;
  /** How many specs of this connection are archived. */
  archivedCount: number;
  showArchived: boolean;
  onShowArchived: (show: boolean) => void;
  /** The "Show archived" box, for the focus after Archive or Unarchive (./useArchiveActions.ts). */
  boxRef: RefObject<HTMLInputElement | null>;
}

export function FilterRow({ id, filters, onChange, archivedCount, showArchived, onShowArchived, boxRef }: Props) {
  return (
    <div className="row lib-filters">
      <FilterFields id={id} filters={filters} onChange={onChange} />
      {(archivedCount > 0 || showArchived) && (
        <label className="lib-check lib-archived-toggle">
          <input ref={boxRef} type="checkbox" checked={showArchived} onChange={(e) => onShowArchived(e.target.checked)} />
          Show archived ({archivedCount})
        </label>
      )}
    </div>
  );
}
