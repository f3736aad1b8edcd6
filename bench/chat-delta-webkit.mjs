#!/usr/bin/env node
// Benchmark: the time Specdesk adds to each streamed chat delta, in the real app (WebKitGTK),
// through the whole path: the service's SSE stream → specdesk-client → core::chat_frames → the
// Channel → the chat studio's reducer → React → the DOM, and on to the frame that paints it.
//
//   cargo build -p specdesk-sandbox            # the service (its chat pace endpoint)
//   npx tauri build --no-bundle --config '{"build":{"beforeBuildCommand":""}}'     # release app
//   SPECDESK_E2E_APP=$PWD/target/release/specdesk scripts/lib/e2e.sh --bench bench/chat-delta-webkit.mjs [--replies 12] [--interval 50] [--reply-chars N]
//   (BENCH_DUMP=1 prints every sample; --reply-chars makes every reply at least N characters long,
//   with plain sentences: the sandbox's `replyChars`)
//
// scripts/lib/e2e.sh gives the setting of the end-to-end tests (Xvfb, a real Secret Service,
// tauri-driver + WebKitWebDriver, a fresh data folder) and a second sandbox as the "real service":
// this script connects to it (a pro key) and sets its chat pace (`POST /_sandbox/gateway/pace`):
// each text delta of a reply waits --interval ms, and the sandbox logs the wall-clock time it
// sent it with the reply's characters so far. In the page, a MutationObserver notes when the
// streaming reply's text changes (the DOM commit) and the next animation frame (the paint). Delta
// k counts as shown at the first commit whose text starts with the reply up to it; its time added is
// that commit's wall-clock time (performance.timeOrigin + now) minus the sandbox's send time.
// Both clocks are this machine's. The raw stream is measured too, in the same run: this script
// reads the same paced replies straight from the sandbox (`POST /v1/messages`, `stream: true`)
// and notes when each text delta's bytes arrive; that send → arrival time is what any reader of
// the stream pays. Per delta, the time Specdesk adds is the app's time minus the raw time of the
// same delta (same reply, same position) of the identical raw reply. Budget (issue 15): the time
// added to the painted frame (Rust → Channel → paint) ≤ 5 ms at p95.
import assert from "node:assert/strict";
import { browser, click, env, launch, outsideService, quit, useOutsideConnection, waitForSelected } from "../tests/e2e/helpers.mjs";
import { intOption, stats } from "./stats.mjs";

const KEY = "sk_sandbox_pro";
const BUDGET_MS = 5;
const PROMPT =
  "Plan a small garden party for twelve friends with simple food, a playlist, games for the children, a rain plan and a short list of what to buy on the day before";

/** The app on the "real service" sandbox, on the Gateway's chat. */
async function setUp() {
  await launch();
  await useOutsideConnection("Bench service", KEY);
  await click("button", "Gateway", await browser.$('nav[aria-label="Areas"]'));
  await browser.$("h1=Gateway").waitForExist({ timeout: 20000 });
  await browser.waitUntil(async () => browser.execute(() => !!document.querySelector("#chat-input")), { timeout: 20000, timeoutMsg: "no chat composer" });
}

/** Starts noting, in the page, each commit of the newest reply's text and the frame after it. */
async function observe() {
  await browser.execute(() => {
    const replyText = () => {
      const bodies = document.querySelectorAll('li.turn[data-role="assistant"] .turn-body');
      return bodies.length ? bodies[bodies.length - 1].textContent.replace(/\s+/g, " ").trim() : "";
    };
    const before = document.querySelectorAll('li.turn[data-role="assistant"]').length;
    const rec = { commits: [], before };
    window.__deltaRec?.observer.disconnect();
    rec.observer = new MutationObserver(() => {
      if (document.querySelectorAll('li.turn[data-role="assistant"]').length <= rec.before) return;
      const commit = { at: performance.timeOrigin + performance.now(), text: replyText(), paint: null };
      rec.commits.push(commit);
      requestAnimationFrame((ts) => {
        commit.paint = performance.timeOrigin + ts;
      });
    });
    rec.observer.observe(document.querySelector("main.main") ?? document.body, { subtree: true, childList: true, characterData: true });
    rec.replyText = replyText;
    window.__deltaRec = rec;
  });
}

/** Sends the prompt, waits for the reply to settle, and returns each delta's times added. */
async function oneReply() {
  await observe();
  const input = await browser.$("#chat-input");
  await input.setValue(PROMPT);
  await browser.keys("Enter");
  const announcer = await browser.$('[data-testid="chat-announcer"]');
  await browser.waitUntil(async () => ((await announcer.getProperty("textContent")) ?? "").includes(PROMPT.slice(-40)), { timeout: 60000, timeoutMsg: "the reply never settled" });
  await browser.pause(100);
  const page = await browser.execute(() => {
    const rec = window.__deltaRec;
    rec.observer.disconnect();
    return { commits: rec.commits, text: rec.replyText() };
  });
  const { sent } = await outsideService("/_sandbox/gateway/pace");
  assert.ok(sent.length > 3, `the reply came in deltas (${sent.length})`);
  // The reply as sent (single spaces): delta k is shown once the page's text holds its prefix.
  const raw = page.text;
  // The commits come in order and the reply only grows: each delta's search starts where the
  // previous one's ended (a long reply has thousands of both).
  let from = 0;
  return sent.map(({ at, chars }) => {
    const need = raw.slice(0, chars).trimEnd();
    while (from < page.commits.length && !page.commits[from].text.startsWith(need)) from += 1;
    const shown = page.commits[from];
    assert.ok(shown, `a commit showing the first ${chars} characters`);
    return { dom: shown.at - at, paint: (shown.paint ?? shown.at) - at };
  });
}

