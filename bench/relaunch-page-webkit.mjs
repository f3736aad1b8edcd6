#!/usr/bin/env node
// Benchmark: a relaunch's page in the real app (WebKitGTK), from its navigation start to the
// first usable screen it reopens (the Specs list), and the steps between, read back from the
// page's own timings. scripts/bench measures the whole cold start against the bare app; this
// shows where the page's part of it goes, in the setting of the end-to-end tests:
//
//   SPECDESK_E2E_APP=$PWD/target/release/specdesk scripts/lib/e2e.sh --bench bench/relaunch-page-webkit.mjs [--runs 5]
//
// The first launch passes the welcome on the built-in Sandbox and is not measured; each run then
// quits and launches the app again on the same data folder. Per run: DOMContentLoaded, the first
// paint (the "Starting…" screen) when WebKit reports it, and `specdesk:first-usable` (ui/src/lib/startup.ts: the screen's heading in
// the DOM, a frame painted, and a task after it), all in ms from the navigation start.
import assert from "node:assert/strict";
import { browser, env, launch, openArea, quit, useSandbox } from "../tests/e2e/helpers.mjs";
import { intOption, stats } from "./stats.mjs";

/** The page's timings once its first usable screen is marked. */
async function timings() {
  await browser.waitUntil(async () => browser.execute(() => performance.getEntriesByName("specdesk:first-usable").length > 0), {
    timeout: 30000,
    timeoutMsg: "the first usable screen was never marked",
  });
  return browser.execute(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const paint = performance.getEntriesByType("paint").find((p) => p.name === "first-paint" || p.name === "first-contentful-paint");
    const usable = performance.getEntriesByName("specdesk:first-usable")[0];
    return {
      dcl: nav ? nav.domContentLoadedEventEnd : null,
      paint: paint ? paint.startTime : null,
      usable: usable.startTime,
      screen: usable.detail?.screen ?? "",
    };
  });
}

const runs = intOption(process.argv.slice(2), "--runs", 5);
await launch();
await useSandbox();
await openArea("Specs");
await browser.$("main h1").waitForExist({ timeout: 20000 });
await quit();
const rows = [];
for (let i = 0; i < runs; i++) {
  await launch();
  try {
    const t = await timings();
    assert.equal(t.screen, "specs", "a relaunch reopens the Specs list");
    rows.push(t);
  } finally {
    await quit();
  }
}
const f = (v) => (v === null || Number.isNaN(v) ? "n/a" : `${Math.round(v)} ms`);
const col = (k) => {
  const values = rows.map((r) => r[k]).filter((v) => v !== null);
  return values.length ? stats(values) : null;
};
console.log(`\nRelaunch to the Specs list, ${runs} runs, ${env("SPECDESK_E2E_APP")}; ms from the navigation start`);
console.log("| step | median | min | max |\n|---|---|---|---|");
for (const [k, label] of [
  ["dcl", "DOMContentLoaded"],
  ["paint", "first paint (start screen)"],
  ["usable", "first usable screen"],
]) {
  const s = col(k);
  console.log(`| ${label} | ${s ? f(s.median) : "n/a"} | ${s ? f(s.min) : "n/a"} | ${s ? f(s.max) : "n/a"} |`);
}
