import { describe, expect, it } from "vitest";
import type { SpecRecord } from "../../../bindings/SpecRecord";
import { excerpt, specDescription, specName } from "./names";

const CLIMBING = "A booking app for a climbing gym: time slots, memberships and a waiver signed on first visit.";

describe("what a spec is called", () => {
  it("cuts long text at the end of a word", () => {
    expect(excerpt(CLIMBING, 60)).toBe("A booking app for a climbing gym: time slots, memberships…");
    expect(excerpt(CLIMBING, 39)).toBe("A booking app for a climbing gym: time…");
    expect(excerpt(`  ${CLIMBING}  `, 200)).toBe(CLIMBING);
    expect(excerpt("x".repeat(70), 60)).toBe(`${"x".repeat(60)}…`);
  });

  it("uses the local title, else the description, else the file", () => {
    const spec = { _id: "a", created: "", endpoint: "fast_spec", input: " A CRM ", status: "completed", success: true } as SpecRecord;
    expect(specDescription(spec)).toBe("A CRM");
    expect(specName(spec, { a: "Law firm CRM" })).toBe("Law firm CRM");
    expect(specName(spec, { b: "Other" })).toBe("A CRM");
    expect(specDescription({ ...spec, input: "", uploadedFileName: "brief.pdf" })).toBe("From the file brief.pdf");
    expect(specDescription({ ...spec, input: "" })).toBe("Untitled spec");
  });
});
