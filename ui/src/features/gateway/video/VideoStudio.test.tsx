import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import type { Job } from "../../../ipc/contract";
import { renderScreen } from "../../../lib/testing";
import { VideoStudio } from "./VideoStudio";
import { shownVideoJobs, upsertJob, videoRequest, videoResult } from "./videoJobs";

afterEach(() => {
  cleanup();
  clearMocks();
});

const job = (over: Partial<Job> = {}): Job => ({
  id: 7,
  kind: "video",
  profileId: "sandbox",
  request: { model: "g/veo", prompt: "Boats", seconds: "4" },
  status: "running",
  progress: "Rendering (40%)",
  result: null,
  createdAt: "2026-11-22T08:00:00Z",
  updatedAt: "2026-11-22T08:00:30Z",
  ...over,
});

describe("video jobs", () => {
  it("reads the request and the result the follower writes", () => {
    expect(videoRequest(job())).toEqual({ prompt: "Boats", model: "g/veo", seconds: 4 });
    expect(videoResult(job({ result: { videoId: "v", mediaId: 3, path: "/p.mp4", credits: 6, cost: "x" } }))).toEqual({ videoId: "v", mediaId: 3, path: "/p.mp4", credits: 6 });
    expect(videoResult(job({ result: { videoId: "v", requestId: "req_7", balanceAfter: 94 } }))).toEqual({ videoId: "v", requestId: "req_7", balanceAfter: 94 });
    expect(upsertJob([job({ id: 1 }), job({ id: 2 })], job({ id: 2, status: "completed" })).map((j) => j.status)).toEqual(["running", "completed"]);
    expect(upsertJob([job({ id: 1 })], job({ id: 3 })).map((j) => j.id)).toEqual([3, 1]);
  });

  it("follows a job through job-changed until it is done, then shows what it cost", async () => {
    // The library has the video's file once the job is done (the follower saved it).
    let files: { id: number; kind: "video"; path: string; prompt: string; model: string; profileId: string; createdAt: string }[] = [];
    mockIPC(
      (cmd) => {
        if (cmd === "video_models") return { list: { object: "list", data: [{ id: "g/veo", input: [], output: [], svc: { credits_per_second: 1.5 } }] }, cachedAt: "2026-11-22T09:00:00Z", offline: false };
        if (cmd === "list_jobs") return [job()];
        if (cmd === "list_media") return files;
        if (cmd === "count_media") return files.length;
        return null;
      },
      { shouldMockEvents: true },
    );
    renderScreen(<VideoStudio />);
    const card = await screen.findByRole("listitem", { name: "Video: Boats" });
    expect(within(card).getByText("Rendering (40%)")).toBeTruthy();
    await waitFor(() => expect(within(card).getByText(/^Charged when the video is done: about 6 credits\./)).toBeTruthy());
    files = [{ id: 3, kind: "video", path: "/m/v.mp4", prompt: "Boats", model: "g/veo", profileId: "sandbox", createdAt: "2026-11-22T08:01:00Z" }];
    await act(() => emit("job-changed", job({ status: "completed", progress: "Done", result: { mediaId: 3, path: "/m/v.mp4", credits: 6, cost: 0.6, requestId: "req_7", balanceAfter: 94 } })));
    await waitFor(() => expect(within(card).getByText("Done")).toBeTruthy());
    expect(within(card).getByLabelText("What this call cost").textContent).toBe("Request id req_7 · 6 credits charged · model cost $0.60 · balance after: 94 credits");
    expect(within(card).getByText("This video could not be played here. Use “Show in folder” to open it.")).toBeTruthy();
  });

  it("leaves out a done video whose file was deleted, judged on the whole current list only", () => {
    const done = job({ status: "completed", result: { mediaId: 3, path: "/m/v.mp4" } });
    const running = job({ id: 8 });
    expect(shownVideoJobs([done, running], [{ id: 4 }]).map((j) => j.id)).toEqual([8]);
    expect(shownVideoJobs([done, running], [{ id: 3 }]).map((j) => j.id)).toEqual([7, 8]);
    expect(shownVideoJobs([done, running], null).map((j) => j.id)).toEqual([7, 8]);
  });
});
