// What the 500-turn chat benchmarks share (Chromium through Playwright: chat-500.mjs; the real app
// in WebKitGTK through WebDriver: chat-500-webkit.mjs): the work in the page (functions sent to
// the page as they are, each resolving with what it measured) and the scroll's report.
import { msRow, stats } from "./stats.mjs";

/** Scrolls the thread from wherever it is to its bottom, `step` px a frame: the gaps between
 * frames (ms), the most turns in the DOM at once, the thread's height and whether it got there. */
export function scrollThread(step) {
  return new Promise((resolve) => {
    const el = document.querySelector(".thread-scroll");
    const gaps = [];
    let last = null;
    let most = 0;
    const frame = (t) => {
      if (last !== null) gaps.push(t - last);
      last = t;
      most = Math.max(most, el.querySelectorAll(".thread > li").length);
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1 || gaps.length >= 5000) {
        resolve({ gaps, most, height: el.scrollHeight, bottom: gaps.length < 5000 });
        return;
      }
      el.scrollTop += step;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** `n` frames with nothing scrolling: the gaps between them (ms). */
export function idleFrames(n) {
  return new Promise((resolve) => {
    const gaps = [];
    let last = null;
    const frame = (t) => {
      if (last !== null) gaps.push(t - last);
      last = t;
      if (gaps.length >= n) resolve(gaps);
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** The scroll's table rows and summary line, from every run's figures: `scroll` (all frame gaps),
 * `p95` and `max` (one per run), `idle` (the floor's gaps), `frames` (per run), `height`, `most`. */
export function scrollReport(rows, stepPx, idleCount) {
  const long = rows.scroll.filter((g) => g > 1000 / 60 + 1).length;
  return [
    msRow(`scroll top to bottom, ${stepPx} px a frame: frame gap (all frames)`, rows.scroll),
    msRow("  per run: p95 frame gap", rows.p95),
    msRow("  per run: longest frame gap", rows.max),
    msRow(`floor: frame gap with nothing scrolling (${idleCount} frames a run)`, rows.idle),
    `\n${stats(rows.frames).median} frames a scroll (median) over ${rows.height} px; ${long} of ${rows.scroll.length} frame gaps over 17.7 ms;` +
      ` at most ${rows.most} turns in the DOM while scrolling`,
  ];
}
