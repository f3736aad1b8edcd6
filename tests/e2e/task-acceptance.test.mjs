// An acceptance run on the real app and its embedded sandbox: a spec's stories turned into one
// browser task per acceptance criterion against an app this test serves on 127.0.0.1, run, and
// judged per criterion with its evidence: the criterion the page shows passes, the ones it does
// not show fail (or could not be checked, when they ask for something to act on). It works alone
// or after the other files (same data folder): it makes its own fast spec. Nothing here measures
// time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { browser, click, fill, launch, openArea, quit, setField, textOf, useSandbox } from "./helpers.mjs";

const IDEA = "A tool library for a neighbourhood: members lend drills and ladders, book them for a weekend, and rate the borrower.";
const BLANK = `<!doctype html><html><head><title>Blank</title></head><body><p>Under construction.</p></body></html>`;

let site;
let siteUrl;
/** What /shows answers: the page that shows the first criterion (set once it is known). */
let shows = BLANK;

before(async () => {
  site = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(req.url === "/shows" ? shows : BLANK);
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

test("the Sandbox is in use", async () => {
  await useSandbox();
});

test("a spec's stories checked on a running app: pass and fail per criterion, with the evidence", async () => {
  await openArea("Specs");
  await browser.$("h1=Specs").waitForExist({ timeout: 10000 });
  await fill("What do you want to build?", IDEA);
  await (await browser.$('form[aria-label="New spec"] input[type="radio"][value="fast"]')).click();
  await click("button", "Generate spec");
  const row = await browser.$(`li.job-row[aria-label="${IDEA}"]`);
  await row.waitForExist({ timeout: 20000 });
  await (await row.$("button=Open spec")).waitForExist({ timeout: 120000 });
  await (await row.$("button=Open spec")).click();
  await browser.$("#spec-title").waitForExist({ timeout: 10000 });
  await click("button", "Scope", await browser.$('[role="tablist"][aria-label="Parts of the spec"]'));

  const bar = await browser.$("section.acceptance-bar");
  await bar.waitForExist({ timeout: 10000 });
  await click("button", "Check these stories on my app", bar);
  await fill("Address of your running app", siteUrl);
  await click("button", "Prepare the tasks", bar);
  const form = await browser.$('form[aria-label="New batch"]');
  await form.waitForExist({ timeout: 20000 });

  // One task per criterion, each an instruction the user may edit; the first is pointed at the
  // page that shows its criterion, the others at a page that shows none of theirs.
  const instructions = await browser.execute(() =>
    [...document.querySelectorAll('form[aria-label="New batch"] [aria-label$=" instruction"]')].map((el) => el.value),
  );
  assert.ok(instructions.length >= 2, `at least two criteria to check (${instructions.length})`);
  for (const text of instructions) assert.match(text, /^Check this on the page: .+ \(story: .+\)$/);
  const criterion = instructions[0].replace(/^Check this on the page: /, "").replace(/ \(story: .+\)$/, "");
  shows = `<!doctype html><html><head><title>Tool library</title></head><body><h1>Tool library</h1><p>${criterion}</p></body></html>`;
  await setField("Task 1 start URL", `${siteUrl}/shows`);

  const run = await browser.$('form[aria-label="New batch"] button[type="submit"]');
  // When Run stays off, the line beside it says why (problems, checking, balance): in the failure.
  await browser
    .waitUntil(async () => run.isEnabled(), { timeout: 20000 })
    .catch(async () => assert.fail(`Run never became enabled: ${await runBarText()}`));
  assert.equal(await run.getText(), `Run ${instructions.length} tasks`);
  await run.click();

  const results = await browser.$("section.acceptance-results");
  await results.waitForExist({ timeout: 20000 });
  await browser.waitUntil(async () => !(await textOf(".acceptance-summary")).includes("Running"), {
    timeout: 120000,
    timeoutMsg: "the acceptance run never finished",
  });
  const lines = await browser.execute(() =>
    [...document.querySelectorAll(".acceptance-criterion")].map((c) => c.innerText.replace(/\s+/g, " ").trim()),
  );
  assert.equal(lines.length, instructions.length);
  const first = lines.find((l) => l.includes(criterion));
  assert.ok(first, `the first criterion is listed: ${JSON.stringify(lines)}`);
  assert.match(first, new RegExp(`^Passed ${escape(criterion)} Evidence: The page “Tool library” shows .+\\.$`));
  // Every other criterion was checked on a blank page: each fails, with the evidence that none of
  // it is there (the agent ran; nothing is "could not check").
  const others = lines.filter((l) => l !== first);
  assert.equal(others.length, lines.length - 1);
  for (const line of others) assert.match(line, /^Failed .+ Evidence: Nothing of it is on the page “Blank”/, line);
  assert.equal(await textOf(".acceptance-summary"), `1 of ${lines.length} criteria pass · ${others.length} fail`);

  // Back to the spec: the place the next launch reopens (the files after this one start on the
  // batches, not on this acceptance run).
  await (await browser.$("button*=Back to the spec")).click();
  await browser.$("#spec-title").waitForExist({ timeout: 10000 });
  assert.match(await browser.execute(() => window.location.hash), /^#\/specs\/[0-9a-f]{24}/);
});

/** What the builder's foot says (status line and balance), for a failure's message. */
async function runBarText() {
  return browser.execute(() => {
    const bar = document.querySelector(".run-bar")?.textContent?.replace(/\s+/g, " ").trim() ?? "no run bar";
    const form = document.querySelector('form[aria-label="New batch"]');
    const wrong = [...(form?.querySelectorAll('[aria-invalid="true"]') ?? [])].map((el) => `${el.getAttribute("aria-label") ?? el.id}=${JSON.stringify(el.value)}`);
    const said = [...(form?.querySelectorAll(".error-text, .problem, [role=alert]") ?? [])].map((el) => el.textContent.trim());
    return `${bar} | invalid: ${wrong.join("; ")} | said: ${said.join("; ")}`;
  });
}

/** `text` as a literal inside a regular expression. */
function escape(text) {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
