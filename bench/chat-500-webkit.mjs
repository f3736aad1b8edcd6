#!/usr/bin/env node
// Benchmark: the Chat studio's virtualized thread on a 500-turn conversation in the real app
// (WebKitGTK), the counterpart of chat-500.mjs (Chromium, mock build): replies rendered by Rust's
// markdown through the IPC, the library read from SQLite.
//
//   cargo build -p specdesk-sandbox            # the e2e harness's second sandbox
//   npx tauri build --debug --no-bundle --features e2e-hooks    # or a release build:
//   SPECDESK_E2E_APP=$PWD/target/release/specdesk scripts/lib/e2e.sh --bench bench/chat-500-webkit.mjs [--runs N]
//
// scripts/lib/e2e.sh gives the end-to-end tests' setting (Xvfb 1400x900, tauri-driver,
// WebKitWebDriver, a fresh data folder). The app is started once to make its library (the welcome
// done on the built-in Sandbox), closed, and the conversation is written into its library
// (library.sqlite, with Python's sqlite3: 250 questions and 250 replies of the five shapes of
// ui/src/mock/scenarios/gateway-chat-500.ts). Then, started again: Gateway, Chat, the conversation
// opened, and per run the thread scrolled from its first turn to its last, 120 px a frame
// (scrollThread, chat-scroll.mjs), and 300 frames with nothing scrolling (the floor).
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { browser, env, launch, openArea, openStudio, quit, useSandbox } from "../tests/e2e/helpers.mjs";
import { idleFrames, scrollReport, scrollThread } from "./chat-scroll.mjs";
import { intOption, ms, stats } from "./stats.mjs";

const TITLE = "Planning the habit tracker (500 turns)";
const STEP_PX = 120;
const IDLE_FRAMES = 300;
const WARMUPS = 1;

// The five reply shapes of the mock scenario, written by Python into the library.
const SEED = String.raw`
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
topics = ["streaks", "reminders", "team boards", "check-ins", "weekly email", "billing", "onboarding", "offline mode", "exports", "dark theme"]
def reply(n, topic):
    k = n % 5
    if k == 0: return f"Short answer for turn {n}: keep **{topic}** simple."
    if k == 1: return f"About *{topic}* (turn {n}):\n\n- what the user sees first\n- what they can change\n- what is kept on this computer\n- what goes to the service"
    if k == 2: return "\n\n".join(f"Paragraph {p + 1} of turn {n}. {topic} needs a clear rule: say what happens, when it happens and what the user can undo. Keep each screen to one job." for p in range(3))
    if k == 3:
        name = "".join(c for c in topic if c.isalnum())
        return f"A sketch for {topic} (turn {n}):\n\n` + "```" + String.raw`ts\nexport function {name}Of(day: number): string {{\n  return day > 0 ? \"kept\" : \"new\";\n}}\n` + "```" + String.raw`\n\nThen test it with a few days."
    return f"Turn {n}: {topic} is fine as it is. " + " ".join(["Check it again next week."] * 4)
at = "2026-11-20T09:00:00.000Z"
cur = db.execute("INSERT INTO conversations (profile_id, title, model, created_at, updated_at, activity) VALUES ('sandbox', ?, 'anthropic/claude-sonnet-4.5', ?, ?, 1000000)", (sys.argv[2], at, at))
cid = cur.lastrowid
for i in range(500):
    n = i + 1
    topic = topics[(i // 2) % len(topics)]
    if i % 2 == 0:
        text = f"Turn {n}: what about {topic}?" + (" And how does it work for a team of twelve, with people in three time zones?" if n % 7 == 0 else "")
        db.execute("INSERT INTO messages (conversation_id, role, content_json, created_at, cut) VALUES (?, 'user', ?, ?, 0)", (cid, json.dumps(text), at))
    else:
        db.execute("INSERT INTO messages (conversation_id, role, content_json, model, request_id, credits_charged, created_at, cut) VALUES (?, 'assistant', ?, 'anthropic/claude-sonnet-4.5', ?, 0.02, ?, 0)", (cid, json.dumps([{"type": "text", "text": reply(n, topic)}]), f"req_long_{n}", at))
db.commit()
`;

const settle = () => browser.execute(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

async function main() {
  const runs = intOption(process.argv.slice(2), "--runs", 5, 3);
  await launch();
  await useSandbox();
  await quit();
  execFileSync("python3", ["-c", SEED, join(env("SPECDESK_DATA_DIR"), "library.sqlite"), TITLE]);

  await launch();
  try {
    await openArea("Gateway");
    await openStudio("Chat");
    const list = await browser.$('nav[aria-label="Conversations"]');
    const open = await list.$(`button*=${TITLE}`);
    await open.waitForClickable({ timeout: 20000 });
    await open.click();
    await browser.$('.thread > li[aria-posinset="500"]').waitForExist({ timeout: 60000 });
    const rows = { scroll: [], p95: [], max: [], idle: [], most: 0, frames: [], height: 0 };
    console.error(`Warming up (${WARMUPS}), then ${runs} runs...`);
    for (let i = 0; i < WARMUPS + runs; i += 1) {
      await browser.execute(() => {
        document.querySelector(".thread-scroll").scrollTop = 0;
      });
      await browser.$('.thread > li[aria-posinset="1"]').waitForExist({ timeout: 30000 });
      await settle();
      await settle();
      const scroll = await browser.execute(scrollThread, STEP_PX);
      const idle = await browser.execute(idleFrames, IDLE_FRAMES);
      if (!scroll.bottom) throw new Error("the thread did not reach its bottom in 5000 frames");
      if (scroll.most >= 60) throw new Error(`${scroll.most} turns in the DOM while scrolling: the thread is not virtualized`);
      console.error(`run ${i + 1}: ${scroll.gaps.length} frames scrolling, p95 ${ms(stats(scroll.gaps).p95)}`);
      if (i < WARMUPS) continue;
      rows.scroll.push(...scroll.gaps);
      rows.p95.push(stats(scroll.gaps).p95);
      rows.max.push(stats(scroll.gaps).max);
      rows.idle.push(...idle);
      rows.frames.push(scroll.gaps.length);
      rows.most = Math.max(rows.most, scroll.most);
      rows.height = scroll.height;
    }
    console.log(`\nchat in WebKitGTK, a 500-turn conversation, ${runs} runs after ${WARMUPS} warm-up (the same page)\n`);
    console.log("| what | median | p95 | max |\n|---|---|---|---|");
    for (const line of scrollReport(rows, STEP_PX, IDLE_FRAMES)) console.log(line);
  } finally {
    await quit();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
