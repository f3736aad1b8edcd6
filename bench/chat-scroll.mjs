// The 500-turn chat benchmarks' work in the page (Chromium through Playwright: chat-500.mjs; the
// real app in WebKitGTK through WebDriver: chat-500-webkit.mjs): functions sent to the page as
// they are, each resolving with what it measured.

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
