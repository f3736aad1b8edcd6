#!/usr/bin/env node
// Benchmark: events a second the live batch view absorbs with 1000 tasks while its frames stay
// within a 60 Hz frame, in the real app (WebKitGTK), through the whole path: the service's SSE
// stream → specdesk-client → the job runner's follower → the batch's feed → `watch_batch`'s
// frames (one Channel message per ~16 ms) → the reducer → React → paint.
//
//   cargo build -p specdesk-sandbox            # the service (its pace endpoint)
//   npx tauri build --debug --no-bundle --features e2e-hooks    # the app (target/debug/specdesk)
//   scripts/lib/e2e.sh --bench bench/agents-events-webkit.mjs [--rates 1000,2000] [--seconds 5]
//   SPECDESK_E2E_APP=$PWD/target/release/specdesk scripts/lib/e2e.sh --bench bench/agents-events-webkit.mjs
//
// scripts/lib/e2e.sh gives the setting of the end-to-end tests: Xvfb (1400x900), a real Secret
// Service, tauri-driver + WebKitWebDriver, a fresh data folder, and a second sandbox
// (target/debug/specdesk-sandbox, time scale 0, in memory) as the "real service": this script adds
// a connection to it (organization key) and uses it, so the app's embedded sandbox (which writes
// its state file as batches change) takes no part. For each rate it sets the service's pace
// (`POST /_sandbox/agents/pace`: task events a second over the batch, 20 tasks at a time, events
// per task growing with the rate so the batch lasts the step, see agents-events-lib.mjs), pastes
// 1000 tasks into the builder ("Paste rows"), sets 20 tasks at once and runs them live: the view
// of the new batch opens below the builder and is scrolled into view (nothing selected: the header
// and the virtualized task list). After WARMUP_S the page records for --seconds the time between
// animation frames (rAF time stamps) and the events the view applied (`data-events-applied`);
// the service's count of events sent gives the rate actually offered. Then it waits for the batch
// to finish before the next rate. A first row measures the Browser agents screen idle. It also
// counts, in the page, the app's `job-changed` broadcasts and their size (printed per rate): the
// job runner's broadcasts are what the web view receives besides the Channel.
import { browser, click, env, launch, outsideService, quit, useOutsideConnection } from "../tests/e2e/helpers.mjs";
import { CONCURRENCY, TASKS, WARMUP_S, parseArgs, perTaskFor, report, startRecording, stopRecording, summarize } from "./agents-events-lib.mjs";

const KEY = "sk_sandbox_org";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The app on the "real service" sandbox, on the Browser agents screen. */
async function setUp() {
  await launch();
  await useOutsideConnection("Bench service", KEY);
  await click("button", "Browser agents", await browser.$('nav[aria-label="Areas"]'));
  await browser.$("h1=Browser agents").waitForExist({ timeout: 20000 });
}

/** Puts 1000 tasks in the builder through "Paste rows" and sets the tasks at once. */
async function fillBuilder() {
  const form = await browser.$('form[aria-label="New batch"]');
  await click("button", "Paste rows", form);
  const rows = Array.from({ length: TASKS }, (_, i) => `http://127.0.0.1:9/item/${i + 1}\tRead item ${i + 1}`).join("\n");
  // The value is set as a paste would, in one input event (typing 40 KB key by key takes minutes).
  const setValue = (selector, value) =>
    browser.execute(
      (sel, text) => {
        const el = document.querySelector(sel);
        const set = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value").set;
        set.call(el, text);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      },
      selector,
      value,
    );
  await setValue(".paste-panel textarea", rows);
  await click("button", "Add these rows", form);
  await setValue('form[aria-label="New batch"] .concurrency-input', String(CONCURRENCY));
  const run = await browser.$('form[aria-label="New batch"] button[type="submit"]');
  await browser
    .waitUntil(async () => (await run.isEnabled()) && (await run.getText()) === `Run ${TASKS.toLocaleString("en-US")} tasks`, { timeout: 60000 })
    .catch(async () => {
      const why = await browser.execute(() => {
        const form = document.querySelector('form[aria-label="New batch"]');
        const text = form?.innerText ?? "";
        return `${form?.querySelector('button[type="submit"]')?.textContent}; …${text.slice(-600)}`;
      });
      throw new Error(`Run 1,000 tasks never became enabled: ${why}`);
    });
  return run;
}

