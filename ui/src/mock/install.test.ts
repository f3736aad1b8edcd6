import { afterEach, describe, expect, it } from "vitest";
import { Channel, invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import { clearMocks } from "@tauri-apps/api/mocks";
import type { CreditsView, Job } from "../ipc/contract";
import { installMock } from "./install";
import { defineScenario } from "./registry";

type JobEventLike = { type: string; job?: Job };

defineScenario("test-gated-job", {
  follow_job: async ({ jobId, onEvent }, ctx) => {
    const channel = ctx.channel<JobEventLike>(onEvent);
    const job = ctx.db.jobs.find((j) => j.id === jobId) as Job;
    channel.send({ type: "update", job: { ...job, status: "running" } });
    await ctx.gate("finish");
    const done = { ...job, status: "completed" as const };
    channel.send({ type: "done", job: done });
    return done;
  },
});

afterEach(() => {
  clearMocks();
  delete window.__SPECDESK_MOCK__;
});

function registered(id: number): boolean {
  const internals = (window as unknown as { __TAURI_INTERNALS__: { callbacks: Map<number, unknown> } }).__TAURI_INTERNALS__;
  return internals.callbacks.has(id);
}

describe("the mock IPC of the screen tests", () => {
  it("answers every command from the base state: the Sandbox, active, with 10000 credits", async () => {
    const control = installMock("?scenario=default");
    expect(control.scenario).toBe("default");
    expect(await invoke("list_profiles")).toMatchObject([{ id: "sandbox", builtIn: true, active: true, key: { hasKey: true } }]);
    expect(await invoke("credits_balance")).toMatchObject({ profileId: "sandbox", creditsRemaining: 10000 });
    expect(await invoke("app_info")).toMatchObject({ firstRun: false });
    expect(control.calls.map((c) => c.cmd)).toEqual(["list_profiles", "credits_balance", "app_info"]);
  });

  it("rejects with the scenario's IpcError", async () => {
    installMock("?scenario=broke");
    await expect(invoke("credits_balance")).rejects.toMatchObject({
      kind: "insufficientCredits",
      action: { label: "Top up", url: "https://example.com/account/top-up" },
    });
  });

  it("refuses an unknown scenario, naming the known ones", () => {
    expect(() => installMock("?scenario=nope")).toThrow(/Unknown mock scenario "nope". Known scenarios: .*default/);
  });

  it("records a command nothing answers and rejects it with an IpcError", async () => {
    const control = installMock("");
    await expect(invoke("no_such_command")).rejects.toMatchObject({ kind: "internal" });
    expect(control.unhandled).toEqual(["no_such_command"]);
  });

  it("streams a job on its Channel in order, then ends the channel", async () => {
    installMock("?scenario=default");
    const job = await invoke<Job>("submit_spec", {
      draft: { depth: "fast", input: "A recipe box for families.", docUrls: [] },
    });
    expect(job.status).toBe("submitted");
    const events: JobEventLike[] = [];
    const onEvent = new Channel<JobEventLike>((e) => events.push(e));
    const done = await invoke<Job>("follow_job", { streamId: "s1", jobId: job.id, onEvent });
    expect(events.map((e) => [e.type, e.job?.status])).toEqual([
      ["update", "running"],
      ["done", "completed"],
    ]);
    expect(done.status).toBe("completed");
    expect(registered(onEvent.id)).toBe(false);
  });

  it("holds a stream at a gate while the test pushes events", async () => {
    const control = installMock("?scenario=test-gated-job");
    const events: JobEventLike[] = [];
    const onEvent = new Channel<JobEventLike>((e) => events.push(e));
    const result = invoke<Job>("follow_job", { streamId: "s2", jobId: 1, onEvent });
    await expect.poll(() => events.length).toBe(1);
    expect(control.send("follow_job", { type: "update", job: { id: 1, status: "running", progress: "Half way" } })).toBe(true);
    expect(events.map((e) => e.type)).toEqual(["update", "update"]);
    control.release("finish");
    expect((await result).status).toBe("completed");
    expect(events.map((e) => e.type)).toEqual(["update", "update", "done"]);
    expect(control.send("follow_job", { type: "update" })).toBe(false);
    expect(registered(onEvent.id)).toBe(false);
  });

  it("delivers app events to listen() until unlisten", async () => {
    const control = installMock("");
    const got: CreditsView[] = [];
    const stop = await listen<CreditsView>("credits-changed", (e) => got.push(e.payload));
    expect(control.listening()).toEqual(["credits-changed"]);
    await invoke("credits_balance");
    control.emit("credits-changed", { profileId: "sandbox", creditsRemaining: 5, at: "2026-11-22T10:00:00.000Z" });
    expect(got.map((v) => v.creditsRemaining)).toEqual([10000, 5]);
    stop();
    control.emit("credits-changed", { profileId: "sandbox", creditsRemaining: 1, at: "2026-11-22T10:01:00.000Z" });
    expect(got).toHaveLength(2);
    expect(control.listening()).toEqual([]);
  });
});
