import { describe, expect, it } from "vitest";
import type { RecentProject } from "../../bindings/RecentProject";
import type { SpecRecord } from "../../bindings/SpecRecord";
import { mergeProjects, nameFromInput, progressText } from "./home";

const S1 = "6741a0c3e4b0f1a2b3c4d501";
const S2 = "6741a0c3e4b0f1a2b3c4d502";
const S3 = "6741a0c3e4b0f1a2b3c4d503";
const S4 = "6741a0c3e4b0f1a2b3c4d504";
const P1 = "6741a0c3e4b0f1a2b3c4d601";
const P9 = "6741a0c3e4b0f1a2b3c4d609";

function spec(id: string, created: string, input: string, status = "completed"): SpecRecord {
  return { _id: id, created, endpoint: "fast_spec", input, status, success: status === "completed" };
}

function opened(projectId: string, openedAt: string, over: Partial<RecentProject> = {}): RecentProject {
  return { projectId, profileId: "sandbox", openedAt, ...over };
}

describe("mergeProjects", () => {
  it("merges completed specs with opened projects by spec id, newest first", () => {
    const specs = [
      spec(S1, "2026-11-20T10:00:00.000Z", "A recipe box for home cooks"),
      spec(S2, "2026-11-21T10:00:00.000Z", "A habit tracker"),
      spec(S3, "2026-11-22T10:00:00.000Z", "Still running", "processing"),
      spec(S4, "2026-11-19T10:00:00.000Z", "Failed one", "failed"),
    ];
    const recent = [
      opened(P1, "2026-11-23T08:00:00.000Z", { specId: S1, name: "Recipe Box", percent: 56, built: 5, total: 9 }),
      opened(P9, "2026-11-20T12:00:00.000Z", { name: "Imported project" }),
    ];
    const rows = mergeProjects(specs, recent);
    expect(rows.map((r) => [r.key, r.name, progressText(r.progress), r.sortAt, r.target])).toEqual([
      [`spec:${S1}`, "Recipe Box", "56% built · 5 of 9 features", "2026-11-23T08:00:00.000Z", { projectId: P1 }],
      [`spec:${S2}`, "A habit tracker", "Not opened here yet: open it to read its progress", "2026-11-21T10:00:00.000Z", { specId: S2 }],
      [`project:${P9}`, "Imported project", "Nothing planned or built yet", "2026-11-20T12:00:00.000Z", { projectId: P9 }],
    ]);
    expect(rows[0]).toMatchObject({ specId: S1, projectId: P1, specCreated: "2026-11-20T10:00:00.000Z", openedAt: "2026-11-23T08:00:00.000Z" });
  });

  it("sorts a spec by its creation when it was opened before that (the latest time wins)", () => {
    const rows = mergeProjects(
      [spec(S1, "2026-11-25T00:00:00.000Z", "New spec"), spec(S2, "2026-11-10T00:00:00.000Z", "Old spec")],
      [opened(P1, "2026-11-24T00:00:00.000Z", { specId: S2, percent: 0, built: 0, total: 4 })],
    );
    expect(rows.map((r) => [r.name, r.sortAt])).toEqual([
      ["New spec", "2026-11-25T00:00:00.000Z"],
      ["Old spec", "2026-11-24T00:00:00.000Z"],
    ]);
    expect(progressText(rows[1]?.progress)).toBe("0% built · 0 of 4 features");
  });

  it("keeps one row per spec and per project, and an opened project whose spec is not listed on its own", () => {
    const rows = mergeProjects(
      [spec(S1, "2026-11-20T00:00:00.000Z", "One"), spec(S1, "2026-11-20T00:00:00.000Z", "One")],
      [
        opened(P1, "2026-11-22T00:00:00.000Z", { specId: S4, name: "Elsewhere", percent: 100, built: 1, total: 1 }),
        opened(P1, "2026-11-01T00:00:00.000Z", { specId: S4, name: "Older read" }),
      ],
    );
    expect(rows.map((r) => [r.key, r.name, progressText(r.progress), r.specId])).toEqual([
      [`project:${P1}`, "Elsewhere", "100% built · 1 of 1 feature", S4],
      [`spec:${S1}`, "One", "Not opened here yet: open it to read its progress", S1],
    ]);
  });

  it("breaks ties by name and gives untitled rows a name", () => {
    const at = "2026-11-20T00:00:00.000Z";
    const rows = mergeProjects([spec(S2, at, "Zebra app"), spec(S1, at, "  \n  Apple app\nsecond line")], [opened(P9, at, { name: "  " })]);
    expect(rows.map((r) => r.name)).toEqual(["Apple app", "Untitled project", "Zebra app"]);
  });

  it("is empty with nothing completed and nothing opened", () => {
    expect(mergeProjects([spec(S1, "2026-11-20T00:00:00.000Z", "x", "pending")], [])).toEqual([]);
  });
});

describe("nameFromInput", () => {
  it("cuts a long first line at a word", () => {
    const long = "A booking app for a climbing gym with time slots, memberships, waivers signed on the first visit, and a shop for chalk";
    expect(nameFromInput(long)).toBe("A booking app for a climbing gym with time slots, memberships, waivers signed on the…");
    expect(nameFromInput("")).toBe("Untitled project");
  });
});
