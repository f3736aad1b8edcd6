import { describe, expect, it } from "vitest";
import { FEATURE_STATUSES, STATUS_ORDER, featureStatusLook, humanize, statusLabel } from "./status";

describe("feature status looks", () => {
  it("gives every status of the spec's table its own colour, icon and words", () => {
    const table = STATUS_ORDER.map((s) => {
      const l = featureStatusLook(s);
      return [s, l.token, l.icon, l.words];
    });
    expect(table).toEqual([
      ["works", "--status-works", "✓", "Works"],
      ["built_not_checked", "--status-built", "●", "Built, not checked yet"],
      ["changed_since_check", "--status-changed", "↻", "Changed since its check"],
      ["needs_a_look", "--status-look", "!", "Needs a look"],
      ["not_working", "--status-broken", "✕", "Not working"],
      ["in_progress", "--status-progress", "◐", "In progress"],
      ["planned", "--status-planned", "○", "Planned"],
      ["out_of_scope", "--status-out", "⊘", "Out of scope"],
      ["removed", "--status-removed", "⌫", "Removed"],
    ]);
    expect(new Set(table.map((t) => t[1])).size).toBe(9);
    expect(new Set(table.map((t) => t[2])).size).toBe(9);
    expect(Object.keys(FEATURE_STATUSES).sort()).toEqual([...STATUS_ORDER].sort());
  });

  it("shows the service's statusText when it is given", () => {
    expect(featureStatusLook("planned", "Suggested").words).toBe("Suggested");
    expect(featureStatusLook("changed_since_check", "Changed since its check passed").words).toBe("Changed since its check passed");
    expect(featureStatusLook("works", "  ").words).toBe("Works");
  });

  it("keeps unknown statuses, in a neutral look with their own words", () => {
    expect(featureStatusLook("waiting_for_review")).toEqual(
      expect.objectContaining({ token: "--status-unknown", icon: "?", words: "Waiting for review", known: false, status: "waiting_for_review" }),
    );
    expect(featureStatusLook("waiting_for_review", "Waiting for your review").words).toBe("Waiting for your review");
    expect(humanize("")).toBe("Unknown");
    expect(statusLabel("not_working")).toBe("Not working");
  });
});
