// Browser agents on the real app and its embedded sandbox, against pages this test serves on
// 127.0.0.1: a three-task batch built in the builder and run live (one with an output schema, one
// that ends NO_TARGET) with its timeline and screenshots; a batch whose live stream the sandbox
// drops, finished by polling with no duplicate; a CSV imported through the file input and run in
// the background while every read of it fails for a while (Reconnecting, then finished); a live
// batch refused (402) back in the builder with the reason; and the
// app killed (SIGKILL) in the middle of a batch on a service that outlives it (the run's second
// sandbox), followed to its end after the relaunch and made once, with the builder's draft back
// and its input value from the keychain. It works alone or after the other files (same data
// folder). Nothing here measures time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import http from "node:http";
import { addFault, clearFaults, $label, browser, click, env, fill, invoke, launch, openArea, quit, setField, texts, useConnection, useSandbox, waitForText } from "./helpers.mjs";

const PRODUCT = `<!doctype html><html><head><title>Blue Kettle — Kitchen shop</title></head><body>
<h1 itemprop="name">Blue Kettle</h1><p>Price: <span itemprop="price">24.50</span> EUR</p>
<a href="/checkout">Checkout</a></body></html>`;
const ABOUT = `<!doctype html><html><head><title>About the shop</title></head><body>
<h1>About us</h1><p>A small kitchen shop in Lyon.</p></body></html>`;
const SCHEMA = JSON.stringify({
  type: "object",
  properties: { name: { type: "string" }, price: { type: "number" } },
  required: ["name", "price"],
});

let site;
let siteUrl;
/** While set, /slow answers only when this promise resolves. */
let slowGate = null;
let sandboxUrl;
/** The connection to the run's second sandbox (the service that outlives the app). */
const OUTSIDE = "Batch service";
/** The timeline of the batch followed after the relaunch, as the live view showed it. */
let followedSteps = [];

