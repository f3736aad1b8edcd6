// The Gateway studio's limits and its work across a relaunch, on the real app and its embedded
// sandbox: a rate limit (a sandbox fault) shown with its wait; the daily spend cap stopping an
// image before it is sent, then raised for today from the error; a running video counting against
// the cap at its estimate (an image that would pass the cap with it is stopped, and goes once the
// video is no longer followed); a video job that goes on while
// the app is closed and plays after the relaunch, with the image still shown from the library;
// a free key whose 5-credit trial runs out, reaching subscription_required; and a chat reply cut
// by a killed app (SIGKILL), kept, marked and continued after the relaunch. It works alone
// or after the other files (same data folder). Nothing here measures time.
import { execFileSync } from "node:child_process";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { addFault, clearFaults, browser, click, env, fill, launch, openArea, openStudio, quit, useConnection, useSandbox, waitForDuration, waitForSelected, waitForText } from "./helpers.mjs";

const KETTLE = "A copper kettle on a stone windowsill";
const FILM = "Steam rising from a copper kettle";
const CUT_QUESTION = "Tell me about copper kettles";

let sandboxUrl;

before(async () => {
  await launch();
});

after(async () => {
  await quit().catch(() => undefined);
});

/** Selects the option whose text is `text` in the select labelled `label`. */
async function choose(label, text) {
  const id = await browser.execute((l) => [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === l)?.htmlFor, label);
  assert.ok(id, `a select labelled "${label}"`);
  await (await browser.$(`[id="${id}"]`)).selectByVisibleText(text);
}

/** Empties the field labelled `label`. */
async function clearField(label) {
  const id = await browser.execute((l) => [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === l)?.htmlFor, label);
  assert.ok(id, `a field labelled "${label}"`);
  // Typed away, as a person does (clearing the value from WebDriver is not an input React sees).
  await (await browser.$(`[id="${id}"]`)).click();
  await browser.keys(["Control", "a"]);
  await browser.keys("Backspace");
}

/** The text of the error panel shown in the main area (whitespace collapsed). */
const errorPanel = () =>
  browser.execute(() => document.querySelector("main.main .panel-error")?.innerText.replace(/\s+/g, " ").trim() ?? "");

async function generateImage(prompt) {
  await openArea("Gateway");
  await openStudio("Images");
  await fill("Prompt", prompt);
  await click("button", "Generate image");
}

/** Waits until an image from the media folder is decoded in the page (`near`: a text beside it). */
async function waitForDecodedImage(near) {
  await browser.waitUntil(
    async () =>
      browser.execute(
        (text) =>
          [...document.querySelectorAll(".gallery-card")].some(
            (card) =>
              card.querySelector(".gallery-prompt")?.textContent.trim() === text &&
              [...card.querySelectorAll("img")].some((img) => /^(asset:\/\/localhost\/|http:\/\/asset\.localhost\/)/.test(img.src) && img.complete && img.naturalWidth > 0),
          ),
        near,
      ),
    { timeout: 30000, timeoutMsg: `no decoded image beside "${near}"` },
  );
}

test("the Sandbox is in use", async () => {
  sandboxUrl = await useSandbox();
});

test("a rate limit longer than the app waits on its own is explained with its wait, and Try again waits for it", async () => {
  await addFault(sandboxUrl, {
      match: { method: "POST", path: "*/v1/images" },
      times: 1,
      respond: { status: 429, code: "rate_limit_exceeded", retryAfter: 300, message: "More than 10 requests in a minute. Retry after 300 seconds." },
    });
  await generateImage("A kettle that is never drawn");
  await browser.waitUntil(async () => (await errorPanel()) !== "", { timeout: 20000, timeoutMsg: "no error panel" });
  const text = await errorPanel();
  assert.match(text, /^Too many requests .+ You can try again in (29\d|300) s\. Try again$/, text);
  const retry = await (await browser.$("main.main .panel-error")).$("button=Try again");
  assert.equal(await retry.isEnabled(), false, "Try again waits for the service's Retry-After");
  await clearFaults(sandboxUrl);
});

test("the daily spend cap stops an image before it is sent, and raising today's cap lets it through", async () => {
  await openArea("Settings");
  await click("button", "Change daily cap");
  await fill("Daily spend cap in credits (optional)", "0.01");
  await click("button", "Save Sandbox's cap");
  await waitForText("Daily spend cap of Sandbox: 0.01 credits.");
  try {
    await capStopsAnImage();
  } finally {
    // The cap is taken off again for the tests and files after this one.
    await openArea("Settings");
    await click("button", "Change daily cap");
    await clearField("Daily spend cap in credits (optional)");
    await click("button", "Save Sandbox's cap");
    await waitForText("Sandbox has no daily spend cap.");
  }
});

