import { describe, expect, it } from "vitest";
import { checkApiKey, checkBaseUrl, checkProfileName, checkProjectId } from "./validate";

describe("checkBaseUrl (same rule as the Rust side)", () => {
  it("accepts https anywhere and http on this computer only", () => {
    for (const ok of ["https://api.example.com", "https://x.org/svc", "http://127.0.0.1:8787", "http://localhost:3000", "http://[::1]:9"]) {
      expect(checkBaseUrl(ok)).toBeNull();
    }
  });
  it("refuses clear text to the network with the reason", () => {
    expect(checkBaseUrl("http://api.example.com")).toBe(
      "The address must start with https:// so your API key is never sent in clear. Plain http:// is allowed only for this computer (localhost).",
    );
    expect(checkBaseUrl("api.example.com")).toBe(
      '"api.example.com" is not a web address. Enter it in full, for example https://api.example.com.',
    );
    expect(checkBaseUrl("")).toBe("Enter the service address, for example https://api.example.com.");
    expect(checkBaseUrl("ftp://x.org")).toBe("Addresses starting with ftp: are not supported. Use https://.");
    expect(checkBaseUrl("https://u:p@x.org")).toMatch(/user name or password/);
    expect(checkBaseUrl("https://x.org/?a=1")).toMatch(/\? or #/);
  });
});

describe("other fields", () => {
  it("needs a name, a key without spaces and a 24-hex project id", () => {
    expect(checkProfileName("  ")).toBe("Give this connection a name.");
    expect(checkProfileName("Work")).toBeNull();
    expect(checkApiKey("")).toBe("Paste your API key.");
    expect(checkApiKey("sk live")).toMatch(/no spaces/);
    expect(checkApiKey("sk_live_abc")).toBeNull();
    expect(checkProjectId("")).toBeNull();
    expect(checkProjectId("0123456789abcdef01234567")).toBeNull();
    expect(checkProjectId("xyz")).toMatch(/24 characters/);
  });
});
