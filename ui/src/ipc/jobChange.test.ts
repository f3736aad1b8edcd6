import { describe, expect, it } from "vitest";
import type { Job, JobChange } from "./contract";
import { upsertJobChange, wholeJob } from "./jobChange";

const job = (id: number, over: Partial<Job> = {}): Job => ({
  id,
  kind: "batch",
  profileId: "sandbox",
  idempotencyKey: `k${id}`,
  request: { tasks: [{ url: `http://127.0.0.1:9/${id}`, instruction: `Read ${id}` }] },
  status: "running",
  result: null,
  createdAt: "2026-11-25T10:00:00Z",
  updatedAt: "2026-11-25T10:00:00Z",
  ...over,
});

/** The broadcast of `j` after its first one: without its request. */
const slim = (j: Job): JobChange => {
  const change: JobChange = { ...j };
  delete change.request;
  return change;
};

describe("job-changed merged into a list", () => {
  it("keeps the request the list holds when the change comes without it", () => {
    const list = [job(2), job(1)];
    const { list: next, stale } = upsertJobChange(list, slim(job(1, { progress: "3 of 4 tasks finished" })), 10);
    expect(stale).toBe(false);
    expect(next.map((j) => j.id)).toEqual([2, 1]);
    expect(next[1]).toEqual(job(1, { progress: "3 of 4 tasks finished" }));
  });

  it("puts a new job first with the request it came with, within the limit", () => {
    const { list: next, stale } = upsertJobChange([job(2), job(1)], job(3), 2);
    expect(stale).toBe(false);
    expect(next.map((j) => j.id)).toEqual([3, 2]);
    expect(next[0]?.request).toEqual(job(3).request);
  });

  it("says the list is stale for a job it does not hold, sent without its request", () => {
    const list = [job(1)];
    const out = upsertJobChange(list, slim(job(5)), 10);
    expect(out).toEqual({ list, stale: true });
  });

  it("takes a request that came with the change over the one kept", () => {
    const edited = { tasks: [] };
    expect(wholeJob({ ...slim(job(1)), request: edited }, job(1))?.request).toEqual(edited);
    expect(wholeJob(slim(job(1)), undefined)).toBeNull();
  });
});
