// Archive and Unarchive from the library's rows: each says what it did in a notice (Archive with
// an Undo), and, since the row is then gone from the table, moves the focus to the "Show archived"
// box (given `boxRef`) rather than leaving it on nothing.
import { useEffect, useRef } from "react";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { useNotice } from "../../../lib/notices";
import { archiveSpec, unarchiveSpec } from "./archive";
import { excerpt, specName } from "./names";

export function useArchiveActions(profileId: string, titles: Readonly<Record<string, string>>) {
  const notice = useNotice();
  const boxRef = useRef<HTMLInputElement>(null);
  // Set by an action, read once the list has rendered without the row.
  const focusBox = useRef(false);
  useEffect(() => {
    if (!focusBox.current) return;
    focusBox.current = false;
    boxRef.current?.focus();
  });

  const archive = (spec: SpecRecord) => {
    archiveSpec(profileId, spec);
    focusBox.current = true;
    notice(`“${excerpt(specName(spec, titles), 60)}” is archived: hidden from the list, still in your library.`, {
      label: "Undo",
      run: () => unarchiveSpec(spec._id),
    });
  };
  const unarchive = (spec: SpecRecord) => {
    unarchiveSpec(spec._id);
    focusBox.current = true;
    notice(`“${excerpt(specName(spec, titles), 60)}” is back in the list.`);
  };
  return { boxRef, archive, unarchive };
}
