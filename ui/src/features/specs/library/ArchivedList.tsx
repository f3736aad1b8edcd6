// "Show archived": the specs archived on this computer that match the filters, listed from their
// kept copies (the service is not asked), or why there are none.
import type { ReactNode } from "react";
import type { SpecRecord } from "../../../bindings/SpecRecord";

interface Props {
  /** How many specs of this connection are archived (matching the filters or not). */
  archivedCount: number;
  /** The archived specs matching the filters. */
  specs: SpecRecord[];
  /** The table of these specs (sorted, with their actions). */
  table: (specs: SpecRecord[]) => ReactNode;
}

export function ArchivedList({ archivedCount, specs, table }: Props) {
  return (
    <>
      <p className="hint lib-note">Archived specs are hidden from the list on this computer only; they stay in your library on the service.</p>
      {specs.length > 0 ? (
        table(specs)
      ) : (
        <div className="empty">
          {archivedCount > 0
            ? "No archived spec matches these filters. Change or clear them to see more."
            : "No archived specs. Archive a spec to hide it from the list; Unarchive brings it back."}
        </div>
      )}
    </>
  );
}
