// Specs and plans on the real app with its embedded sandbox at demo pace: a fast spec from text
// followed to the end and read (human spec, scope tree, both graphs); a deep spec with a file;
// the file chosen in the system's dialog (GTK's, path typed with xdotool) and dropped; the
// library's search; a plan that changes when the sandbox project advances; the focus a
// feature's details and the Plans home's id form take and give back, in WebKit; and a generation
// that survives quitting the app. One app session, in order, as a person would use it; it works
// after app.test.mjs (same data folder) or alone. The sandbox is deterministic, so texts and
// numbers are exact; nothing here measures time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { $label, answerFileDialog, browser, tauriDrag, click, env, fill, invoke, launch, openArea, quit, textOf, texts, useSandbox, waitForCount, waitForText, waitForTextOf } from "./helpers.mjs";

const FAST = "A habit tracker for small teams: daily check-ins, streaks and a weekly summary by email.";
const FAST_TITLE = "Habit tracker for small teams";
const DEEP = "A meal planner for busy families.";
const DEEP_TITLE = "Meal planner for busy families";
const FILE_NAME = "meal-planner-notes.md";
const FILE_TEXT = "# Notes from the family meeting\n\n- Weekly meal plan\n- Shopping list from the plan\n- Recipe import from a website\n";
// Stays processing for 3 real seconds: long enough to quit the app in the middle of it.
const SLOW = "[sandbox:slow] A reading list for a book club: members suggest books and vote on the next read.";
const SLOW_TITLE = "Reading list for a book club";

// Room for a generation at demo pace plus the app's poll interval (10–15 s); not a timing.
const GENERATION = 120_000;

/** Where the embedded sandbox listens, as Settings shows it for the Sandbox connection. */
let sandboxUrl;

before(async () => {
  await launch();
});

after(async () => {
  await quit();
});

/** The header's credit meter reads `credits` (e.g. "9,992"). */
async function waitForBalance(credits) {
  await browser.waitUntil(async () => new RegExp(`${credits}\\s*credits`).test(await browser.$("header").getText()), {
    timeout: 20000,
    timeoutMsg: `the header never showed ${credits} credits`,
  });
}

/** Sends the composer and waits until the service has the job. */
async function generate() {
  await click("button", "Generate spec");
  await waitForText("Your spec is being generated. It keeps going even if you close Specdesk.");
}

const jobRow = (title) => `li.job-row[aria-label="${title}"]`;

/** The generation row of `title`, once it is in the page: its buttons are looked for inside it,
 * so it must exist first (the row can render a moment after the composer's notice). */
async function rowOf(title, timeout = 20000) {
  const row = await browser.$(jobRow(title));
  await row.waitForExist({ timeout, timeoutMsg: `no generation row "${title}"` });
  return row;
}

/** Waits for the generation of `title` to complete, then checks its row. */
async function waitForGeneration(title, { depth, credits, hours }) {
  const row = jobRow(title);
  await (await rowOf(title)).$("button=Open spec").waitForExist({ timeout: GENERATION });
  assert.deepEqual(await texts(`${row} .job-main .badge`), ["Completed", depth]);
  const facts = await texts(`${row} .job-facts > div`);
  assert.match(facts[0], /^Took \d+:\d\d$/);
  assert.deepEqual(facts.slice(1), [`Credits used ${credits} credits`, `Estimated work ${hours} h`]);
}

/** What the system clipboard holds (the app writes it from Rust; read back under Xvfb). */
function clipboard() {
  return execFileSync("xclip", ["-o", "-selection", "clipboard"], { encoding: "utf8" });
}

async function openTab(name) {
  await click("button", name, await browser.$('[role="tablist"]'));
  await waitForTextOf('[role="tab"][aria-selected="true"]', name);
}

