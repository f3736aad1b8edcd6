import { afterEach, describe, expect, it } from "vitest";
import { MAX_MATCHES, findMatches, findSpans, indexText, queryPattern, textSegments } from "./findMatches";
import { DocumentFinder, NO_MATCHES, statusText, type FindStatus } from "./finder";
import { supportsHighlights, unwrapMatches, wrapMatches } from "./findPaint";

const HTML = [
  '<h1 id="top">Recipe Box</h1>',
  "<p>Home cooks share <strong>rec</strong>ipes and a RECIPE list.</p>",
  '<pre><code class="language-ts"><span class="hljs-comment">// the recipe</span>\nconst recipe = 1;</code></pre>',
  "<ul><li>Box</li><li>Recipe</li></ul>",
].join("");

function mount(html = HTML): HTMLElement {
  const root = document.createElement("article");
  root.innerHTML = html;
  document.body.appendChild(root);
  return root;
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("the searched text", () => {
  it("joins a block's text nodes and separates blocks", () => {
    const { text, pieces } = indexText(mount("<h2>A <em>b</em></h2><p>c</p>"));
    expect(text).toBe("A b\n\u0000\nc");
    expect(pieces.map((p) => [p.node.data, p.start])).toEqual([
      ["A ", 0],
      ["b", 2],
      ["c", 6],
    ]);
  });

  it("escapes the query and matches any run of white space", () => {
    expect(queryPattern("   ")).toBeNull();
    expect(queryPattern("a.b (c)")?.source).toBe("a\\.b\\s+\\(c\\)");
    expect(findSpans("x a.b  (C) axb (c)", "A.B (c)").spans).toEqual([{ start: 2, end: 10 }]);
  });

  it("stops at the limit and says so", () => {
    expect(findSpans("aaaa", "a", 3)).toEqual({
      spans: [
        { start: 0, end: 1 },
        { start: 1, end: 2 },
        { start: 2, end: 3 },
      ],
      truncated: true,
    });
    expect(findSpans("aaa", "a", 3).truncated).toBe(false);
    expect(MAX_MATCHES).toBe(5000);
  });
});

describe("matches as ranges over text nodes", () => {
  it("finds every match case-insensitively, across inline elements, never across blocks", () => {
    const root = mount();
    const { ranges, truncated } = findMatches(root, "recipe");
    expect(truncated).toBe(false);
    expect(ranges.map((r) => r.toString())).toEqual(["Recipe", "recipe", "RECIPE", "recipe", "recipe", "Recipe"]);
    // "rec" + "ipes" spans the <strong> and the text after it.
    const across = ranges[1] as Range;
    expect([across.startContainer.textContent, across.startOffset, across.endContainer.textContent, across.endOffset]).toEqual([
      "rec",
      0,
      "ipes and a RECIPE list.",
      3,
    ]);
    // "Box" + "Recipe" are two list items: no match.
    expect(findMatches(root, "box recipe").ranges).toHaveLength(0);
    expect(findMatches(root, "recipe box").ranges.map((r) => r.toString())).toEqual(["Recipe Box"]);
    expect(findMatches(root, "").ranges).toHaveLength(0);
    expect(findMatches(root, "nothing here").ranges).toHaveLength(0);
  });

  it("splits a range into the parts of each text node it covers", () => {
    const root = mount();
    const across = findMatches(root, "recipes").ranges[0] as Range;
    expect(textSegments(across).map((s) => [s.node.data, s.start, s.end])).toEqual([
      ["rec", 0, 3],
      ["ipes and a RECIPE list.", 0, 4],
    ]);
    const inside = findMatches(root, "RECIPE list").ranges[0] as Range;
    expect(textSegments(inside).map((s) => [s.node.data, s.start, s.end])).toEqual([["ipes and a RECIPE list.", 11, 22]]);
  });
});

describe("the <mark> fallback (no CSS Custom Highlight API, as in jsdom)", () => {
  it("is what jsdom gets", () => {
    expect(supportsHighlights()).toBe(false);
  });

  it("wraps each match, one mark per text node, and unwraps to the same DOM", () => {
    const root = mount();
    const before = root.innerHTML;
    const marks = wrapMatches(findMatches(root, "recipe").ranges);
    expect(marks.map((g) => g.map((m) => m.textContent))).toEqual([["Recipe"], ["rec", "ipe"], ["RECIPE"], ["recipe"], ["recipe"], ["Recipe"]]);
    expect(root.querySelector("p")?.innerHTML).toBe(
      "Home cooks share " +
        '<strong><mark class="find-mark" data-match="1">rec</mark></strong><mark class="find-mark" data-match="1">ipe</mark>s and a ' +
        '<mark class="find-mark" data-match="2">RECIPE</mark> list.',
    );
    unwrapMatches(root);
    expect(root.innerHTML).toBe(before);
    expect(root.querySelectorAll("p strong")[0]?.childNodes).toHaveLength(1);
  });
});

describe("the finder", () => {
  function finderOn(root: HTMLElement) {
    const seen: FindStatus[] = [];
    const finder = new DocumentFinder(root, (s) => seen.push(s), false);
    return { finder, seen, last: () => seen.at(-1) ?? NO_MATCHES };
  }

  it("counts, steps both ways with wrap-around, marks the current match and clears on dispose", () => {
    const root = mount();
    const before = root.innerHTML;
    const { finder, last } = finderOn(root);
    finder.search("Recipe");
    expect(last()).toEqual({ count: 6, current: 0, truncated: false });
    expect(statusText("Recipe", last())).toBe("1 of 6");
    const current = () => [...root.querySelectorAll("mark[data-current]")].map((m) => m.textContent).join("");
    expect(current()).toBe("Recipe");
    finder.next();
    expect(statusText("Recipe", last())).toBe("2 of 6");
    expect(current()).toBe("recipe");
    expect(root.querySelectorAll("mark[data-current]")).toHaveLength(2);
    finder.previous();
    finder.previous();
    expect(statusText("Recipe", last())).toBe("6 of 6");
    finder.next();
    expect(last().current).toBe(0);
    finder.search("nothing");
    expect(last()).toEqual(NO_MATCHES);
    expect(statusText("nothing", last())).toBe("No matches");
    expect(statusText(" ", last())).toBe("");
    expect(root.querySelectorAll("mark")).toHaveLength(0);
    finder.search("box");
    expect(statusText("box", last())).toBe("1 of 2");
    finder.dispose();
    expect(root.innerHTML).toBe(before);
  });

  it("searches again when the document changes under it, keeping the current match", async () => {
    const root = mount();
    const { finder, last } = finderOn(root);
    finder.search("recipe");
    finder.next();
    finder.next();
    expect(last()).toEqual({ count: 6, current: 2, truncated: false });
    // As highlight.js does: a code block's HTML replaced.
    const code = root.querySelector("code") as HTMLElement;
    code.innerHTML = '<span class="hljs-keyword">const</span> recipe = <span class="hljs-number">1</span>; // recipe, recipe';
    await new Promise((r) => setTimeout(r, 120));
    expect(last()).toEqual({ count: 7, current: 2, truncated: false });
    expect(root.querySelector("code")?.textContent).toBe("const recipe = 1; // recipe, recipe");
    expect(root.querySelectorAll("code mark")).toHaveLength(3);
    finder.dispose();
    expect(root.querySelectorAll("mark")).toHaveLength(0);
  });
});
