#!/usr/bin/env node
// Benchmark: the Images studio's gallery of 2,000 generated images in the real app (WebKitGTK):
// how long it takes to open, the frames while it is scrolled from its first image to its last
// (the library read 500 at a time as the virtual grid nears its end), and the app's memory.
//
//   cargo build -p specdesk-sandbox            # the e2e harness's second sandbox
//   npx tauri build --features e2e-hooks       # a release build (or the debug one, for a try)
//   SPECDESK_E2E_APP=$PWD/target/release/specdesk scripts/lib/e2e.sh --bench bench/gallery-webkit.mjs [--runs N] [--no-thumbs]
//
// scripts/lib/e2e.sh gives the end-to-end tests' setting (Xvfb 1400x900, tauri-driver,
// WebKitWebDriver, a fresh data folder). The app is started once to make its library, closed,
// and 2,000 images are written into its media folder and library (1024 × 1024 PNGs, 16 different
// ones linked under 2,000 names, with Python's sqlite3). Started again, the app makes their
// thumbnails at start (core::thumbs::backfill; timed until the library has them all). With
// --no-thumbs the images are marked as having none, so the gallery shows the files themselves:
// the figures before thumbnails. Then per run: Gateway, another studio, Images (open: until every
// card in view shows its image), the gallery scrolled to its end 120 px a frame, and the memory
// (PSS) of the app and its web processes.
import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { browser, env, launch, openArea, openStudio, quit, useSandbox } from "../tests/e2e/helpers.mjs";
import { idleFrames } from "./chat-scroll.mjs";
import { intOption, ms, msRow, stats } from "./stats.mjs";

const COUNT = 2000;
const STEP_PX = 120;
const WARMUPS = 1;

const SEED = String.raw`
import os, random, sqlite3, struct, sys, zlib
db_path, media, count, thumbs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
os.makedirs(media, exist_ok=True)
def png(path, seed):
    # Noise over a band of colour: as hard to compress and decode as a generated picture.
    rnd = random.Random(seed)
    w = h = 1024
    rows = b"".join(b"\0" + rnd.randbytes(w * 3) for _ in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))
sources = []
for k in range(16):
    path = os.path.join(media, f"bench-source-{k}.png")
    png(path, k)
    sources.append(path)
db = sqlite3.connect(db_path)
for i in range(count):
    path = os.path.join(media, f"image-bench-{i}.png")
    os.link(sources[i % 16], path)
    db.execute("INSERT INTO media (kind, path, prompt, model, profile_id, credits, cost, created_at, settings_json, thumb_path) "
               "VALUES ('image', ?, ?, 'openai/gpt-image-1', 'sandbox', 0.4, 0.04, '2026-11-28T10:00:00.000Z', '{\"size\": \"1024x1024\"}', ?)",
               (path, f"A harbour study number {i + 1}, watercolour", None if thumbs else ""))
db.commit()
`;

const WAITING = String.raw`
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT COUNT(*) FROM media WHERE kind = 'image' AND thumb_path IS NULL").fetchone()[0])
`;

/** PSS (KiB) of the app's process and every process below it (its web and network processes). */
const MEMORY = String.raw`
import os, sys
sys.path.insert(0, sys.argv[2])
from probe import descendants, pss_kib
app = sys.argv[1]
def exe(p):
    try:
        return os.path.realpath(f"/proc/{p}/exe")
    except OSError:
        return ""
pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and exe(p) == app]
total = 0
for pid in pids:
    for p in descendants(pid):
        try:
            total += pss_kib(p)
        except OSError:
            pass
print(total)
`;