before(async () => {
  site = http.createServer(async (req, res) => {
    if (req.url === "/slow" && slowGate) await slowGate;
    const page = req.url === "/product" ? PRODUCT : ABOUT;
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise((ok) => site.listen(0, "127.0.0.1", ok));
  siteUrl = `http://127.0.0.1:${site.address().port}`;
  await launch();
});

after(async () => {
  await quit().catch(() => undefined);
  site?.closeAllConnections?.();
  await new Promise((ok) => site.close(ok));
});

/** The batch view's task rows: [number, url, status label]. */
async function taskRows() {
  return browser.execute(() =>
    [...document.querySelectorAll(".batch-view .task-row")].map((r) => [
      r.querySelector(".task-row-num")?.textContent.trim(),
      r.querySelector(".task-row-url")?.textContent.trim(),
      r.querySelector(".status-chip")?.textContent.replace(/\s+/g, " ").trim(),
    ]),
  );
}

/** Waits for the batch view to say its batch is finished. */
async function waitFinished(timeout = 90000) {
  await browser.waitUntil(async () => (await browser.$(".batch-view").getText()).includes("Finished —"), {
    timeout,
    timeoutMsg: "the batch never finished",
  });
}

/** The history's batch ids, newest first. */
async function historyIds() {
  return browser.execute(() =>
    [...document.querySelectorAll('.batch-history button[aria-label^="Open batch "]')].map((b) =>
      b.getAttribute("aria-label").replace("Open batch ", ""),
    ),
  );
}

async function runBatch(urls) {
  for (let i = 0; i < urls.length; i += 1) {
    if (i > 0) await click("button", "Add a task", await browser.$('form[aria-label="New batch"]'));
    await setField(`Task ${i + 1} start URL`, urls[i][0]);
    await setField(`Task ${i + 1} instruction`, urls[i][1]);
  }
  const run = await browser.$('form[aria-label="New batch"] button[type="submit"]');
  await browser.waitUntil(async () => run.isEnabled(), { timeout: 20000, timeoutMsg: "Run never became enabled" });
  await run.click();
}

test("the Sandbox is in use", async () => {
  sandboxUrl = await useSandbox();
});

test("a three-task batch runs live with its timeline and screenshots; a missing target is NO_TARGET", async () => {
  await openArea("Browser agents");
  await browser.$("h1=Browser agents").waitForExist({ timeout: 10000 });
  const form = await browser.$('form[aria-label="New batch"]');
  await click("button", "Add a task", form);
  // In WebKit too, the new row's start URL takes the focus.
  assert.equal(await browser.execute(() => document.activeElement?.getAttribute("aria-label")), "Task 2 start URL");
  await click("button", "Add a task", form);
  assert.equal(await browser.execute(() => document.activeElement?.getAttribute("aria-label")), "Task 3 start URL");
  await setField("Task 1 start URL", `${siteUrl}/product`);
  await setField("Task 1 instruction", "Read the product's name and price");
  // The details toggle's label says what is set ("Task 1 details: …").
  await (await browser.$('button[aria-label^="Task 1 details"]')).click();
  const schema = await browser.$('[aria-label="Task 1 details"] textarea.schema-box');
  await schema.waitForExist({ timeout: 10000 });
  await schema.setValue(SCHEMA);
  await setField("Task 2 start URL", `${siteUrl}/product`);
  await setField("Task 2 instruction", 'Click "Add to basket"');
  await setField("Task 3 start URL", `${siteUrl}/about`);
  await setField("Task 3 instruction", "Read the page");
  const run = await browser.$('form[aria-label="New batch"] button[type="submit"]');
  await browser.waitUntil(async () => run.isEnabled(), { timeout: 20000, timeoutMsg: "Run never became enabled" });
  assert.equal(await run.getText(), "Run 3 tasks");
  await run.click();

  await browser.$(".batch-view").waitForExist({ timeout: 20000 });
  await waitFinished();
  assert.deepEqual(await taskRows(), [
    ["1", `${siteUrl}/product`, "Succeeded"],
    ["2", `${siteUrl}/product`, "Nothing to act on"],
    ["3", `${siteUrl}/about`, "Succeeded"],
  ]);
  await waitForText("1 of 3 tasks did not succeed.");

  // Task 1: its data is what the schema asked for, its timeline starts with the page it loaded.
  await (await browser.$$(".batch-view .task-row"))[0].click();
  await browser.$(".task-detail").waitForExist({ timeout: 10000 });
  const detail = await browser.$(".task-detail").getText();
  assert.match(detail, /Blue Kettle/);
  assert.match(detail, /24\.5/);
  const steps = await texts(".task-timeline .step");
  assert.ok(steps.some((s) => s.includes("Blue Kettle — Kitchen shop")), steps.join("\n"));
  // The screenshot came in chunks and is shown whole, as an image the web view decoded.
  const shots = await browser.$$('[aria-label="Film strip"] [role="option"]');
  assert.equal(shots.length, 1, "the one screenshot the task took (the sandbox takes one a page load), whole in the film strip");
  const decoded = await browser.execute(() => {
    const img = document.querySelector(".task-timeline .timeline-shots img[alt^='Screenshot']");
    return img ? img.complete && img.naturalWidth > 0 : false;
  });
  assert.equal(decoded, true);

  // The keyboard in WebKit: the task list moves the selection (the detail follows), and the film
  // strip and the step list select each other.
  const detailTitle = () => browser.execute(() => document.querySelector(".task-detail h3")?.textContent.trim());
  await browser.execute(() => document.querySelector('[role="listbox"][aria-label="Tasks"]').focus());
  await browser.keys(["ArrowDown"]);
  await browser.waitUntil(async () => (await detailTitle()) === "Task 2", { timeout: 10000, timeoutMsg: "ArrowDown did not open task 2" });
  await browser.keys(["End"]);
  await browser.waitUntil(async () => (await detailTitle()) === "Task 3", { timeout: 10000, timeoutMsg: "End did not open task 3" });
  await browser.keys(["Home"]);
  await browser.waitUntil(async () => (await detailTitle()) === "Task 1", { timeout: 10000, timeoutMsg: "Home did not open task 1" });
  const selectedStep = () => browser.execute(() => document.querySelector('[role="listbox"][aria-label="Steps"] [aria-selected="true"]')?.textContent.replace(/\s+/g, " ").trim() ?? "");
  // The first step selected: no screenshot yet; the film strip's Home selects the one there is,
  // and with it the step that took it.
  await browser.execute(() => document.querySelector('[role="listbox"][aria-label="Steps"] [role="option"]').click());
  await browser.execute(() => document.querySelector('[role="listbox"][aria-label="Film strip"]').focus());
  await browser.keys(["Home"]);
  await browser.waitUntil(async () => (await selectedStep()).includes("Screenshot"), { timeout: 10000, timeoutMsg: `the film strip did not select its step: ${await selectedStep()}` });
  assert.equal(
    await browser.execute(() => document.activeElement?.getAttribute("aria-label")),
    "Film strip",
    "the focus stays on the film strip",
  );

  // A big batch's tools on this mixed one, in WebKit: the count that filters, the keyboard in what
  // is shown, a search typed in, and every task again.
  await (await browser.$("button.status-filter*=Did not succeed")).click();
  await browser.waitUntil(async () => (await taskRows()).length === 1, { timeout: 10000, timeoutMsg: "Did not succeed did not filter the list" });
  assert.deepEqual(await taskRows(), [["2", `${siteUrl}/product`, "Nothing to act on"]]);
  assert.match(await browser.execute(() => window.location.hash), /\?status=failed/);
  await browser.execute(() => document.querySelector('[role="listbox"][aria-label="Tasks"]').focus());
  await browser.keys(["Home"]);
  await browser.waitUntil(async () => (await detailTitle()) === "Task 2", { timeout: 10000, timeoutMsg: "Home did not open the one task shown" });
  await click("button", "Show every task");
  await (await browser.$('.task-filter input[type="search"]')).setValue("about");
  await browser.waitUntil(async () => (await taskRows()).length === 1, { timeout: 10000, timeoutMsg: "the search did not filter the list" });
  assert.deepEqual(await taskRows(), [["3", `${siteUrl}/about`, "Succeeded"]]);
  assert.equal(await browser.execute(() => document.querySelector(".task-filter-count")?.textContent), "1 of 3 tasks: matching “about”");
  await click("button", "Show every task");
  await browser.waitUntil(async () => (await taskRows()).length === 3, { timeout: 10000, timeoutMsg: "Show every task did not show them all" });
});

test("a batch whose live stream drops is followed by polling, then live again, with no duplicate", async () => {
  const before = (await historyIds()).length;
  await addFault(sandboxUrl, { match: { method: "POST", path: "/api/v1/browser-agents" }, times: 1, dropStreamAfterEvents: 3 });
  // The second task waits on its page until the view is live again, so the batch cannot end first.
  let release;
  slowGate = new Promise((ok) => (release = ok));
  try {
    await runBatch([
      [`${siteUrl}/about`, "Read the page"],
      [`${siteUrl}/slow`, "Read the page"],
    ]);
    await browser.$(".batch-view").waitForExist({ timeout: 20000 });
    await waitForText("Following by polling — progress is read every few seconds.");
    await waitForText("Live again — the live connection is back; nothing was lost while progress was read by polling.");
  } finally {
    release();
    slowGate = null;
  }
  await waitFinished();
  await waitForText("The live connection dropped on the way and came back; nothing lost.");
  assert.deepEqual(await taskRows(), [
    ["1", `${siteUrl}/about`, "Succeeded"],
    ["2", `${siteUrl}/slow`, "Succeeded"],
  ]);
  await browser.waitUntil(async () => (await historyIds()).length === before + 1, {
    timeout: 30000,
    timeoutMsg: "the history should hold exactly one more batch",
  });
});

test("a CSV picked for import is read in WebKit; a background batch whose service is lost for a while says Reconnecting, then finishes", async () => {
  const before = (await historyIds()).length;
  const dir = mkdtempSync(join(tmpdir(), "specdesk-import-"));
  const file = join(dir, "shop-pages.csv");
  writeFileSync(file, `url,instruction\n${siteUrl}/about,Read the page\n${siteUrl}/product,Read the page\n`);
  const form = await browser.$('form[aria-label="New batch"]');
  // The file chooser's part, as WebDriver plays it: the file goes into the builder's file input.
  const input = await form.$('input[type="file"][aria-label="Task file to import"]');
  await browser.execute((el) => (el.hidden = false), input);
  await input.setValue(file);
  await waitForText("Added 2 tasks from shop-pages.csv.");
  assert.deepEqual(
    [await (await $label("Task 1 start URL")).getValue(), await (await $label("Task 2 start URL")).getValue()],
    [`${siteUrl}/about`, `${siteUrl}/product`],
  );
  // Every read of a batch fails until the fault is cleared.
  await addFault(sandboxUrl, { match: { method: "GET", path: "/api/v1/browser-agents/*" }, times: 100000, respond: { status: 503 } });
  try {
    await (await form.$('input[type="radio"][value="background"]')).click();
    const run = await form.$('button[type="submit"]');
    await browser.waitUntil(async () => run.isEnabled(), { timeout: 20000, timeoutMsg: "Run never became enabled" });
    await run.click();
    await browser.$(".batch-view").waitForExist({ timeout: 20000 });
    await waitForText(
      "Reconnecting — Specdesk lost the connection to the service and tries again by itself; nothing is lost. Last error: The service had a problem (HTTP 503). Try again in a moment; if it keeps happening, contact support.",
    );
  } finally {
    await clearFaults(sandboxUrl);
  }
  await waitFinished();
  await waitForText("The connection dropped on the way; the rest was read by polling, nothing lost.");
  assert.deepEqual(await taskRows(), [
    ["1", `${siteUrl}/about`, "Succeeded"],
    ["2", `${siteUrl}/product`, "Succeeded"],
  ]);
  await browser.waitUntil(async () => (await historyIds()).length === before + 1, {
    timeout: 30000,
    timeoutMsg: "the history should hold exactly one more batch",
  });
});

test("a live batch the service refuses (402) comes back to the builder with the reason; nothing is made", async () => {
  const before = (await historyIds()).length;
  await addFault(sandboxUrl, {
      match: { method: "POST", path: "/api/v1/browser-agents" },
      times: 1,
      respond: { status: 402, code: "Insufficient credits", message: "This batch needs at least 0.1 credits and 0 remain." },
    });
  await (await browser.$('form[aria-label="New batch"] input[type="radio"][value="live"]')).click();
  await runBatch([[`${siteUrl}/about`, "Read the page"]]);
  await waitForText(
    "You do not have enough credits for this. Top up your balance, then try again. (The service said: This batch needs at least 0.1 credits and 0 remain.)",
  );
  assert.equal(await (await $label("Task 1 start URL")).getValue(), `${siteUrl}/about`, "the task is back in the draft");
  assert.equal(await (await $label("Task 1 instruction")).getValue(), "Read the page");
  assert.equal(await browser.$(".batch-view").isExisting(), false, "nothing to watch");
  assert.equal((await historyIds()).length, before, "the service made no batch");
  await (await $label("Delete task 1")).click();
});

/**
 * Makes a connection to the run's second sandbox (scripts/lib/e2e.sh) the one in use: a service
 * that goes on when the app is killed, as the real one does (the embedded one stops with the app).
 */
async function useOutsideService() {
  await openArea("Settings");
  if (!(await browser.$(`li[aria-label="${OUTSIDE}"]`).isExisting())) {
    await click("button", "Add connection");
    await fill("Name", OUTSIDE);
    await fill("Service address", env("SPECDESK_E2E_SERVICE_URL"));
    await fill("API key", "sk_sandbox_org");
    await click("button", "Add connection");
  }
  await useConnection(OUTSIDE);
}

test("the app killed mid-batch follows the batch to its end after the relaunch, made once", async () => {
  await useOutsideService();
  await openArea("Browser agents");
  await browser.$(".batch-history").waitForExist({ timeout: 20000 });
  const before = await historyIds();
  let release;
  slowGate = new Promise((ok) => (release = ok));
  await runBatch([[`${siteUrl}/slow`, "Read the page"]]);
  await browser.$(".batch-view").waitForExist({ timeout: 20000 });
  await browser.waitUntil(async () => (await taskRows()).some((r) => r[2] === "Running"), {
    timeout: 30000,
    timeoutMsg: "the slow task never showed as running",
  });
  // A new draft with an input value, typed while the batch runs: it outlives the kill too, its
  // value in the keychain.
  await setField("Task 1 start URL", `${siteUrl}/about`);
  await (await browser.$('button[aria-label^="Task 1 details"]')).click();
  await click("button", "Add an input", await browser.$('[aria-label="Task 1 details"]'));
  await setField("Task 1 input 1 name", "coupon");
  await setField("Task 1 input 1 value", "KEEP-ME-7");
  await browser.waitUntil(async () => Object.values(await invoke("draft_values", {})).includes("KEEP-ME-7"), {
    timeout: 10000,
    timeoutMsg: "the input value never reached the keychain",
  });
  assert.equal(
    await browser.execute(() => JSON.stringify(window.localStorage).includes("KEEP-ME-7")),
    false,
    "the value is not in the web view's storage",
  );

  // Killed as a crash would: no clean quit. The service goes on with the task, which finishes
  // while the app is down.
  // The app only: a pattern on its path alone would also match the sandbox binary beside it.
  execFileSync("pkill", ["-KILL", "-f", `^${env("SPECDESK_E2E_APP")}( |$)`]);
  release();
  slowGate = null;
  await quit().catch(() => undefined);
  await launch();
  await openArea("Browser agents");
  await browser.$(".batch-history").waitForExist({ timeout: 20000 });
  let ids = [];
  await browser.waitUntil(
    async () => {
      ids = await historyIds();
      return ids.length === before.length + 1;
    },
    { timeout: 60000 },
  ).catch(async () => {
    assert.fail(`one more batch expected in the history (${before.length}, then ${ids.length}): ${await browser.$(".batch-history").getText()}`);
  });
  assert.deepEqual(ids.slice(1), before, "the batch was made once: the history holds one new batch");
  // The draft is back, its value from the keychain; then it is cleared for the next tests.
  assert.equal(await (await $label("Task 1 start URL")).getValue(), `${siteUrl}/about`);
  await (await browser.$('button[aria-label^="Task 1 details"]')).click();
  const value = await $label("Task 1 input 1 value");
  await browser.waitUntil(async () => (await value.getValue()) === "KEEP-ME-7", {
    timeout: 10000,
    timeoutMsg: "the input value did not come back from the keychain",
  });
  await (await $label("Delete task 1")).click();
  await browser.waitUntil(async () => Object.keys(await invoke("draft_values", {})).length === 0, {
    timeout: 10000,
    timeoutMsg: "the keychain still holds the cleared draft's value",
  });
  await (await $label(`Open batch ${ids[0]}`)).click();
  await waitFinished();
  assert.deepEqual(await taskRows(), [["1", `${siteUrl}/slow`, "Succeeded"]]);
  await (await browser.$$(".batch-view .task-row"))[0].click();
  await browser.$(".task-detail").waitForExist({ timeout: 10000 });
  followedSteps = await texts(".task-timeline .step");
  assert.ok(followedSteps.some((s) => s.includes("About the shop")), `the page the task loaded is in its timeline: ${followedSteps.join(" | ")}`);
  await useConnection("Sandbox");
});

test("offline, a past batch opens from this computer with its whole timeline", async () => {
  await useOutsideService();
  const profiles = await invoke("list_profiles", {});
  const outside = profiles.find((p) => p.name === OUTSIDE);
  const input = { name: OUTSIDE, baseUrl: outside.baseUrl, keyKind: outside.keyKind };
  // The service out of reach: nothing listens on the discard port.
  await invoke("update_profile", { id: outside.id, input: { ...input, baseUrl: "http://127.0.0.1:9" } });
  try {
    await openArea("Browser agents");
    const kept = await browser.$('section.kept-batches');
    await kept.waitForExist({ timeout: 30000 });
    const buttons = await kept.$$('button[aria-label^="Open batch "]');
    assert.ok(buttons.length >= 1, "the batch followed to its end here is kept");
    await buttons[0].click();
    await waitFinished();
    assert.deepEqual(await taskRows(), [["1", `${siteUrl}/slow`, "Succeeded"]]);
    await (await browser.$$(".batch-view .task-row"))[0].click();
    await browser.$(".task-detail").waitForExist({ timeout: 10000 });
    // Offline, the kept timeline is the one the live view showed, step for step.
    assert.deepEqual(await texts(".task-timeline .step"), followedSteps);
  } finally {
    await invoke("update_profile", { id: outside.id, input });
    await useConnection("Sandbox");
  }
});