/** The library's rows: description, status, depth, hours, credits (the date left out). */
async function libraryRows() {
  const rows = await browser.execute(() =>
    [...document.querySelectorAll(".library tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => td.innerText.replace(/\s+/g, " ").trim()),
    ),
  );
  return rows.map((r) => [r[0], r[1], r[2], r[4], r[5]]);
}

/** Searches the library: plain text, or a regular expression with "Pattern" ticked; Enter
 * searches at once (typing alone searches after a pause). */
async function search(text, { pattern = false } = {}) {
  const box = await browser.$('.library form[role="search"] input[type="checkbox"]');
  if ((await box.isSelected()) !== pattern) await box.click();
  await fill("Search descriptions", text);
  await browser.keys("Enter");
}

/** The plan's features as [name, status words]. */
async function planFeatures() {
  return browser.execute(() =>
    [...document.querySelectorAll("li.feature")].map((li) => [
      li.querySelector("strong").textContent,
      li.querySelector(".status-tag > span:last-child").textContent,
    ]),
  );
}

/** The progress-over-time table: percent, built, proven working, total per snapshot. */
async function chartRows() {
  return browser.execute(() =>
    [...document.querySelectorAll("details.chart-table tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td.num")].map((td) => td.textContent.trim()),
    ),
  );
}

