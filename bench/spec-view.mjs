#!/usr/bin/env node
// Benchmark: time to open a spec's document in the spec view, for the ~1 MB deep spec of
// crates/core/benches/markdown.rs rendered by Rust, side by side in one run with two baselines.
//
//   cd ui && npm run bench:spec-view            # builds dist-mock, then runs this script
//   node ../bench/spec-view.mjs [--runs N]      # dist-mock already built (N >= 15, default 20)
//
// What is measured (Playwright + Debian's Chromium, headless, the screen tests' flags):
// - "1 MB spec" and "small spec": the app built with the mock IPC (ui/dist-mock, scenario
//   "spec-1mb"), opened on the spec from the library; then the "Human spec" tab is clicked. The
//   app's own performance marks give the time from that click (SpecView marks
//   "specdesk:spec-view:open") to the document's HTML in the DOM and a frame painted
//   (DocumentView marks "specdesk:spec-view:painted" and measures
//   "specdesk:spec-view:open-document"). "first open" is the first document opened after a fresh
//   page load (the document's code chunk loads, render_spec answers, its JSON is parsed);
//   "reopen" is Overview then Human spec again in the same page (the rendered HTML is cached).
// - "innerHTML floor": the same 1 MB HTML set with plain `innerHTML` into an <article
//   class="doc-body"> of a blank page with the app's stylesheet, timed the same way (up to the
//   first frame painted after it): what the browser alone needs to show that HTML.
// The 1 MB HTML is what `specdesk_core::markdown::render` produces: this script runs
// `cargo run -p specdesk-core --example render_markdown -- --deep-spec` into a temporary
// directory (or reads SPECDESK_BENCH_FIXTURE, a file that example wrote) and injects it into the
// page before the app starts. The mock answers render_spec in the page, so the Rust render
// (`cargo bench -p specdesk-core --bench markdown`) and the IPC transfer are not included.
import { spawn } from "node:child_process";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DIST_MOCK, launchChromium, serveStatic } from "../ui/playwright/harness.mjs";
import { intOption, ms, settle, stats } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCENARIO = "spec-1mb";
const SPEC_1MB_INPUT = "A team task board (a 1 MB deep spec)"; // ui/src/mock/scenarios/bench.ts
const SMALL_INPUT = "A recipe-sharing app with meal plans and shopping lists"; // scenarios/specs.ts
const MEASURE = "specdesk:spec-view:open-document";
const WARMUPS = 2;
const WAIT_MS = 120_000;

