import { describe, expect, it } from "vitest";
import { isSendKey } from "./keys";

describe("isSendKey (Enter sends, Shift+Enter is a new line, never while an IME composes)", () => {
  it.each([
    [{ key: "Enter", shiftKey: false }, true],
    [{ key: "Enter", shiftKey: false, isComposing: false, keyCode: 13 }, true],
    [{ key: "Enter", shiftKey: true }, false],
    [{ key: "Enter", shiftKey: false, isComposing: true }, false],
    [{ key: "Enter", shiftKey: false, isComposing: false, keyCode: 229 }, false],
    [{ key: "Process", shiftKey: false, keyCode: 229 }, false],
    [{ key: "a", shiftKey: false }, false],
  ])("%o → %s", (e, expected) => {
    expect(isSendKey(e)).toBe(expected);
  });
});