/**
 * One reply read straight from the sandbox's stream, as a client without Specdesk would: each
 * text delta's arrival minus the sandbox's send time for it.
 */
async function rawReply(model) {
  const response = await fetch(`${env("SPECDESK_E2E_SERVICE_URL")}/v1/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model, max_tokens: MAX_TOKENS, stream: true, messages: [{ role: "user", content: PROMPT }] }),
  });
  if (response.status !== 200) assert.fail(`the raw stream was refused: ${response.status} ${await response.text()}`);
  const arrivals = [];
  const decoder = new TextDecoder();
  let buffered = "";
  let chars = 0;
  for await (const chunk of response.body) {
    const at = performance.timeOrigin + performance.now();
    buffered += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const data = buffered.slice(0, end).split("\n").find((l) => l.startsWith("data:"));
      buffered = buffered.slice(end + 2);
      const event = data ? JSON.parse(data.slice(5)) : null;
      if (event?.type === "content_block_delta" && event.delta?.type === "text_delta") {
        chars += event.delta.text.length;
        arrivals.push({ at, chars });
      }
    }
  }
  const { sent } = await outsideService("/_sandbox/gateway/pace");
  assert.equal(sent.length, arrivals.length, "every delta sent arrived");
  return sent.map((s, i) => {
    assert.equal(arrivals[i].chars, s.chars, `delta ${i} carries the characters the sandbox logged`);
    return arrivals[i].at - s.at;
  });
}

const argv = process.argv.slice(2);
const replies = intOption(argv, "--replies", 12);
const interval = intOption(argv, "--interval", 50);
const replyChars = argv.includes("--reply-chars") ? intOption(argv, "--reply-chars", 0) : null;
// Room for the longest reply asked for (the sandbox counts about four characters a token).
const MAX_TOKENS = replyChars ? Math.min(64000, Math.ceil(replyChars / 2)) : 1024;
await setUp();
try {
  await outsideService("/_sandbox/gateway/pace", { deltaIntervalMs: interval, replyChars });
  if (replyChars) {
    // Set as one input event (typed, the clamped number field takes the keys one value at a time).
    await browser.execute((n) => {
      const el = document.getElementById("chat-max-tokens");
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(el, n);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, String(MAX_TOKENS));
    assert.equal(await (await browser.$("#chat-max-tokens")).getValue(), String(MAX_TOKENS));
  }
  const app = [];
  for (let i = 0; i < replies; i++) {
    app.push(await oneReply());
    await click("button", "New chat").catch(() => undefined);
  }
  // The same replies from the same model, read raw: reply i's delta k pairs with the app's.
  const model = await waitForSelected("Model");
  const raw = [];
  for (let i = 0; i < replies; i++) raw.push(await rawReply(model));
  const pairs = app.flatMap((reply, i) => {
    assert.equal(reply.length, raw[i].length, `reply ${i} came in as many deltas raw as in the app`);
    return reply.map((s, k) => ({ ...s, raw: raw[i][k] }));
  });
  if (process.env.BENCH_DUMP) console.log(JSON.stringify(pairs.map((p) => [Math.round(p.raw), Math.round(p.dom), Math.round(p.paint)])));
  const f = (v) => `${v.toFixed(1)} ms`;
  const row = (label, values) => {
    const v = stats(values);
    return `| ${label} | ${f(v.median)} | ${f(v.p95)} | ${f(v.max)} |`;
  };
  const length = replyChars ? `replies of about ${replyChars} characters` : "short replies";
  console.log(`\nChat deltas, ${pairs.length} deltas over ${replies} ${length}, each also read raw, one every ${interval} ms, ${env("SPECDESK_E2E_APP")}`);
  console.log("| per delta | median | p95 | max |\n|---|---|---|---|");
  console.log(row("send → its bytes read raw (the stream's own time)", pairs.map((p) => p.raw)));
  console.log(row("send → the reply's text in the DOM", pairs.map((p) => p.dom)));
  console.log(row("send → the frame that paints it", pairs.map((p) => p.paint)));
  console.log(row("time added to the DOM (app − raw)", pairs.map((p) => p.dom - p.raw)));
  const added = stats(pairs.map((p) => p.paint - p.raw));
  console.log(row("time added to the painted frame (app − raw)", pairs.map((p) => p.paint - p.raw)));
  console.log(`budget: time added to the painted frame ≤ ${BUDGET_MS} ms at p95 → ${added.p95 <= BUDGET_MS ? "met" : "MISSED"}`);
} finally {
  await outsideService("/_sandbox/gateway/pace", { deltaIntervalMs: null }).catch(() => undefined);
  await quit();
}
