import { describe, expect, test } from "vitest";
import { formatCreditsWord, formatDateTime } from "../../../lib/format";
import { rowCredits, rowDateTime } from "./cells";

describe("library cells", () => {
  test("dates are written as formatDateTime writes them", () => {
    for (const iso of ["2026-11-20T09:30:00.000Z", "2026-01-01T00:00:00.000Z", "2025-07-04T23:59:59.999Z", "", "not a date", null, undefined]) {
      expect(rowDateTime(iso)).toBe(formatDateTime(iso));
    }
  });

  test("credits are written as formatCreditsWord writes them", () => {
    for (const n of [0, 1, 1.5, 2, 23.456, 1234.5, 10000]) expect(rowCredits(n)).toBe(formatCreditsWord(n));
  });
});
