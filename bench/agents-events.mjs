#!/usr/bin/env node
// Benchmark: events a second the live batch view absorbs with 1000 tasks while its frames stay
// within a 60 Hz frame, in Chromium on the mock build.
//
//   cd ui && npm run bench:agents-events                   # builds dist-mock, then runs this script
//   node ../bench/agents-events.mjs [--rates 1000,2000] [--seconds 5]   # dist-mock already built
//
// The app built with the mock IPC (ui/dist-mock, scenario "agents-events",
// ui/src/mock/scenarios/agents-events.ts), Playwright + Debian's Chromium, headless, the screen
// tests' flags, 1280x800. For each rate: a fresh page, Browser agents, the 1000-task batch opened
// from the history (nothing selected: the header and the virtualized task list), then the mock's
// stream paced at that rate (task events a second, plus each task's result), in ~16 ms frames of
// JSON text parsed on delivery, as Rust sends them (crates/core/src/agents/frames.rs). After
// WARMUP_S of it, the page records for --seconds: the time between animation frames (rAF time
// stamps) and the events the view applied (`data-events-applied`, the reducer's count, read from
// the DOM React committed). A first row measures the same view idle (rate 0).
// The events per task grow with the rate so the batch lasts the whole step (agents-events-lib.mjs).
// The stream is made in the page itself, so its own cost (building the JSON text, parsing it) is
// counted in the frames, as the web view's parse of a Channel message is.
import { DIST_MOCK, launchChromium, serveStatic } from "../ui/playwright/harness.mjs";
import { CONCURRENCY, WARMUP_S, parseArgs, perTaskFor, report, startRecording, stopRecording, summarize } from "./agents-events-lib.mjs";

const SCENARIO = "agents-events";
const BATCH = "6750bbbb0000000000001000"; // ui/src/mock/scenarios/agents-events.ts
const WAIT_MS = 30_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function measure(browser, url, rate, seconds) {
  const context = await browser.newContext({ colorScheme: "light", viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
  context.setDefaultTimeout(WAIT_MS);
  const perTask = perTaskFor(rate, seconds);
  await context.addInitScript({
    content: `window.__SPECDESK_BENCH_AGENTS__ = ${JSON.stringify({ rate: 0, perTask, concurrency: CONCURRENCY, sent: 0 })};`,
  });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  try {
    await page.goto(`${url}/?scenario=${SCENARIO}`);
    await page.waitForFunction((n) => window.__SPECDESK_MOCK__?.scenario === n, SCENARIO);
    await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Browser agents" }).click();
    await page.getByRole("region", { name: "Batch history" }).getByRole("button", { name: `Open batch ${BATCH}` }).click();
    const view = page.getByRole("region", { name: `Batch ${BATCH}` });
    await view.getByRole("listbox", { name: "Tasks" }).waitFor();
    await sleep(500);
    await page.evaluate((r) => {
      window.__SPECDESK_BENCH_AGENTS__.rate = r;
    }, rate);
    await sleep(WARMUP_S * 1000);
    const sent0 = await page.evaluate(() => window.__SPECDESK_BENCH_AGENTS__.sent);
    await page.evaluate(startRecording);
    await sleep(seconds * 1000);
    const rec = await page.evaluate(stopRecording);
    const sent1 = await page.evaluate(() => window.__SPECDESK_BENCH_AGENTS__.sent);
    const ended = await page.evaluate(() => window.__SPECDESK_BENCH_AGENTS__.ended === true);
    if (ended && rate > 0) problems.push(`the batch ended before the window did at ${rate}/s`);
    if (problems.length > 0) throw new Error(`the page reported errors:\n${problems.join("\n")}`);
    return summarize({ rate, perTask, offered: rate > 0 ? sent1 - sent0 : undefined, applied: rec.applied, ms: rec.ms, deltas: rec.deltas, lag: sent1 - rec.appliedTotal });
  } finally {
    await context.close();
  }
}

async function main() {
  const { rates, seconds } = parseArgs(process.argv.slice(2));
  const server = await serveStatic(DIST_MOCK);
  let browser;
  try {
    browser = await launchChromium();
    const rows = [];
    for (const rate of [0, ...rates]) {
      console.error(`rate ${rate}/s: ${WARMUP_S} s warm-up, then ${seconds} s measured...`);
      const row = await measure(browser, server.url, rate, seconds);
      console.error(`  p95 ${row.frames.p95.toFixed(1)} ms, applied ${Math.round(row.appliedPerS)}/s, ${row.perTask} events per task`);
      rows.push(row);
    }
    console.log(`\nlive batch view, 1000 tasks, Chromium (mock build), ${seconds} s per rate after ${WARMUP_S} s warm-up\n`);
    console.log(report(rows));
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
