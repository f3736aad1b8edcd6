// Element ids of the builder's cells, so an error can be linked to its field and focused.
import type { Cell } from "./model";

export function cellId(rowId: string, cell: Cell): string {
  return `task-${rowId}-${cell}`;
}

export function errorId(rowId: string, cell: Cell): string {
  return `task-${rowId}-${cell}-error`;
}

export const CONCURRENCY_ID = "batch-concurrency";