async function advanceProject(projectId) {
  const res = await fetch(`${sandboxUrl}/_sandbox/projects/${projectId}/advance`, { method: "POST" });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

test("the app is on its built-in Sandbox, whose address Settings shows", async () => {
  // Alone, this file starts on a first run; after app.test.mjs the welcome is done.
  sandboxUrl = await useSandbox();
  const health = await fetch(`${sandboxUrl}/_sandbox/health`);
  assert.equal(health.status, 200);
  assert.match(await browser.$("header").getText(), /Sandbox\s*Sandbox — offline, simulated/);
  await waitForBalance("10,000");
});

test("a fast spec from text completes; its human spec, scope tree and both graphs open", async () => {
  await openArea("Specs");
  await browser.$("h1=Specs").waitForExist();
  await fill("What do you want to build?", FAST);
  await (await browser.$('form[aria-label="New spec"] input[type="radio"][value="fast"]')).click();
  assert.equal(await textOf(".cost-hint"), "Fast spec: about 5–10 credits. You have 10,000 credits.");
  await generate();
  assert.equal(await browser.$('form[aria-label="New spec"] textarea').getValue(), "", "the draft is cleared once sent");
  await waitForGeneration(FAST, { depth: "Fast", credits: 8, hours: 50 });
  await waitForBalance("9,992");

  await click("button", "Open spec", await browser.$(jobRow(FAST)));
  await waitForTextOf("#spec-title", FAST_TITLE);
  assert.deepEqual(await texts('[role="tab"]'), [
    "Overview",
    "Human spec",
    "Coding-agent spec",
    "Scope",
    "Personas and features",
    "Tech stack",
    "Graphs",
  ]);
  const stats = await texts(".stat");
  assert.deepEqual(
    stats.filter((s) => !s.startsWith("Created") && !s.startsWith("Execution time")),
    ["Status ✓ Completed", "Depth Fast", "Estimated work 50 h", "Credits used 8 credits"],
  );

  await openTab("Human spec");
  await browser.$('article[aria-label="Human spec"] h1').waitForExist({ timeout: 20000 });
  assert.equal(await textOf('article[aria-label="Human spec"] h1'), FAST_TITLE);
  assert.deepEqual(await texts('nav[aria-label="Contents of the human spec"] a'), [
    FAST_TITLE,
    "Executive summary",
    "Core functionalities",
    "Personas",
    "End user",
    "Team lead",
    "Roles",
    "Tech stack",
    "Milestones",
    "Milestone 1: Project setup and foundations (12 h)",
    "Milestone 2: Core features: Daily check-ins, Streaks (6 h)",
    "Milestone 3: Core features: Weekly summary by email (4 h)",
    "Milestone 4: Testing, documentation and maintenance (12 h)",
    "Milestone 5: Deployment, CI/CD and monitoring (16 h)",
    "Total",
  ]);

  // Copied in WebKit: the document goes to the clipboard from Rust, whole.
  await openTab("Coding-agent spec");
  await click("button", "Copy for a coding agent");
  await waitForText("Copied. Paste it into your coding agent.");
  const [job] = await invoke("list_jobs", { kind: "spec", limit: 1 });
  const agentMarkdown = await invoke("spec_markdown", { specId: job.remoteId, doc: "codingAgent" });
  assert.match(agentMarkdown, new RegExp(`^# ${FAST_TITLE}`));
  assert.equal(clipboard(), agentMarkdown);

  await openTab("Scope");
  assert.equal(await textOf(".scope-summary"), "50 h in total · 5 milestones · 9 stories");
  assert.deepEqual(await texts(".disclosure-milestone"), [
    "▾ Milestone 1: Project setup and foundations 2 stories 12 h",
    "▾ Milestone 2: Core features: Daily check-ins, Streaks 2 stories 6 h",
    "▾ Milestone 3: Core features: Weekly summary by email 1 story 4 h",
    "▾ Milestone 4: Testing, documentation and maintenance 2 stories 12 h",
    "▾ Milestone 5: Deployment, CI/CD and monitoring 2 stories 16 h",
  ]);
  // A story opens on its acceptance criteria.
  const streaks = await browser.$('//li[contains(@class, "scope-story")]/button[.//span[contains(@class, "scope-title") and normalize-space() = "2.2 Streaks"]]');
  await streaks.click();
  assert.equal(await streaks.getAttribute("aria-expanded"), "true");
  assert.equal(await textOf(".scope-story .criteria-title"), "Acceptance criteria");

  await openTab("Graphs");
  // The graphs load when their tab is first opened.
  await waitForCount(".graphs h2", 3);
  assert.deepEqual(await texts(".graphs h2"), ["User flow", "Architecture", "Architecture infographic"]);
  // One user-flow node per story; the architecture is the stack plus one module per story.
  await waitForCount('[aria-label="User flow diagram"] .react-flow__node', 9);
  await waitForCount('[aria-label="User flow diagram"] .react-flow__edge', 8);
  await waitForCount('[aria-label="Architecture diagram"] .react-flow__node', 14);
  await waitForCount('[aria-label="Architecture diagram"] .react-flow__edge', 18);
  // The infographic is served by the sandbox on loopback and shows in place.
  const infographic = await browser.$(`img[alt="Architecture infographic of ${FAST_TITLE}"]`);
  await browser.waitUntil(async () => (await infographic.getProperty("naturalWidth")) > 0, {
    timeout: 20000,
    timeoutMsg: "the architecture infographic never loaded",
  });
});

test("a deep spec from a description and a file completes with subtasks from the file's features", async () => {
  const dir = join(env("SPECDESK_E2E_WORK"), "files");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, FILE_NAME);
  writeFileSync(path, FILE_TEXT);

  await openArea("Specs");
  await browser.$("h1=Specs").waitForExist();
  // The app reads only files the user chose or dropped: the page naming a path is not enough.
  const refused = await browser.execute(
    (p) =>
      window.__TAURI_INTERNALS__.invoke("inspect_file", { path: p }).then(
        () => "read",
        (e) => `${e.kind}: ${e.message}`,
      ),
    path,
  );
  assert.equal(
    refused,
    "invalidInput: Specdesk reads only a file you choose. Choose the file again, or drop it on the window.",
  );
  // Chosen in the system's file dialog (GTK's, the path typed into it as a person would), then
  // removed: the drop below brings it back.
  await click("button", "Choose a file…");
  await answerFileDialog("Choose a file that describes what to build", path);
  await waitForTextOf(".file-chosen strong", FILE_NAME);
  await click("button", "Remove file");
  await browser.waitUntil(async () => !(await browser.$(".file-chosen").isExisting()), { timeout: 10000, timeoutMsg: "the chosen file stayed" });
  // Dropped on the window as Tauri tells the web view (`tauriDrag`: WebDriver cannot drag a file
  // from outside the window; the test build counts the event's files as dropped). Everything
  // after it is the app's own: the composer's listener, inspect_file, and the upload.
  await tauriDrag("drop", [path]);
  await waitForTextOf(".file-chosen strong", FILE_NAME);
  assert.equal(await textOf(".file-chosen .muted"), `(${statSync(path).size} bytes)`);

  await fill("What do you want to build?", DEEP);
  await (await browser.$('form[aria-label="New spec"] input[type="radio"][value="deep"]')).click();
  assert.equal(await textOf(".cost-hint"), "Deep spec: about 10–50 credits. You have 9,992 credits.");
  await generate();
  await waitForGeneration(DEEP, { depth: "Deep", credits: 22, hours: 140 });
  await waitForBalance("9,970");

  await click("button", "Open spec", await browser.$(jobRow(DEEP)));
  await waitForTextOf("#spec-title", DEEP_TITLE);
  assert.deepEqual(await texts(".spec-head .badge"), ["✓ Completed", "Deep"]);
  assert.equal(await textOf('section[aria-labelledby="request-title"]'), `What was asked ${DEEP} File: ${FILE_NAME} ↗`);

  await openTab("Scope");
  assert.equal(await textOf(".scope-summary"), "140 h in total · 5 milestones · 11 stories · 40 subtasks");
  // The features come from the file's bullet list.
  assert.deepEqual(await texts(".disclosure-milestone"), [
    "▾ Milestone 1: Project setup and foundations 2 stories 22 h",
    "▾ Milestone 2: Core features: Weekly meal plan, Shopping list from the plan 3 stories 40 h",
    "▾ Milestone 3: Core features: Recipe import from a website 2 stories 62 h",
    "▾ Milestone 4: Testing, documentation and maintenance 2 stories 4 h",
    "▾ Milestone 5: Deployment, CI/CD and monitoring 2 stories 12 h",
  ]);
});