async function capStopsAnImage() {
  await generateImage(KETTLE);
  await browser.waitUntil(async () => (await errorPanel()).includes("This call was not sent"), { timeout: 20000, timeoutMsg: "the cap did not stop the call" });
  const text = await errorPanel();
  assert.match(
    text,
    /^Today's spend cap is reached This call was not sent: .+ spent today on Sandbox, its daily cap is 0\.01 credits, and this call is estimated at .+ credits?, which would pass it\. Raise today's cap to send it, or wait until tomorrow\. /,
    text,
  );
  assert.equal(await browser.$('section[aria-label="Just generated"]').isExisting(), false, "nothing was generated");

  await click("button", "Raise today's cap");
  await waitForText("Today's cap is now");
  await click("button", "Try again", await browser.$("main.main .panel-error"));
  await waitForDecodedImage(KETTLE);
}

/** Sets Sandbox's daily cap in Settings (`""`: no cap). */
async function setCap(credits) {
  await openArea("Settings");
  await click("button", "Change daily cap");
  if (credits) await fill("Daily spend cap in credits (optional)", credits);
  else await clearField("Daily spend cap in credits (optional)");
  await click("button", "Save Sandbox's cap");
  await waitForText(credits ? `Daily spend cap of Sandbox: ` : "Sandbox has no daily spend cap.");
}

/** Starts a video of `seconds` seconds from the Video studio. */
async function startVideo(prompt, seconds) {
  await openArea("Gateway");
  await openStudio("Video");
  await fill("Prompt", prompt);
  const field = await browser.$(`[id="${await browser.execute(() => [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === "Length (seconds)")?.htmlFor)}"]`);
  await field.click();
  await browser.keys(["Control", "a"]);
  await browser.keys(String(seconds));
  await click("button", "Start video");
}

const number = (text) => Number(text.replace(/,/g, ""));

test("a running video counts against the cap at its estimate: a call that would pass the cap with it waits, and goes once it stops", async () => {
  const held = "A lighthouse in a storm, slowly";
  try {
    // Today's spending, the cap's raise and the video's estimate, as a refusal says them.
    await setCap("0.01");
    await startVideo(held, 20);
    await browser.waitUntil(async () => (await errorPanel()).includes("This call was not sent"), { timeout: 20000, timeoutMsg: "the cap did not stop the video" });
    const probe = /This call was not sent: ([\d.,]+) credits? spent today on Sandbox, (?:its daily cap is [\d.,]+ credits?|its cap for today is [\d.,]+ credits? \([\d.,]+ credits? a day, raised by ([\d.,]+) credits? today\)), and this call is estimated at ([\d.,]+) credits?/.exec(await errorPanel());
    assert.ok(probe, await errorPanel());
    const [spent, raised, video] = [number(probe[1]), number(probe[2] ?? "0"), number(probe[3])];
    await openStudio("Images");
    const image = number(/· 1 image: ([\d.,]+) credits?/.exec(await browser.execute(() => document.querySelector("main.main .price-line")?.textContent ?? ""))?.[1] ?? "NaN");
    assert.ok(image > 0, "the image's price is shown");
    // A cap the video fits under, but not the video and an image together.
    const cap = Math.round((spent + video + image / 2 - raised) * 1e6) / 1e6;
    await setCap(String(cap));
    // The service does not answer how the video goes, so it stays running.
    await addFault(sandboxUrl, { match: { method: "GET", path: "*/v1/videos/*" }, times: 100000, respond: { status: 503, code: "service_unavailable", message: "Busy." } });
    await startVideo(held, 20);
    const card = await browser.$(`li.video-job[aria-label="Video: ${held}"]`);
    await card.waitForExist({ timeout: 20000 });

    await generateImage("A kettle that waits for the video");
    await browser.waitUntil(async () => (await errorPanel()).includes("This call was not sent"), { timeout: 20000, timeoutMsg: "the image was not stopped" });
    assert.match(
      await errorPanel(),
      new RegExp(`spent today on Sandbox and about ${String(video).replace(".", "\\.")} credits? more on calls still running, .+ and this call is estimated at ${String(image).replace(".", "\\.")} credits?, which would pass it\\. Raise today's cap to send it, wait for the running calls to end, or wait until tomorrow\\.`),
    );

    // The video no longer followed, nothing counts for it: the image goes.
    await openStudio("Video");
    await click("button", "Stop following", await browser.$(`li.video-job[aria-label="Video: ${held}"]`));
    await (await browser.$(`li.video-job[aria-label="Video: ${held}"]`).$("button=Stop following")).waitForExist({ reverse: true, timeout: 10000 });
    await generateImage("A kettle that waits for the video");
    await waitForDecodedImage("A kettle that waits for the video");
  } finally {
    await clearFaults(sandboxUrl);
    await setCap("");
  }
});

