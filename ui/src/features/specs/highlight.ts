// Code highlighting for rendered specs: highlight.js core with the few languages specs use, run
// in small batches so a 1 MB spec with hundreds of code blocks never blocks the window.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

let registered = false;

function register() {
  if (registered) return;
  registered = true;
  hljs.registerLanguage("bash", bash);
  hljs.registerLanguage("css", css);
  hljs.registerLanguage("javascript", javascript);
  hljs.registerLanguage("json", json);
  hljs.registerLanguage("python", python);
  hljs.registerLanguage("rust", rust);
  hljs.registerLanguage("sql", sql);
  hljs.registerLanguage("typescript", typescript);
  hljs.registerLanguage("xml", xml);
  hljs.registerLanguage("yaml", yaml);
  hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
  hljs.registerAliases(["js", "jsx", "mjs", "cjs"], { languageName: "javascript" });
  hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
  hljs.registerAliases(["html", "svg"], { languageName: "xml" });
  hljs.registerAliases(["yml"], { languageName: "yaml" });
  hljs.registerAliases(["py"], { languageName: "python" });
  hljs.registerAliases(["rs"], { languageName: "rust" });
  hljs.configure({ ignoreUnescapedHTML: true });
}

/** The language of a `language-xxx` class, when highlight.js knows it. */
export function languageOf(el: Element): string | null {
  register();
  const cls = [...el.classList].find((c) => c.startsWith("language-"));
  const lang = cls?.slice("language-".length).toLowerCase();
  return lang && hljs.getLanguage(lang) ? lang : null;
}

/** Blocks longer than this stay plain (highlighting them would take too long). */
const MAX_BLOCK_CHARS = 40_000;
const BATCH = 24;

/**
 * Highlights `pre code[class^="language-"]` blocks under `root`, a batch per task. Returns a
 * function that stops what is left (when the document changes or the view closes).
 */
export function highlightWithin(root: HTMLElement): () => void {
  register();
  const blocks = [...root.querySelectorAll<HTMLElement>('pre code[class^="language-"]')];
  let stopped = false;
  let timer: number | undefined;
  let i = 0;
  const step = () => {
    if (stopped) return;
    const end = Math.min(blocks.length, i + BATCH);
    for (; i < end; i++) {
      const el = blocks[i];
      if (!el || el.dataset.highlighted === "yes") continue;
      const lang = languageOf(el);
      if (!lang || (el.textContent ?? "").length > MAX_BLOCK_CHARS) continue;
      const result = hljs.highlight(el.textContent ?? "", { language: lang, ignoreIllegals: true });
      // highlight.js escapes the code it is given: the output holds only its own spans.
      el.innerHTML = result.value;
      el.classList.add("hljs");
      el.dataset.highlighted = "yes";
    }
    if (i < blocks.length) timer = window.setTimeout(step, 0);
  };
  step();
  return () => {
    stopped = true;
    if (timer !== undefined) window.clearTimeout(timer);
  };
}
