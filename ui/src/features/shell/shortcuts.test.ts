import { describe, expect, it } from "vitest";
import { isTypingTarget, mouseHistoryOf, shortcutOf } from "./shortcuts";
import { keysText, shortcutList } from "./HelpSheet";

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean; isComposing: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe("shortcutOf", () => {
  it("opens the palette with Ctrl+K (⌘K on macOS), even in a field", () => {
    expect(shortcutOf(key("k", { ctrlKey: true }), false, false)).toBe("palette");
    expect(shortcutOf(key("K", { ctrlKey: true }), true, false)).toBe("palette");
    expect(shortcutOf(key("k", { metaKey: true }), false, true)).toBe("palette");
    expect(shortcutOf(key("k", { metaKey: true }), false, false)).toBeNull();
    expect(shortcutOf(key("k", { ctrlKey: true }), false, true)).toBeNull();
    expect(shortcutOf(key("k", { ctrlKey: true, shiftKey: true }), false, false)).toBeNull();
    expect(shortcutOf(key("k"), false, false)).toBeNull();
  });

  it("opens the help with ? only when not typing", () => {
    expect(shortcutOf(key("?", { shiftKey: true }), false, false)).toBe("help");
    expect(shortcutOf(key("?", { shiftKey: true }), true, false)).toBeNull();
    expect(shortcutOf(key("?", { ctrlKey: true, shiftKey: true }), false, false)).toBeNull();
  });

  it("goes back and forward with Alt+Left / Alt+Right", () => {
    expect(shortcutOf(key("ArrowLeft", { altKey: true }), false, false)).toBe("back");
    expect(shortcutOf(key("ArrowRight", { altKey: true }), true, false)).toBe("forward");
    expect(shortcutOf(key("ArrowLeft", { altKey: true }), false, true)).toBe("back");
    // Option+Left moves by word in a macOS text field.
    expect(shortcutOf(key("ArrowLeft", { altKey: true }), true, true)).toBeNull();
    expect(shortcutOf(key("ArrowLeft", { altKey: true, shiftKey: true }), false, false)).toBeNull();
    expect(shortcutOf(key("ArrowLeft"), false, false)).toBeNull();
  });

  it("ignores keys while an input method composes", () => {
    expect(shortcutOf(key("k", { ctrlKey: true, isComposing: true }), false, false)).toBeNull();
  });

  it("reads the mouse's back and forward buttons", () => {
    expect([0, 1, 2, 3, 4].map(mouseHistoryOf)).toEqual([null, null, null, "back", "forward"]);
  });
});

describe("isTypingTarget", () => {
  it("knows text fields from other controls", () => {
    const el = (html: string) => {
      const div = document.createElement("div");
      div.innerHTML = html;
      return div.firstElementChild;
    };
    expect(isTypingTarget(el('<input type="text">'))).toBe(true);
    expect(isTypingTarget(el("<input>"))).toBe(true);
    expect(isTypingTarget(el('<input type="search">'))).toBe(true);
    expect(isTypingTarget(el("<textarea></textarea>"))).toBe(true);
    expect(isTypingTarget(el("<select></select>"))).toBe(true);
    expect(isTypingTarget(el('<div role="textbox"></div>'))).toBe(true);
    expect(isTypingTarget(el('<input type="checkbox">'))).toBe(false);
    expect(isTypingTarget(el('<input type="radio">'))).toBe(false);
    expect(isTypingTarget(el("<button></button>"))).toBe(false);
    expect(isTypingTarget(el("<h1></h1>"))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget(window)).toBe(false);
  });
});

describe("the help sheet's list", () => {
  it("names the keys of each system", () => {
    expect(shortcutList(false).map((s) => [keysText(s.keys), s.does])).toEqual([
      ["Ctrl+K", "Open the command palette: go to an area, start a new spec, open a spec, switch connection"],
      ["?", "Show these shortcuts (when not typing in a field)"],
      ["Alt+←", "Go back"],
      ["Alt+→", "Go forward"],
      ["Ctrl+Enter", "Send the spec described in the composer"],
      ["Enter", "Send a chat message in the Gateway"],
      ["Shift+Enter", "Start a new line in a chat message"],
      ["↑ or ↓", "Move through the command palette's list"],
      ["Esc", "Close the palette or this sheet"],
    ]);
    expect(shortcutList(true).slice(0, 5).map((s) => keysText(s.keys))).toEqual(["⌘+K", "?", "⌥+←", "⌥+→", "⌘+Enter"]);
  });
});