/** Counts the app's `job-changed` broadcasts and their JSON size, from the page (as `listen` does). */
async function countJobChanges() {
  await browser.executeAsync((done) => {
    const t = window.__TAURI_INTERNALS__;
    const seen = { n: 0, bytes: 0 };
    window.__jobChanges = seen;
    const handler = t.transformCallback((e) => {
      seen.n += 1;
      seen.bytes += JSON.stringify(e.payload).length;
    });
    t.invoke("plugin:event|listen", { event: "job-changed", target: { kind: "Any" }, handler }).then(() => done(), () => done());
  });
}
const jobChanges = () => browser.execute(() => ({ ...window.__jobChanges }));

const applied = () => browser.execute(() => Number(document.querySelector(".batch-view")?.getAttribute("data-events-applied") ?? -1));

async function measureRate(rate, seconds) {
  const perTask = perTaskFor(rate, seconds);
  await outsideService("/_sandbox/agents/pace", { eventsPerSecond: rate, eventsPerTask: perTask });
  const before = (await outsideService("/_sandbox/agents/pace")).emitted;
  const run = await fillBuilder();
  await run.click();
  // A build older than `data-events-applied` (-1): frame times only.
  await browser.waitUntil(async () => (await applied()) !== 0 && (await browser.$(".batch-view .task-row").isExisting()), {
    timeout: 60000,
    timeoutMsg: "the new batch's view applied no event",
  });
  await browser.execute(() => document.querySelector(".batch-view")?.scrollIntoView({ block: "start" }));
  await sleep(WARMUP_S * 1000);
  const t0 = Date.now();
  const e0 = (await outsideService("/_sandbox/agents/pace")).emitted;
  const j0 = await jobChanges();
  await browser.execute(startRecording);
  await sleep(seconds * 1000);
  const rec = await browser.execute(stopRecording);
  const j1 = await jobChanges();
  const e1 = (await outsideService("/_sandbox/agents/pace")).emitted;
  const t1 = Date.now();
  const offered = ((e1 - e0) * rec.ms) / (t1 - t0);
  const known = (await applied()) >= 0;
  const row = summarize({
    rate,
    perTask,
    offered,
    applied: known ? rec.applied : undefined,
    ms: rec.ms,
    deltas: rec.deltas,
    lag: known ? e1 - before - rec.appliedTotal : undefined,
  });
  row.jobChanges = { perS: ((j1.n - j0.n) * 1000) / rec.ms, bytes: (j1.n - j0.n) > 0 ? (j1.bytes - j0.bytes) / (j1.n - j0.n) : 0 };
  // The next batch starts once this one has ended (and the view has caught up).
  await browser.waitUntil(async () => (await browser.$(".batch-view").getText()).includes("Finished —"), {
    timeout: 600000,
    interval: 1000,
    timeoutMsg: `the batch at ${rate}/s never finished`,
  });
  return row;
}

async function main() {
  const { rates, seconds } = parseArgs(process.argv.slice(2));
  await setUp();
  await countJobChanges();
  const rows = [];
  try {
    console.error(`idle: ${seconds} s measured...`);
    await browser.execute(startRecording);
    await sleep(seconds * 1000);
    const idle = await browser.execute(stopRecording);
    rows.push(summarize({ rate: 0, applied: 0, ms: idle.ms, deltas: idle.deltas }));
    for (const rate of rates) {
      console.error(`rate ${rate}/s: ${WARMUP_S} s warm-up, then ${seconds} s measured...`);
      const row = await measureRate(rate, seconds);
      console.error(`  p95 ${row.frames.p95.toFixed(1)} ms, applied ${row.appliedPerS === undefined ? "?" : Math.round(row.appliedPerS)}/s, ${row.perTask} events per task, behind ${row.lag}; job-changed ${Math.round(row.jobChanges.perS)}/s of ${Math.round(row.jobChanges.bytes)} B`);
      rows.push(row);
    }
  } finally {
    await outsideService("/_sandbox/agents/pace", { eventsPerSecond: null }).catch(() => undefined);
    await quit().catch(() => undefined);
  }
  console.log(`\nlive batch view, 1000 tasks, WebKitGTK (${env("SPECDESK_E2E_APP")}), ${seconds} s per rate after ${WARMUP_S} s warm-up\n`);
  console.log(report(rows));
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exitCode = 1;
});
