import { afterEach, describe, expect, it } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { call, CommandError, toIpcError } from "./invoke";

afterEach(() => clearMocks());

describe("call", () => {
  it("resolves with the command's result", async () => {
    mockIPC((cmd) => (cmd === "credits_balance" ? { profileId: "sandbox", creditsRemaining: 10000, at: "t" } : null));
    await expect(call("credits_balance")).resolves.toEqual({ profileId: "sandbox", creditsRemaining: 10000, at: "t" });
  });

  it("rejects with a CommandError carrying the IpcError", async () => {
    const ipc = { kind: "invalidKey", message: "The service did not accept your API key.", status: 401 };
    mockIPC(() => {
      throw ipc;
    });
    const err = await call("test_connection", { profileId: "p" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as CommandError).ipc).toEqual(ipc);
  });
});

describe("toIpcError", () => {
  it("never loses the message and never returns a bare string", () => {
    expect(toIpcError("boom")).toEqual({ kind: "internal", message: "boom" });
    expect(toIpcError(undefined).kind).toBe("internal");
    expect(toIpcError({ kind: "network", message: "m" })).toEqual({ kind: "network", message: "m" });
  });
});
