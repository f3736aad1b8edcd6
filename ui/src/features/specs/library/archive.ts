// The local archive of the library: a spec archived here is hidden from the list (it stays on the
// service and in the library), kept in localStorage by spec id with the connection it belongs to
// and a copy of its row, so "Show archived" can list it without asking the service.
import { useMemo, useSyncExternalStore } from "react";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { localMap } from "./localMap";

export const ARCHIVE_KEY = "specdesk.library.archived";

export interface ArchivedSpec {
  /** The connection (profile id) whose library holds the spec. */
  connection: string;
  /** When it was archived (ISO 8601). */
  at: string;
  /** The spec's row as last seen. */
  spec: SpecRecord;
}

function isArchivedSpec(v: unknown): v is ArchivedSpec {
  if (typeof v !== "object" || v === null) return false;
  const a = v as Partial<ArchivedSpec>;
  return (
    typeof a.connection === "string" &&
    typeof a.at === "string" &&
    typeof a.spec === "object" &&
    a.spec !== null &&
    typeof a.spec._id === "string" &&
    typeof a.spec.input === "string"
  );
}

const archive = localMap(ARCHIVE_KEY, isArchivedSpec);

export function archiveSpec(connection: string, spec: SpecRecord, now: Date = new Date()): void {
  archive.set(spec._id, { connection, at: now.toISOString(), spec });
}

export function unarchiveSpec(specId: string): void {
  archive.set(specId, undefined);
}

export function isArchived(specId: string): boolean {
  return archive.get(specId) !== undefined;
}

/** Updates the kept copy of archived specs the service just listed (a status that moved on). */
export function refreshArchived(specs: readonly SpecRecord[]): void {
  for (const spec of specs) {
    const kept = archive.get(spec._id);
    if (kept && JSON.stringify(kept.spec) !== JSON.stringify(spec)) archive.set(spec._id, { ...kept, spec });
  }
}

/** The archived specs of one connection, the most recently archived first. */
export function archivedOf(all: Readonly<Record<string, ArchivedSpec>>, connection: string): ArchivedSpec[] {
  return Object.values(all)
    .filter((a) => a.connection === connection)
    .sort((a, b) => b.at.localeCompare(a.at));
}

/** The archived specs of `connection` (re-renders when the archive changes). */
export function useArchived(connection: string): ArchivedSpec[] {
  const all = useSyncExternalStore(archive.subscribe, archive.all);
  return useMemo(() => archivedOf(all, connection), [all, connection]);
}

/** Reads the archive from storage again (tests). */
export function reloadArchive(): void {
  archive.reload();
}
