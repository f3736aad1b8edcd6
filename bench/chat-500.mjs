#!/usr/bin/env node
// Benchmark: the Chat studio's virtualized thread on a 500-turn conversation (issue 15).
//
//   cd ui && npm run bench:chat               # builds dist-mock, then runs this script
//   node ../bench/chat-500.mjs [--runs N]     # dist-mock already built (N >= 5, default 10)
//
// What is measured (Playwright + Debian's Chromium, headless, the screen tests' flags), on the app
// built with the mock IPC (ui/dist-mock, scenario "gateway-chat-500", ui/src/mock/scenarios/
// gateway-chat-500.ts: 250 questions and 250 replies of five shapes, from one line to a code
// block; replies rendered by the mock's markdown, so Rust's render and the IPC are not included):
// - "open": from the click on the conversation in the list (ChatStudio marks
//   "specdesk:chat:open") to its turns in the DOM and a frame painted (Thread marks
//   "specdesk:chat:painted" and measures "specdesk:chat:open-conversation"). "first open" is on a
//   fresh page (the messages come from conversation_messages and become the tree); "reopen" is
//   another conversation and back in the same page (read through the commands again: a tree
//   just read is not written back, so it comes from the messages too).
// - "scroll": the thread scrolled from its first turn to its last, 120 px a frame (about 7200 px
//   a second at 60 Hz), by setting scrollTop in requestAnimationFrame; the gaps between frames,
//   their p95 and the longest (about 1000 frames, 16 s a run). The floor: 300 frames with nothing
//   scrolling, in the same page.
// Only a window of turns is ever in the DOM: the script checks it stays under 60 turns.
import { DIST_MOCK, launchChromium, serveStatic } from "../ui/playwright/harness.mjs";
import { idleFrames, scrollReport, scrollThread } from "./chat-scroll.mjs";
import { intOption, msRow, settle, stats } from "./stats.mjs";

const SCENARIO = "gateway-chat-500";
const LONG = /^Planning the habit tracker \(500 turns\)/; // ui/src/mock/scenarios/gateway-chat-500.ts
const OTHER = /^Naming ideas/; // ui/src/mock/fixtures.ts
const MEASURE = "specdesk:chat:open-conversation";
const STEP_PX = 120;
const IDLE_FRAMES = 300;
const WARMUPS = 2;
const WAIT_MS = 60_000;

async function main() {
  const runs = intOption(process.argv.slice(2), "--runs", 10, 5);
  const server = await serveStatic(DIST_MOCK);
  let browser;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ colorScheme: "light", viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" });
    context.setDefaultTimeout(WAIT_MS);
    // Every page load starts with no conversation kept in localStorage (a first open).
    await context.addInitScript({ content: "localStorage.clear();" });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    const list = () => page.getByRole("navigation", { name: "Conversations" });

    async function openTimed(name) {
      await page.evaluate((m) => performance.clearMeasures(m), MEASURE);
      await list().getByRole("button", { name }).click();
      const handle = await page.waitForFunction((m) => performance.getEntriesByName(m, "measure")[0]?.duration, MEASURE, { polling: 20 });
      return handle.jsonValue();
    }

    /** Fresh page, Chat open: { first, reopen } in ms. */
    async function openRun() {
      await page.goto(`${server.url}/?scenario=${SCENARIO}`);
      await page.waitForFunction((n) => window.__SPECDESK_MOCK__?.scenario === n, SCENARIO);
      await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway" }).click();
      await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Chat", exact: true }).click();
      await list().getByRole("button", { name: LONG }).waitFor();
      await settle(page);
      const first = await openTimed(LONG);
      await page.locator('.thread > li[aria-posinset="500"]').waitFor();
      await settle(page);
      await list().getByRole("button", { name: OTHER }).click();
      await page.locator('.thread > li[aria-setsize="2"]').first().waitFor();
      await settle(page);
      const reopen = await openTimed(LONG);
      return { first, reopen };
    }

    /** Top to bottom, STEP_PX a frame: the frame gaps (ms) and the most turns in the DOM. */
    async function scrollRun() {
      await page.evaluate(() => {
        document.querySelector(".thread-scroll").scrollTop = 0;
      });
      await page.locator('.thread > li[aria-posinset="1"]').waitFor();
      await settle(page);
      await settle(page);
      return page.evaluate(scrollThread, STEP_PX);
    }

    /** The same number of frames with nothing scrolling: the frame gaps (ms). */
    async function idleRun(frames) {
      return page.evaluate(idleFrames, frames);
    }

    const rows = { first: [], reopen: [], scroll: [], idle: [], p95: [], max: [], most: 0, frames: [], height: 0 };
    console.error(`Warming up (${WARMUPS}), then ${runs} runs...`);
    for (let i = 0; i < WARMUPS + runs; i += 1) {
      const open = await openRun();
      const scroll = await scrollRun();
      const idle = await idleRun(IDLE_FRAMES);
      if (!scroll.bottom) throw new Error("the thread did not reach its bottom in 5000 frames");
      if (scroll.most >= 60) throw new Error(`${scroll.most} turns in the DOM while scrolling: the thread is not virtualized`);
      console.error(`run ${i + 1}: open ${open.first.toFixed(1)} ms, ${scroll.gaps.length} frames scrolling`);
      if (i < WARMUPS) continue;
      rows.first.push(open.first);
      rows.reopen.push(open.reopen);
      rows.scroll.push(...scroll.gaps);
      rows.p95.push(stats(scroll.gaps).p95);
      rows.max.push(stats(scroll.gaps).max);
      rows.idle.push(...idle);
      rows.frames.push(scroll.gaps.length);
      rows.most = Math.max(rows.most, scroll.most);
      rows.height = scroll.height;
    }
    const unhandled = await page.evaluate(() => window.__SPECDESK_MOCK__?.unhandled ?? []);
    if (unhandled.length > 0) problems.push(`commands the mock could not answer: ${unhandled.join(", ")}`);
    if (problems.length > 0) throw new Error(`the page reported errors:\n${problems.join("\n")}`);

    console.log(`\nchat, a 500-turn conversation, ${runs} runs after ${WARMUPS} warm-ups (a fresh page each)\n`);
    console.log("| what | median | p95 | max |\n|---|---|---|---|");
    console.log(msRow("open, first (click to turns painted)", rows.first));
    console.log(msRow("open, reopen (read again from the library)", rows.reopen));
    for (const line of scrollReport(rows, STEP_PX, IDLE_FRAMES)) console.log(line);
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