test("a video goes on while the app is closed and plays after the relaunch; the image is still in the gallery", async () => {
  await openArea("Gateway");
  await openStudio("Video");
  await fill("Prompt", FILM);
  // A number field that never holds nothing (it clamps to 1..20): its text selected, then replaced.
  const seconds = await browser.$(`[id="${await browser.execute(() => [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === "Length (seconds)")?.htmlFor)}"]`);
  await seconds.click();
  await browser.keys(["Control", "a"]);
  await browser.keys("4");
  assert.equal(await seconds.getValue(), "4");
  await click("button", "Start video");
  const card = await browser.$(`li.video-job[aria-label="Video: ${FILM}"]`);
  await card.waitForExist({ timeout: 20000 });
  await quit();

  await launch();
  await openArea("Gateway");
  await openStudio("Video");
  const again = await browser.$(`li.video-job[aria-label="Video: ${FILM}"]`);
  await again.waitForExist({ timeout: 20000 });
  await again.$("video").waitForExist({ timeout: 60000 });
  // WebKit decodes the H.264 file the job saved in the media folder (GStreamer's libav).
  const duration = await waitForDuration(`li.video-job[aria-label="Video: ${FILM}"] video`, "the video", 30000);
  assert.ok(Math.abs(duration - 4) < 0.5, `a 4-second video (${duration})`);

  await openStudio("Images");
  await waitForDecodedImage(KETTLE);

  // The image viewer in WebKit: it takes the focus, Right and Left step through the gallery,
  // Escape closes it and the focus goes back to the image shown last.
  await generateImage("A second kettle, for the viewer");
  await waitForDecodedImage("A second kettle, for the viewer");
  const ids = await browser.execute(() => [...document.querySelectorAll(".gallery-thumb")].map((b) => b.getAttribute("data-media-id")));
  assert.ok(ids.length >= 2, `the gallery holds the images made so far (${ids.length})`);
  const title = () => browser.execute(() => document.querySelector('[role="dialog"] h2')?.textContent.trim() ?? "");
  // Opened from the page (the thumbnail may sit under the fold of the virtual display).
  await browser.execute((id) => document.querySelector(`.gallery-thumb[data-media-id="${id}"]`).click(), ids[0]);
  await browser.waitUntil(async () => (await title()) === `Image 1 of ${ids.length}`, { timeout: 10000, timeoutMsg: `the viewer did not open on image 1: ${await title()}` });
  assert.equal(await browser.execute(() => document.activeElement?.closest('[role="dialog"]') !== null), true, "the viewer has the focus");
  await browser.keys(["ArrowRight"]);
  await browser.waitUntil(async () => (await title()) === `Image 2 of ${ids.length}`, { timeout: 10000, timeoutMsg: `Right did not show image 2: ${await title()}` });
  await browser.keys(["ArrowLeft"]);
  await browser.keys(["ArrowLeft"]);
  await browser.waitUntil(async () => (await title()) === `Image ${ids.length} of ${ids.length}`, { timeout: 10000, timeoutMsg: `Left did not wrap to the last image: ${await title()}` });
  await browser.keys(["Escape"]);
  await browser.waitUntil(async () => (await title()) === "", { timeout: 10000, timeoutMsg: "Escape did not close the viewer" });
  assert.equal(await browser.execute(() => document.activeElement?.getAttribute("data-media-id")), ids.at(-1));
});

