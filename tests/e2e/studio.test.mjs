// The Gateway studio on the real app and its embedded sandbox, in WebKit: a chat reply streamed
// and announced once as the sandbox wrote it; speech generated and played (the audio element
// decodes it and reports its duration) and that take transcribed back to its text; an image
// generated and shown from the media folder. It works alone or after the other files (same data
// folder). The sandbox is deterministic, so texts are exact; nothing here measures time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { browser, click, fill, launch, quit, waitForText } from "./helpers.mjs";

const MESSAGE = "Hello from the end-to-end test";
const SPOKEN = "Welcome to Specdesk, the desktop client.";

before(async () => {
  await launch();
});

after(async () => {
  await quit();
});

async function openArea(name) {
  await click("button", name, await browser.$('nav[aria-label="Areas"]'));
}

async function openStudio(name) {
  await click("button", name, await browser.$('[role="tablist"][aria-label="Studios"]'));
  await browser.waitUntil(
    async () => (await browser.execute(() => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent.trim())) === name,
    { timeout: 10000, timeoutMsg: `the ${name} studio did not open` },
  );
}

/** The value of the select labelled `label`. */
async function selected(label) {
  return browser.execute((text) => {
    const l = [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === text);
    return l ? document.getElementById(l.htmlFor)?.value : null;
  }, label);
}

test("the Sandbox is in use", async () => {
  await browser.waitUntil(
    async () => (await browser.$("main.welcome").isExisting()) || (await browser.$('nav[aria-label="Areas"]').isExisting()),
    { timeout: 20000, timeoutMsg: "neither the welcome nor the app frame appeared" },
  );
  if (await browser.$("main.welcome").isExisting()) await click("button", "Explore the Sandbox");
  await openArea("Settings");
  const sandbox = await browser.$('li[aria-label="Sandbox"]');
  await sandbox.waitForExist({ timeout: 20000 });
  const use = await sandbox.$("button=Use");
  if (await use.isExisting()) await use.click();
  await sandbox.$("span=In use").waitForExist({ timeout: 10000 });
});

test("a chat reply streams in and is announced once, as the sandbox wrote it", async () => {
  await openArea("Gateway");
  await browser.$("h1=Gateway").waitForExist({ timeout: 10000 });
  await browser.waitUntil(async () => !!(await selected("Model")), { timeout: 20000, timeoutMsg: "no chat model was offered" });
  const model = await selected("Model");
  const input = await browser.$("#chat-input");
  await input.setValue(MESSAGE);
  await browser.keys("Enter");
  const words = MESSAGE.split(/\s+/).length;
  const expected = `Sandbox reply from ${model}. You wrote ${words} words: "${MESSAGE}"`;
  const announcer = await browser.$('[data-testid="chat-announcer"]');
  await browser.waitUntil(async () => (await announcer.getText()) === expected || (await announcer.getProperty("textContent")) === expected, {
    timeout: 30000,
    timeoutMsg: "the finished reply was not announced",
  });
  const replies = await browser.execute(() =>
    [...document.querySelectorAll('li.turn[data-role="assistant"] .turn-body')].map((b) => b.textContent.replace(/\s+/g, " ").trim()),
  );
  assert.deepEqual(replies, [expected]);
  assert.equal(await input.getValue(), "", "the composer is cleared once sent");
});

test("speech is generated and plays, and the take is transcribed back to its text", async () => {
  await openStudio("Speech and music");
  await fill("Text to speak", SPOKEN);
  await click("button", "Generate speech");
  const player = await browser.$('section[aria-label="Player"]');
  await player.waitForExist({ timeout: 30000 });
  // WebKit decodes the file the asset protocol serves from the media folder.
  let duration = 0;
  await browser.waitUntil(
    async () => {
      duration = await browser.execute(() => {
        const audio = document.querySelector('section[aria-label="Player"] audio');
        return audio && Number.isFinite(audio.duration) ? audio.duration : 0;
      });
      return duration > 0;
    },
    { timeout: 20000 },
  ).catch(async () => {
    const audio = await browser.execute(() => {
      const a = document.querySelector('section[aria-label="Player"] audio');
      return a ? `src=${a.src} error=${a.error ? a.error.code : "none"} ready=${a.readyState} network=${a.networkState}` : "no audio element";
    });
    assert.fail(`the audio element never reported a duration: ${audio}`);
  });
  assert.ok(duration > 0.5, `duration ${duration}`);

  await openStudio("Transcription");
  const take = await browser.execute(() => {
    const l = [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === "Or a take from the history");
    const select = l && document.getElementById(l.htmlFor);
    const option = select && [...select.options].find((o) => o.value);
    return option ? option.value : null;
  });
  assert.ok(take, "the take is offered");
  await (await browser.$(`option[value="${take}"]`)).click();
  await click("button", "Transcribe");
  const transcript = await browser.$('[role="region"][aria-label="Transcript"]');
  await transcript.waitForExist({ timeout: 30000 });
  assert.equal((await transcript.getText()).trim(), SPOKEN);
});

test("an image is generated and shown from the media folder", async () => {
  await openStudio("Images");
  await fill("Prompt", "A blue kettle on a wooden table");
  await click("button", "Generate image");
  await waitForText("A blue kettle on a wooden table", 30000);
  await browser.waitUntil(
    async () =>
      browser.execute(() =>
        [...document.querySelectorAll("img")].some((img) => /^(asset:\/\/localhost\/|http:\/\/asset\.localhost\/)/.test(img.src) && img.complete && img.naturalWidth > 0),
      ),
    { timeout: 20000, timeoutMsg: "no image from the media folder was decoded" },
  );
});