/** The rendered deep spec: { markdown, html, toc }, from the Rust example (or a file it wrote). */
async function loadFixture() {
  const given = process.env.SPECDESK_BENCH_FIXTURE;
  if (given) return JSON.parse(await readFile(given, "utf8"));
  const dir = await mkdtemp(path.join(tmpdir(), "specdesk-bench-"));
  const file = path.join(dir, "spec-1mb.json");
  try {
    console.error("Rendering the 1 MB deep spec with specdesk_core::markdown::render (cargo run --example render_markdown)...");
    const out = await open(file, "w");
    try {
      await new Promise((resolve, reject) => {
        const child = spawn("cargo", ["run", "-q", "-p", "specdesk-core", "--example", "render_markdown", "--", "--deep-spec"], {
          cwd: ROOT,
          stdio: ["ignore", out.fd, "inherit"],
        });
        child.once("error", reject);
        child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`cargo run --example render_markdown exited with ${code}`))));
      });
    } finally {
      await out.close();
    }
    return JSON.parse(await readFile(file, "utf8"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const runs = intOption(process.argv.slice(2), "--runs", 20, 15);
  const fixture = await loadFixture();
  const rendered = { html: fixture.html, toc: fixture.toc };
  const expectedPre = (fixture.html.match(/<pre>/g) ?? []).length;
  const indexHtml = await readFile(path.join(DIST_MOCK, "index.html"), "utf8").catch(() => {
    throw new Error(`${DIST_MOCK} is missing: build the mock bundle first (npm --prefix ui run build:mock).`);
  });
  const stylesheets = [...indexHtml.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]);

  const server = await serveStatic(DIST_MOCK);
  let browser;
  try {
    browser = await launchChromium();
    // One context (a window of its own) per page: a page behind another in the same window gets
    // its animation frames throttled to about one a second.
    const newContext = async () => {
      const context = await browser.newContext({
        colorScheme: "light",
        viewport: { width: 1280, height: 800 },
        reducedMotion: "reduce",
      });
      context.setDefaultTimeout(WAIT_MS);
      return context;
    };
    const appContext = await newContext();
    await appContext.addInitScript({
      content: `window.__SPECDESK_BENCH_SPEC_1MB__ = ${JSON.stringify({
        markdown: fixture.markdown,
        renderedJson: JSON.stringify(rendered),
      })};`,
    });
    const app = await appContext.newPage();
    const problems = [];
    app.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    app.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });

    const floorContext = await newContext();
    const floorBody = `<!doctype html><html lang="en" data-theme="light"><head><meta charset="UTF-8"><title>floor</title>${stylesheets
      .map((href) => `<link rel="stylesheet" href="${href}">`)
      .join("")}</head><body><main class="page page-wide"><div class="doc-layout"><div class="doc-columns"><nav class="doc-toc"></nav><article class="doc-body print-doc"></article></div></div></main></body></html>`;
    await floorContext.route(`${server.url}/__bench/floor`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: floorBody }),
    );
    const floor = await floorContext.newPage();
    await floor.goto(`${server.url}/__bench/floor`);
    await floor.evaluate((html) => {
      window.__html = html;
    }, fixture.html);

    /** Fresh page on the scenario, the spec opened from the library: { first, reopen } in ms. */
    let loads = 0;
    async function openDocument(input) {
      // A fresh page load (a new query each time) on the library (the hash): without a hash the
      // app reopens the last place shown, which after the first run is the spec's document.
      loads += 1;
      await app.goto(`${server.url}/?scenario=${SCENARIO}&load=${loads}#/specs`);
      await app.waitForFunction((n) => window.__SPECDESK_MOCK__?.scenario === n, SCENARIO);
      await app.getByRole("heading", { level: 1, name: "Specs" }).waitFor();
      await app.getByRole("region", { name: "Library" }).getByRole("button", { name: input }).click();
      await app.locator("#spec-title").waitFor();
      await settle(app);
      const once = async () => {
        await app.evaluate((m) => performance.clearMeasures(m), MEASURE);
        await app.getByRole("tab", { name: "Human spec" }).click();
        const handle = await app.waitForFunction((m) => performance.getEntriesByName(m, "measure")[0]?.duration, MEASURE, {
          polling: 50,
        });
        return handle.jsonValue();
      };
      const first = await once();
      const pre = await app.locator("article.doc-body pre").count();
      if (input === SPEC_1MB_INPUT && pre !== expectedPre) throw new Error(`the 1 MB document shows ${pre} code blocks, not ${expectedPre}`);
      await app.getByRole("tab", { name: "Overview" }).click();
      await app.locator(".overview").waitFor();
      await settle(app);
      const reopen = await once();
      return { first, reopen };
    }

    /** The floor: the same HTML set with innerHTML, up to the first frame painted after it. */
    async function floorOnce() {
      return floor.evaluate(async () => {
        const article = document.querySelector("article");
        article.innerHTML = "";
        const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        await frame();
        await frame();
        const start = performance.now();
        article.innerHTML = window.__html;
        await frame();
        return performance.now() - start;
      });
    }

    const rows = { big: [], bigReopen: [], small: [], smallReopen: [], floor: [] };
    console.error(`Warming up (${WARMUPS}), then ${runs} runs of each, interleaved...`);
    for (let i = 0; i < WARMUPS + runs; i += 1) {
      const big = await openDocument(SPEC_1MB_INPUT);
      const small = await openDocument(SMALL_INPUT);
      const fl = await floorOnce();
      if (i < WARMUPS) continue;
      rows.big.push(big.first);
      rows.bigReopen.push(big.reopen);
      rows.small.push(small.first);
      rows.smallReopen.push(small.reopen);
      rows.floor.push(fl);
    }
    const unhandled = await app.evaluate(() => window.__SPECDESK_MOCK__?.unhandled ?? []);
    if (unhandled.length > 0) problems.push(`commands the mock could not answer: ${unhandled.join(", ")}`);
    if (problems.length > 0) throw new Error(`the page reported errors:\n${problems.join("\n")}`);

    const pairRatio = (a, b) => stats(a.map((x, i) => x / b[i])).median;
    const line = (label, values) => {
      const s = stats(values);
      return `| ${label} | ${ms(s.median)} | ${ms(s.p95)} | ${ms(s.min)} |`;
    };
    console.log(
      `\nspec view, open a document (click on "Human spec" to the document painted), ${runs} runs after ${WARMUPS} warm-ups, interleaved;` +
        ` input: ${fixture.markdown.length} bytes of markdown, ${fixture.html.length} bytes of HTML, ${fixture.toc.length} headings, ${expectedPre} code blocks\n`,
    );
    console.log("| what | median | p95 | min |\n|---|---|---|---|");
    console.log(line("1 MB spec, first open", rows.big));
    console.log(line("1 MB spec, reopen", rows.bigReopen));
    console.log(line("small deep spec, first open", rows.small));
    console.log(line("small deep spec, reopen", rows.smallReopen));
    console.log(line("innerHTML floor (same 1 MB HTML, blank page, app CSS)", rows.floor));
    console.log(
      `\nratios (median of per-run ratios): 1 MB first open / floor ${pairRatio(rows.big, rows.floor).toFixed(2)}x,` +
        ` 1 MB reopen / floor ${pairRatio(rows.bigReopen, rows.floor).toFixed(2)}x,` +
        ` 1 MB first open / small first open ${pairRatio(rows.big, rows.small).toFixed(2)}x`,
    );
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