test("the library lists both specs and searches their descriptions", async () => {
  await openArea("Specs");
  await waitForCount(".library tbody tr", 2);
  assert.deepEqual(await libraryRows(), [
    [DEEP, "✓ Completed", "Deep", "140 h", "22 credits"],
    [FAST, "✓ Completed", "Fast", "50 h", "8 credits"],
  ]);
  assert.equal(await textOf(".library .pager span"), "1–2 of 2");

  await search("HABIT");
  await waitForTextOf(".library .pager span", "1–1 of 1");
  assert.deepEqual((await libraryRows()).map((r) => r[0]), [FAST]);

  await search("habit|meal planner", { pattern: true });
  await waitForTextOf(".library .pager span", "1–2 of 2");
  assert.deepEqual((await libraryRows()).map((r) => r[0]), [DEEP, FAST]);

  await search("bakery", { pattern: true });
  await waitForText("No spec matches these filters. Change or clear them to see more.");
  assert.equal(await browser.$(".library tbody tr").isExisting(), false);

  await search("(habit", { pattern: true });
  await waitForText("is not a search pattern the service can use");

  await click("button", "Clear search", await browser.$(".library"));
  await waitForTextOf(".library .pager span", "1–2 of 2");
});

test("the plan of the fast spec changes, chart included, as the sandbox project advances", async () => {
  await click("button", FAST, await browser.$(".library"));
  await waitForTextOf("#spec-title", FAST_TITLE);
  await click("button", "Open plan");
  await browser.$("h1=Plans").waitForExist();
  await waitForTextOf(".plan-name", FAST_TITLE);
  assert.equal(await textOf(".progress-headline"), "0 of 3 features built (0%)");
  assert.deepEqual(await planFeatures(), [
    ["Daily check-ins", "Planned"],
    ["Streaks", "Planned"],
    ["Weekly summary by email", "Planned"],
  ]);
  await click("summary", "Progress over time as a table");
  assert.deepEqual(await chartRows(), [["0%", "0", "0", "3"]]);
  assert.equal(await browser.$$("svg circle.chart-dot").length, 1);
  const projectId = await textOf(".plan-ids code:first-child");
  assert.match(projectId, /^[0-9a-f]{24}$/);
  await click("button", "Copy for a coding agent");
  await waitForText("Copied. Paste the plan into your coding agent.");
  const planMarkdown = await invoke("plan_markdown", { target: { projectId } });
  assert.match(planMarkdown, new RegExp(`^# Plan: ${FAST_TITLE}\\n`));
  assert.equal(clipboard(), planMarkdown);

  // Two simulated coding runs: the first starts two features, the second builds them.
  const first = await advanceProject(projectId);
  assert.equal(first.plan.progress.built, 0);
  await click("button", "Refresh");
  await waitForText("The plan changed; a snapshot was saved for the progress chart.");
  assert.deepEqual(await planFeatures(), [
    ["Daily check-ins", "In progress"],
    ["Streaks", "In progress"],
    ["Weekly summary by email", "Planned"],
  ]);
  assert.equal(await textOf(".progress-headline"), "0 of 3 features built (0%)");
  await waitForCount("svg circle.chart-dot", 2);

  await advanceProject(projectId);
  await click("button", "Refresh");
  // An item that extends a feature counts too (4 in all); the suggested one does not.
  await waitForTextOf(".progress-headline", "2 of 4 features built (50%)");
  assert.deepEqual(await planFeatures(), [
    ["Daily check-ins", "Built, not checked yet"],
    ["Daily check-ins: export to CSV", "In progress"],
    ["Streaks", "Built, not checked yet"],
    ["Weekly summary by email", "In progress"],
    ["Dark mode", "Planned"],
  ]);
  assert.equal(await textOf(".proposed-note"), "✦ 1 suggested feature not counted until you confirm it.");
  await waitForCount("svg circle.chart-dot", 3);
  assert.deepEqual(await chartRows(), [
    ["0%", "0", "0", "3"],
    ["0%", "0", "0", "3"],
    ["50%", "2", "0", "4"],
  ]);
  assert.match(await textOf(".chart figcaption"), /^3 snapshots from .+ to .+: 0% → 50% built\.$/);
});