test("a free key's 5-credit trial runs out: the next call says a paid plan is needed", async () => {
  // The embedded sandbox listens on a new port after the relaunch.
  const sandbox = await useConnection("Sandbox");
  sandboxUrl = await sandbox.$(".mono").getText();
  await openArea("Settings");
  await click("button", "Add connection");
  await fill("Name", "Trial");
  await fill("Service address", sandboxUrl);
  await fill("API key", "sk_sandbox_free");
  await click("button", "Add connection");
  await useConnection("Trial");

  await openArea("Gateway");
  await openStudio("Images");
  await choose("Images", "4");
  await fill("Prompt", "A trial kettle");
  // 4 images a call (0.3 or 0.4 credits each): the trial allows calls while less than 5 credits
  // are used, so one of the first 6 calls is refused.
  // The gallery's count (its grid renders the rows in view only).
  const cards = () =>
    browser.execute(() => Number((document.querySelector(".gallery .section-head .muted")?.textContent ?? "0").replace(/[^0-9]/g, "")));
  let text = "";
  for (let call = 1; call <= 8; call += 1) {
    const before = await cards();
    await choose("Images", "4");
    await click("button", "Generate 4 images");
    const button = await browser.$("button=Generate 4 images");
    await browser.waitUntil(async () => (await errorPanel()) !== "" || ((await cards()) >= before + 4 && (await button.isExisting()) && (await button.isEnabled())), {
      timeout: 60000,
      timeoutMsg: `call ${call} neither made 4 images nor failed`,
    });
    text = await errorPanel();
    if (text) {
      assert.ok(call >= 4, `the trial allowed 3 calls or more before it ran out (${call}): ${text}`);
      break;
    }
  }
  assert.match(text, /^A paid plan is needed Your free trial is used up \(\d+(\.\d+)? credits\)\. Subscribe to keep using the AI gateway\. Upgrade Try again$/, text);
  assert.equal(await (await browser.$("main.main .panel-error")).$("button=Upgrade").isExisting(), true);
  // The service has shown the key is on the trial: the Gateway says what the trial allows, and
  // Settings marks the connection.
  await waitForText("This connection's key is on the AI gateway's free trial: 5 credits of gateway use in all, and at most 30 calls a minute");
  await useConnection("Sandbox");
  assert.equal(await (await browser.$('li[aria-label="Trial"]')).$("span=Gateway free trial").isExisting(), true);
  assert.equal(await (await browser.$('li[aria-label="Sandbox"]')).$("span=Gateway free trial").isExisting(), false);
});

test("a reply cut by a killed app is kept, marked and continued after the relaunch", async () => {
  const url = await useSandbox();
  // Each word of a reply comes 250 ms after the one before, so the app can be killed mid-reply.
  const paced = await fetch(`${url}/_sandbox/gateway/pace`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ deltaIntervalMs: 250 }) });
  assert.equal(paced.status, 200, await paced.clone().text());
  await openArea("Gateway");
  await openStudio("Chat");
  const chosen = await waitForSelected("Model");
  await (await browser.$("#chat-input")).setValue(CUT_QUESTION);
  await browser.keys("Enter");
  const whole = `Sandbox reply from ${chosen}. You wrote ${CUT_QUESTION.split(/\s+/).length} words: "${CUT_QUESTION}"`;
  const reply = () => browser.execute(() => [...document.querySelectorAll('li.turn[data-role="assistant"] .turn-body')].at(-1)?.textContent.replace(/\s+/g, " ").trim() ?? "");
  // Six words shown: Rust has kept the reply's words at least once since its first.
  await browser.waitUntil(async () => (await reply()).split(" ").length >= 6, { timeout: 30000, timeoutMsg: "the reply never streamed" });
  const shown = await reply();
  assert.ok(whole.startsWith(shown) && shown.length < whole.length, `mid-reply when killed: "${shown}"`);

  // Killed as a crash would: no clean quit, nothing flushed on the way out.
  execFileSync("pkill", ["-KILL", "-f", `^${env("SPECDESK_E2E_APP")}( |$)`]);
  await quit().catch(() => undefined);
  await launch();
  await useSandbox();
  await openArea("Gateway");
  await openStudio("Chat");
  // The conversation, named by its question, opened from the list.
  await (await browser.$('nav[aria-label="Conversations"]')).$(`button*=${CUT_QUESTION}`).click();
  await browser.waitUntil(async () => (await browser.$$('li.turn[data-role="assistant"]')).length === 1, { timeout: 20000, timeoutMsg: "the conversation did not open" });
  const turn = await browser.$('li.turn[data-role="assistant"]');
  await turn.$("span=Cut off").waitForExist({ timeout: 20000 });
  const kept = await reply();
  assert.ok(kept.split(" ").length >= 2 && whole.startsWith(kept) && kept.length < whole.length, `the words kept are the reply's first ones: "${kept}"`);
  await waitForText("Specdesk closed before this reply finished. The part received is kept.");

  // Continued from its own words (the restarted Sandbox streams at its own pace): one whole reply.
  await click("button", "Continue", turn);
  await browser.waitUntil(async () => (await reply()) === whole, { timeout: 30000, timeoutMsg: `the continued reply is not the whole one: "${await reply()}"` });
  await browser.waitUntil(async () => !(await turn.$("span=Cut off").isExisting()), { timeout: 10000, timeoutMsg: "the reply is still marked cut off" });
});
