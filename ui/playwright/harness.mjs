// Shared helpers of the screen tests: a static server for dist-mock (the UI built with
// `vite build --mode mock`, whose IPC is answered by src/mock), Debian's Chromium driven by
// playwright-core, and an axe scan that must find nothing.
//
//   const h = await startHarness();                 // in before(); h.close() in after()
//   await h.withScenario("welcome", async ({ page, mock }) => {
//     await page.getByRole("button", { name: "Explore the Sandbox" }).click();
//     await expectAxeClean(page, "welcome");
//   });
import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AxeBuilder } from "@axe-core/playwright";
import { chromium } from "playwright-core";

export const UI_DIR = fileURLToPath(new URL("..", import.meta.url));
// SPECDESK_DIST_MOCK: another build folder (two builds at once must not share one).
export const DIST_MOCK = process.env.SPECDESK_DIST_MOCK || path.join(UI_DIR, "dist-mock");
export const CHROMIUM = process.env.SPECDESK_CHROMIUM || "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/** Longest wait for any one thing to appear (a slow machine, never a sleep). */
export const TIMEOUT_MS = 15_000;

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

/** Serves `root` on 127.0.0.1 (a free port); unknown paths get index.html. */
export async function serveStatic(root) {
  const index = path.join(root, "index.html");
  await stat(index).catch(() => {
    throw new Error(`${index} is missing: build the mock bundle first (npm run build:mock).`);
  });
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
      if (!file.startsWith(root)) {
        res.writeHead(403).end();
        return;
      }
      const info = await stat(file).catch(() => null);
      if (!info || info.isDirectory()) file = index;
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(500).end();
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Debian's Chromium, headless; playwright gives each launch a fresh temporary user-data-dir. */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/**
 * Starts the server and the browser. `withScenario(name, [options], fn)` opens the app on
 * `?scenario=<name>` in a fresh browser context, runs `fn({ page, mock })`, then fails the test
 * if the page threw, logged an error, or invoked a command the mock could not answer.
 * Options: `theme` ("light" | "dark" | "system": the settings' theme, over the scenario's),
 * `colorScheme` (the system's, "light" by default), `viewport`.
 */
export async function startHarness() {
  const server = await serveStatic(DIST_MOCK);
  let browser;
  try {
    browser = await launchChromium();
  } catch (e) {
    await server.close();
    throw e;
  }

  async function withScenario(name, options, fn) {
    if (typeof options === "function") [options, fn] = [{}, options];
    const context = await browser.newContext({
      colorScheme: options.colorScheme ?? "light",
      viewport: options.viewport ?? { width: 1280, height: 800 },
      reducedMotion: "reduce",
      // Dates and numbers read the same on any machine.
      timezoneId: "UTC",
      locale: "en-US",
    });
    context.setDefaultTimeout(TIMEOUT_MS);
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    try {
      const query = new URLSearchParams({ scenario: name, ...(options.theme ? { theme: options.theme } : {}) });
      await page.goto(`${server.url}/?${query}`);
      await page
        .waitForFunction((n) => window.__SPECDESK_MOCK__?.scenario === n, name, { timeout: TIMEOUT_MS })
        .catch((e) => {
          throw new Error(`the mock did not start for scenario "${name}": ${problems.join("; ") || e.message}`);
        });
      await fn({ page, mock: mockOf(page) });
      const unhandled = await page.evaluate(() => window.__SPECDESK_MOCK__?.unhandled ?? []);
      assert.deepEqual(unhandled, [], `commands the mock could not answer: ${unhandled.join(", ")}`);
      assert.deepEqual(problems, [], `the page reported errors:\n${problems.join("\n")}`);
    } finally {
      await context.close();
    }
  }

  return {
    url: server.url,
    withScenario,
    async close() {
      await browser?.close();
      await server.close();
    },
  };
}

/** The test's side of window.__SPECDESK_MOCK__ (see src/mock/install.ts). */
function mockOf(page) {
  return {
    /** Every command invoked so far, `{ cmd, args }`, optionally of one command only. */
    calls: (cmd) =>
      page.evaluate((c) => window.__SPECDESK_MOCK__.calls.filter((x) => !c || x.cmd === c), cmd ?? null),
    /** Broadcasts an app event once the page listens to it. */
    async emit(event, payload) {
      await page.waitForFunction((e) => window.__SPECDESK_MOCK__.listening().includes(e), event);
      await page.evaluate(([e, p]) => window.__SPECDESK_MOCK__.emit(e, p), [event, payload]);
    },
    release: (gate) => page.evaluate((g) => window.__SPECDESK_MOCK__.release(g), gate),
    send: (command, message) => page.evaluate(([c, m]) => window.__SPECDESK_MOCK__.send(c, m), [command, message]),
    end: (command) => page.evaluate((c) => window.__SPECDESK_MOCK__.end(c), command),
  };
}

/**
 * Runs axe on the page as it is now in both themes: the theme the page shows, then the other one
 * (the root's `data-theme`, which the app sets when the theme changes), then back.
 */
export async function expectAxeCleanInBothThemes(page, label) {
  const shown = await page.evaluate(() => document.documentElement.getAttribute("data-theme") ?? "light");
  const other = shown === "dark" ? "light" : "dark";
  await expectAxeClean(page, `${label} (${shown})`);
  await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), other);
  try {
    await expectAxeClean(page, `${label} (${other})`);
  } finally {
    await page.evaluate((t) => document.documentElement.setAttribute("data-theme", t), shown);
  }
}

/** Runs axe on the page as it is now and fails with every violation's id, help and targets. */
export async function expectAxeClean(page, label) {
  // Legacy mode runs axe in the page itself: these pages have no iframes, and it is about twice
  // as fast as the default (which finishes each run in an extra blank page).
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  if (violations.length === 0) return;
  const lines = violations.map((v) => {
    const targets = v.nodes.map((n) => `      ${n.target.join(" ")}${n.failureSummary ? `\n        ${n.failureSummary.replace(/\n/g, "\n        ")}` : ""}`);
    return `  ${v.id} (${v.impact}): ${v.help}\n    ${v.helpUrl}\n${targets.join("\n")}`;
  });
  assert.fail(`axe found ${violations.length} accessibility violation(s) on ${label}:\n${lines.join("\n")}`);
}

/** The visible text of a locator, whitespace collapsed. */
export async function textOf(locator) {
  return (await locator.innerText()).replace(/\s+/g, " ").trim();
}

/** Opens an area from the sidebar ("Specs", "Browser agents", "Gateway"...) and waits for its heading. */
export async function openArea(page, name) {
  await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name, exact: true }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

/** Opens the Gateway on its studio `tab` ("Chat", "Rerank"...). */
export async function openGateway(page, tab) {
  await openArea(page, "Gateway");
  await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: tab, exact: true }).click();
}