test("in WebKit, a feature's details and the id form take the focus, and closing gives it back", async () => {
  /** What has the focus: its tag, its text, and the label of a field. */
  const focused = () =>
    browser.execute(() => {
      const el = document.activeElement;
      const label = el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent.trim() : undefined;
      return [el?.tagName ?? "", el?.textContent?.trim() ?? "", label ?? el?.getAttribute("aria-label") ?? ""];
    });
  // On the plan the previous test advanced: a feature's details focus their heading.
  await click("button", "Streaks", await browser.$("ul.features"));
  await browser.$(".feature-detail h4").waitForExist({ timeout: 10000 });
  let now = [];
  await browser.waitUntil(async () => ((now = await focused()), now[0] === "H4" && now[1] === "Streaks"), {
    timeout: 10000,
    timeoutMsg: `the details' heading never took the focus (${now.join(" | ")})`,
  });
  // Closing gives the focus back to the feature's button.
  await (await $label("Close the details of Streaks")).click();
  await browser.waitUntil(async () => ((now = await focused()), now[0] === "BUTTON" && now[1] === "Streaks"), {
    timeout: 10000,
    timeoutMsg: `the focus did not come back to the feature (${now.join(" | ")})`,
  });

  // The Plans home: "Open by project id…" shows its field with the focus in it.
  await click("button", "← All projects");
  await click("button", "Open by project id…");
  await browser.waitUntil(async () => ((now = await focused()), now[0] === "INPUT" && now[2] === "Project id"), {
    timeout: 10000,
    timeoutMsg: `the project id field never took the focus (${now.join(" | ")})`,
  });
});

test("a generation goes on when the app quits, and finishes after a relaunch", async () => {
  await openArea("Specs");
  await browser.$("h1=Specs").waitForExist();
  await fill("What do you want to build?", SLOW);
  await (await browser.$('form[aria-label="New spec"] input[type="radio"][value="fast"]')).click();
  await generate();
  const row = jobRow(SLOW);
  // Unfinished in the app's ledger (Stop following is offered only then) when the app quits.
  await (await rowOf(SLOW)).$("button=Stop following").waitForExist({ timeout: 10000 });
  assert.notEqual((await texts(`${row} .tone-badge`))[0], "Completed");
  await quit();

  await launch();
  await browser.$("h1=Specs").waitForExist({ timeout: 20000 });
  await waitForGeneration(SLOW, { depth: "Fast", credits: 7, hours: 54 });
  await waitForBalance("9,963");
  await waitForTextOf(".library .pager span", "1–3 of 3");
  await click("button", "Open spec", await browser.$(row));
  await waitForTextOf("#spec-title", SLOW_TITLE);
  assert.equal(await textOf(".spec-head .tone-badge"), "✓ Completed");
});

test("Back and Forward move between screens, and a relaunch reopens where the user was", async () => {
  // The finished spec is open (the test before); Alt+Left goes back to the list, Alt+Right returns.
  await waitForTextOf("#spec-title", SLOW_TITLE);
  await browser.keys(["Alt", "ArrowLeft"]);
  await browser.$("h1=Specs").waitForExist({ timeout: 10000 });
  await browser.keys(["Alt", "ArrowRight"]);
  await waitForTextOf("#spec-title", SLOW_TITLE);
  // Focus is on the new screen's heading, as after every navigation.
  assert.equal(await browser.execute(() => document.activeElement?.tagName), "H1");

  await quit();
  await launch();
  await waitForTextOf("#spec-title", SLOW_TITLE);
  assert.match(await browser.execute(() => window.location.hash), /^#\/specs\/[0-9a-f]{24}$/);
});
