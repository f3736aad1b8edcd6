import { describe, expect, test } from "vitest";
import { formatDateTime } from "../../../lib/format";
import { rowDateTime } from "./cells";

describe("library cells", () => {
  test("dates are written as formatDateTime writes them", () => {
    for (const iso of ["2026-11-20T09:30:00.000Z", "2026-01-01T00:00:00.000Z", "2025-07-04T23:59:59.999Z", "", "not a date", null, undefined]) {
      expect(rowDateTime(iso)).toBe(formatDateTime(iso));
    }
  });
});