/** Opens the Images studio from another one; resolves with the ms until every card in view shows its image. */
function openImages() {
  return new Promise((resolve) => {
    const tab = [...document.querySelectorAll('[role="tablist"][aria-label="Studios"] [role="tab"]')].find((t) => t.textContent.trim() === "Images");
    const start = performance.now();
    tab.click();
    const check = () => {
      const imgs = [...document.querySelectorAll(".gallery-thumb img")].filter((img) => {
        const r = img.getBoundingClientRect();
        return r.bottom > 0 && r.top < window.innerHeight;
      });
      if (imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0)) resolve({ ms: performance.now() - start, shown: imgs.length });
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

/** Scrolls the page from the gallery's top to its end (every image read), `step` px a frame. */
function scrollGallery(step) {
  return new Promise((resolve) => {
    const main = document.querySelector("main");
    const gaps = [];
    let last = null;
    let most = 0;
    main.scrollTop = 0;
    const frame = (t) => {
      if (last !== null) gaps.push(t - last);
      last = t;
      most = Math.max(most, document.querySelectorAll(".gallery-card").length);
      const all = /^All /.test(document.querySelector(".list-more p")?.textContent ?? "");
      if ((all && main.scrollTop + main.clientHeight >= main.scrollHeight - 1) || gaps.length >= 20000) {
        resolve({ gaps, most, end: gaps.length < 20000 });
        return;
      }
      main.scrollTop += step;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

const memoryMiB = (app) => Number(execFileSync("python3", ["-c", MEMORY, app, new URL(".", import.meta.url).pathname], { encoding: "utf8" }).trim()) / 1024;

async function main() {
  const argv = process.argv.slice(2);
  const runs = intOption(argv, "--runs", 3, 1);
  const thumbs = !argv.includes("--no-thumbs");
  const app = realpathSync(env("SPECDESK_E2E_APP"));
  const data = env("SPECDESK_DATA_DIR");
  const library = join(data, "library.sqlite");
  await launch();
  await useSandbox();
  await quit();
  execFileSync("python3", ["-c", SEED, library, join(data, "media"), String(COUNT), thumbs ? "1" : "0"]);

  const started = Date.now();
  await launch();
  try {
    for (;;) {
      const waiting = Number(execFileSync("python3", ["-c", WAITING, library], { encoding: "utf8" }).trim());
      if (waiting === 0) break;
      if (Date.now() - started > 30 * 60_000) throw new Error(`${waiting} images still have no thumbnail after 30 minutes`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const backfill = (Date.now() - started) / 1000;
    await openArea("Gateway");
    const open = [];
    const frames = [];
    const p95 = [];
    let most = 0;
    const idle = [];
    const memory = { opened: [], scrolled: [] };
    console.error(`Warming up (${WARMUPS}), then ${runs} runs...`);
    for (let i = 0; i < WARMUPS + runs; i += 1) {
      await openStudio("Chat");
      const opened = await browser.execute(openImages);
      const afterOpen = memoryMiB(app);
      const scroll = await browser.execute(scrollGallery, STEP_PX);
      if (!scroll.end) throw new Error("the gallery did not reach its end in 20000 frames");
      const afterScroll = memoryMiB(app);
      const floor = await browser.execute(idleFrames, 300);
      console.error(`run ${i + 1}: open ${ms(opened.ms)}, ${scroll.gaps.length} frames scrolling, p95 ${ms(stats(scroll.gaps).p95)}, ${scroll.most} cards at most, ${afterScroll.toFixed(0)} MiB`);
      if (i < WARMUPS) continue;
      open.push(opened.ms);
      frames.push(...scroll.gaps);
      p95.push(stats(scroll.gaps).p95);
      idle.push(...floor);
      most = Math.max(most, scroll.most);
      memory.opened.push(afterOpen);
      memory.scrolled.push(afterScroll);
    }
    const mib = (v) => `${stats(v).median.toFixed(0)} MiB`;
    console.log(`\nImages in WebKitGTK, ${COUNT} images of 1024 × 1024, ${thumbs ? "with thumbnails" : "without thumbnails (the files themselves)"}, ${runs} runs after ${WARMUPS} warm-up\n`);
    if (thumbs) console.log(`Thumbnails of the ${COUNT} images made at start in ${backfill.toFixed(0)} s.\n`);
    console.log("| what | median | p95 | max |\n|---|---|---|---|");
    console.log(msRow("open (from another studio, until every card in view shows its image)", open));
    console.log(msRow(`frame while scrolling to the end (${STEP_PX} px a frame, ${frames.length} frames)`, frames));
    console.log(msRow("idle frame (the floor)", idle));
    console.log(`\nMost cards in the page at once: ${most}. Memory (PSS of the app and its web processes): ${mib(memory.opened)} opened, ${mib(memory.scrolled)} after scrolling to the end. p95 per run: ${p95.map(ms).join(", ")}.`);
  } finally {
    await quit();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
