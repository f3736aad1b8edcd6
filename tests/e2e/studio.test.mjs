// The Gateway studio on the real app and its embedded sandbox, in WebKit: a chat reply streamed
// and announced once as the sandbox wrote it; speech generated and played (the audio element
// decodes it and reports its duration) and that take transcribed back to its text, the
// transcript copied (the clipboard read back); documents reranked and their order copied; an image
// generated and shown from the media folder; an image dropped on the chat (Tauri's drag-drop
// event, read by Rust) sent with a message that gets a tool call, answered with a tool result;
// an image copied to the X clipboard pasted with Ctrl+V (read by Rust: WebKitGTK's paste brings
// no file); an A/B of two takes whose S key carries the other take on from the same moment;
// a compare of two models with its winner recorded; a recording from the microphone (WebKit's
// mock capture device, through Web Audio) kept as a WAV file, played back and transcribed. It works alone or after the other files
// (same data folder). The sandbox is deterministic, so texts are exact; nothing here measures
// time.
import { execFileSync, spawn } from "node:child_process";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG, browser, click, copyOfLatestTake, decoded, env, fill, launch, openArea, openStudio, plain, quit, selected, setCheck, tauriDrag, useSandbox, waitForAnnouncement, waitForDuration, waitForSelected, waitForText } from "./helpers.mjs";

const MESSAGE = "Hello from the end-to-end test";
const SPOKEN = "Welcome to Specdesk, the desktop client.";

/** What the system clipboard holds (the app writes it from Rust; read back under Xvfb). */
function clipboard() {
  return execFileSync("xclip", ["-o", "-selection", "clipboard"], { encoding: "utf8" });
}

before(async () => {
  await launch();
});

after(async () => {
  await quit();
});

test("the Sandbox is in use", async () => {
  await useSandbox();
});

test("a chat reply streams in and is announced once, as the sandbox wrote it", async () => {
  await openArea("Gateway");
  await browser.$("h1=Gateway").waitForExist({ timeout: 10000 });
  // The Gateway reopens the studio last shown (the files before this one end elsewhere), and Chat
  // the conversation last open: this test's starts anew.
  await openStudio("Chat");
  await click("button", "New chat");
  const model = await waitForSelected("Model");
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
  const duration = await waitForDuration('section[aria-label="Player"] audio', "the speech take");
  assert.ok(duration > 0.5, `duration ${duration}`);
  // The waveform is drawn in WebKit from the decoded audio: its canvas holds painted bars.
  await browser.waitUntil(
    async () =>
      browser.execute(() => {
        const c = document.querySelector('section[aria-label="Player"] canvas');
        if (!c || c.width === 0 || c.height === 0) return false;
        const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted += 1;
        return painted > c.width;
      }),
    { timeout: 20000, timeoutMsg: "the waveform was never drawn" },
  );

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
  // Copied in WebKit: the transcript goes to the clipboard from Rust, read back under Xvfb.
  await click("button", "Copy", await browser.$("section.studio-section"));
  await waitForText("Transcript copied.");
  assert.equal(clipboard(), SPOKEN);
});

test("a recording dropped on the window is transcribed (WebKit's drop, through Tauri's drop event)", async () => {
  // The take's file, copied out of the media folder as a recording of the user's own.
  const dir = mkdtempSync(join(tmpdir(), "specdesk-recording-"));
  const recording = copyOfLatestTake(dir, "interview");
  try {
    await openStudio("Speech and music");
    await openStudio("Transcription");
    // The studio listens for Tauri's drop once its subscription is made (an IPC call of its own,
    // with nothing to show for it on screen): a drop made before is not seen, so it is made again
    // until the studio names the file.
    const name = recording.slice(dir.length + 1);
    await browser.waitUntil(
      async () => {
        await tauriDrag("drop", [recording]);
        return browser.$("body").getText().then((t) => t.includes(name)).catch(() => false);
      },
      { timeout: 20000, interval: 1000, timeoutMsg: `${name} was never taken from the drop` },
    );
    await click("button", "Transcribe");
    const transcript = await browser.$('[role="region"][aria-label="Transcript"]');
    await browser.waitUntil(async () => (await transcript.isExisting()) && (await transcript.getText()).trim() === SPOKEN, {
      timeout: 30000,
      timeoutMsg: "the dropped recording was not transcribed to its text",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a recording from the microphone (WebKit's mock capture device) is kept as a WAV file, played back and transcribed", async () => {
  const media = join(env("SPECDESK_DATA_DIR"), "media");
  const recordings = () => readdirSync(media).filter((f) => f.startsWith("recording-"));
  const earlier = recordings();
  await openStudio("Transcription");
  // WebKitGTK opens the microphone only with media streams on (src-tauri/src/microphone.rs) and
  // the app's permission handler allowing it; the test build records from WebKit's mock device.
  await click("button", "Record from the microphone");
  await browser.$("button=Stop recording").waitForExist({ timeout: 10000 });
  await browser.waitUntil(async () => (await browser.$("body").getText()).includes("Recording 0:01"), {
    timeout: 10000,
    timeoutMsg: "the recording's clock never reached a second",
  });
  await click("button", "Stop recording");
  await waitForText("Your recording is kept with your takes and ready to transcribe.");
  // Kept in the media folder the moment it stopped: a WAV file, mono 16-bit at 16 kHz (the rate
  // the window asked Web Audio for), holding at least the second the clock showed.
  const added = recordings().filter((f) => !earlier.includes(f));
  assert.equal(added.length, 1, `one recording added: ${added.join(", ")}`);
  const file = added[0];
  assert.match(file, /^recording-\d+-[0-9a-f]{8}\.wav$/);
  const wav = readFileSync(join(media, file));
  assert.equal(wav.toString("ascii", 0, 4), "RIFF");
  assert.equal(wav.toString("ascii", 8, 12), "WAVE");
  assert.deepEqual([wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)], [1, 16000, 16]);
  const seconds = wav.readUInt32LE(40) / 32000;
  assert.ok(seconds >= 1, `the file holds ${seconds} s`);
  // WebKit plays the kept file back (through the asset protocol, from the media folder).
  await waitForDuration('audio[aria-label="Player of Your recording"]', "the recording");
  // Its waveform drawn from the decoded file (the mock device's tone).
  await browser.$('[aria-label="Waveform of Your recording"]').waitForExist({ timeout: 20000 });
  assert.equal(await browser.execute(() => document.querySelector('[aria-label="Waveform of Your recording"]').dataset.bars), "160");
  // It is the audio to transcribe, named as the history names it.
  const label = await browser.execute(() => document.querySelector(".transcribe-source .file-chosen")?.textContent ?? "");
  assert.match(label, new RegExp(`^Recording \\d+ \\(0:0${Math.floor(Math.round(seconds * 10) / 10)}\\)$`));
  const offered = await browser.execute(() => [...document.querySelectorAll("option")].map((o) => o.textContent));
  assert.ok(offered.includes(label), `the history offers ${label}: ${offered.join(" | ")}`);
  await click("button", "Transcribe");
  // The sandbox hears words only in its own speech takes: a recording is charged and heard as silence.
  await waitForText("The service heard no words in this audio.", 30000);
  assert.equal(await browser.execute(() => document.querySelector("section.studio-section h2")?.textContent), `Transcript of ${label}`);
});

test("A/B of two takes in WebKit: S swaps to the other take at the same moment, and the preferred mark is kept", async () => {
  await openStudio("Speech and music");
  const takes = await browser.$('[aria-label="Takes"]');
  const listed = async () => ((await takes.isExisting()) ? (await takes.$$("button*=Use as A")).length : 0);
  const before = await listed();
  await fill("Text to speak", "A second take to compare with the first one.");
  await click("button", "Generate speech");
  // The new take is listed (the list read again once it is saved) before two are picked: picked
  // earlier, a re-render could put both slots on one take.
  await browser.waitUntil(async () => (await listed()) === before + 1, { timeout: 30000, timeoutMsg: "the new take was not listed" });
  await (await takes.$$("button*=Use as A"))[0].click();
  await (await takes.$$("button*=Use as B"))[1].click();
  await browser.waitUntil(async () => /^A: take \d+ · B: take \d+$/.test(await browser.execute(() => document.querySelector(".ab-ready p")?.textContent.trim() ?? "")), {
    timeout: 10000,
    timeoutMsg: "A and B were not both picked",
  });
  await click("button", "Compare A and B");
  const ab = await browser.$("section.ab");
  await ab.waitForExist({ timeout: 10000 });
  await waitForText("Now hearing A. Press S to switch at the same moment.");
  // Both takes decoded by WebKit; A is moved to a moment of its own, then S is pressed.
  const audio = (slot) => `[aria-label="Take ${slot}"] audio`;
  const durationA = await waitForDuration(audio("A"), "take A");
  const durationB = await waitForDuration(audio("B"), "take B");
  const moment = Math.min(durationA, durationB) / 2;
  await browser.execute((sel, t) => (document.querySelector(sel).currentTime = t), audio("A"), moment);
  await browser.$("body").click();
  await browser.keys("s");
  await waitForText("Now hearing B. Press S to switch at the same moment.");
  const atB = await browser.execute((sel) => document.querySelector(sel).currentTime, audio("B"));
  assert.ok(Math.abs(atB - moment) < 0.05, `B carries on from A's moment (${moment.toFixed(3)} s): ${atB.toFixed(3)} s`);
  await browser.keys("S");
  await waitForText("Now hearing A. Press S to switch at the same moment.");
  await click("button", "Prefer B", ab);
  await (await ab.$("button=B is preferred")).waitForExist({ timeout: 10000 });
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

// ---- Chat: an image dropped on the window, a tool call answered, a compare with its winner ----

const TOOLS = JSON.stringify([
  {
    name: "lookup_price",
    description: "The price of a product.",
    input_schema: { type: "object", properties: { product: { type: "string" } }, required: ["product"] },
  },
]);
const ASK_TOOL = 'What does lookup_price say for "blue kettle"?';
const PROMPT = "Pick a name for a kettle shop";
let files;

/** Each turn of the thread: its role, then each block (an image, a text, a tool call or result). */
async function threadBlocks() {
  return browser.execute(() => {
    const flat = (el) => (el ? el.textContent.replace(/\s+/g, " ").trim() : "");
    return [...document.querySelectorAll("li.turn")].map((t) => [
      t.dataset.role,
      ...[...t.querySelector(".turn-body").children].map((b) => {
        if (b.matches("img")) return "image";
        if (b.matches("section.tool-card")) return `tool ${flat(b.querySelector("strong"))} ${flat(b.querySelector("pre"))} ${flat(b.querySelector("p")) || "unanswered"}`;
        if (b.matches(".tool-result")) return `${flat(b.querySelector(".badge"))} ${flat(b.querySelector("pre"))}`;
        return flat(b);
      }),
    ]);
  });
}

test("an image dropped on the chat is sent with a message whose tool call is answered", async () => {
  files = mkdtempSync(join(tmpdir(), "specdesk-chat-"));
  const image = join(files, "kettle.png");
  writeFileSync(image, Buffer.from(PNG, "base64"));
  // Named like an image, but text: Rust tells images by their first bytes.
  const fake = join(files, "notes.png");
  writeFileSync(fake, "Not an image at all.\n");

  await openStudio("Chat");
  await click("button", "New chat");
  const model = await waitForSelected("Model");
  await setCheck("Compare models side by side", false);
  assert.equal(await (await browser.$("#chat-system")).getValue(), "", "no system prompt is set");

  // The page naming a path is not enough: only a file the user dropped or chose is read.
  const refused = await browser.execute(
    (p) =>
      window.__TAURI_INTERNALS__.invoke("read_image_file", { path: p }).then(
        () => "read",
        (e) => `${e.kind}: ${e.message}`,
      ),
    image,
  );
  assert.equal(refused, "invalidInput: Specdesk reads only a file you choose. Choose the file again, or drop it on the window.");

  await tauriDrag("drop", [image, fake]);
  const thumbs = 'ul[aria-label="Attached images"] img';
  await browser.waitUntil(async () => decoded(thumbs), { timeout: 20000, timeoutMsg: "the dropped image's thumbnail was not shown" });
  assert.deepEqual(await browser.execute((sel) => [...document.querySelectorAll(sel)].map((i) => i.alt), thumbs), ["kettle.png"]);
  assert.equal(await plain("#chat-input-problems"), "notes.png is not a PNG, JPEG, GIF or WebP image.");

  // A tool, defined in the settings' JSON editor.
  if (!(await (await browser.$("#chat-tools")).isDisplayed())) await (await browser.$(".tools-editor summary")).click();
  await fill("Tool definitions (JSON)", TOOLS);
  await browser.waitUntil(async () => (await plain("#chat-tools-check")) === "1 tool ready: lookup_price.", {
    timeout: 10000,
    timeoutMsg: "the tool definitions were not accepted",
  });

  await (await browser.$("#chat-input")).setValue(ASK_TOOL);
  await browser.keys("Enter");
  await waitForAnnouncement("The model asked to use a tool.", "the tool call did not arrive");
  const card = 'section.tool-card[aria-label="Tool call lookup_price"]';
  assert.equal(await plain(`${card} strong`), "lookup_price");
  assert.deepEqual(JSON.parse(await plain(`${card} pre`)), { product: "blue kettle" });
  assert.equal(await plain(`${card} pre`), '{ "product": "blue kettle" }');
  // The message went with its image, shown in the thread as WebKit decoded it.
  assert.ok(await decoded('li.turn[data-role="user"] img.turn-image'), "the sent image is shown in the thread");
  assert.equal(await browser.$('ul[aria-label="Attached images"]').isExisting(), false, "the composer is emptied once sent");

  await fill("Result for lookup_price", '{"price": 39}');
  await click("button", "Send result", await browser.$(card));
  const expected = `Sandbox reply from ${model}. I received 1 image. I received 1 tool result. You wrote 0 words: ""`;
  await waitForAnnouncement(expected, "the reply to the tool result was not announced");
  assert.deepEqual(await threadBlocks(), [
    ["user", "image", ASK_TOOL],
    ["assistant", 'tool lookup_price { "product": "blue kettle" } Answered.'],
    ["user", 'Tool result {"price": 39}'],
    ["assistant", expected],
  ]);
});

test("an image copied to the clipboard is pasted into the chat and sent with the message", async () => {
  const image = join(files, "copied.png");
  writeFileSync(image, Buffer.from(PNG, "base64"));
  await click("button", "New chat");
  const model = await waitForSelected("Model");
  // The image on the X clipboard, as an image viewer's Copy puts it (xclip serves it until killed).
  const owner = spawn("xclip", ["-quiet", "-selection", "clipboard", "-t", "image/png", "-i", image], { stdio: "ignore" });
  try {
    const offered = () => {
      try {
        return execFileSync("xclip", ["-selection", "clipboard", "-t", "TARGETS", "-o"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).includes("image/png");
      } catch {
        return false; // xclip does not own the clipboard yet
      }
    };
    await browser.waitUntil(offered, {
      timeout: 10000,
      timeoutMsg: "xclip never offered the image",
    });
    const input = await browser.$("#chat-input");
    await input.click();
    // WebKitGTK's paste event brings no file for a copied image: Rust reads the clipboard.
    await browser.keys(["Control", "v"]);
    const thumbs = 'ul[aria-label="Attached images"] img';
    await browser.waitUntil(async () => decoded(thumbs), { timeout: 20000, timeoutMsg: "the pasted image's thumbnail was not shown" });
    assert.deepEqual(await browser.execute((sel) => [...document.querySelectorAll(sel)].map((i) => i.alt), thumbs), ["Pasted image.png"]);
  } finally {
    owner.kill();
  }
  await (await browser.$("#chat-input")).setValue("What is this?");
  await browser.keys("Enter");
  await waitForAnnouncement(`Sandbox reply from ${model}. I received 1 image. You wrote 3 words: "What is this?"`, "the reply to the pasted image was not announced");
  assert.ok(await decoded('li.turn[data-role="user"] img.turn-image'), "the sent image is shown in the thread");
});

test("a compare of two models streams both replies, and the winner picked is recorded", async () => {
  await click("button", "New chat");
  const model = await selected("Model");
  await setCheck("Compare models side by side", true);
  const other = await browser.execute((label) => {
    const l = [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === label);
    const select = l && document.getElementById(l.htmlFor);
    return select ? ([...select.options].find((o) => o.value)?.value ?? null) : null;
  }, "Compare with");
  assert.ok(other && other !== model, "a second chat model is offered");
  const otherSelect = await browser.execute(
    (label) => [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === label)?.htmlFor,
    "Compare with",
  );
  await (await browser.$(`[id="${otherSelect}"]`)).selectByAttribute("value", other);
  await browser.waitUntil(async () => (await selected("Compare with")) === other, { timeout: 10000 });
  await (await browser.$("button=Compare 2 models")).waitForExist({ timeout: 10000 });

  await (await browser.$("#chat-input")).setValue(PROMPT);
  await browser.keys("Enter");
  const lane = (m) => `li.compare-lane[aria-label="Reply from ${m}"]`;
  const pick = (m) => `${lane(m)} button`;
  const replyOf = (m) => `Sandbox reply from ${m}. You wrote 7 words: "${PROMPT}"`;
  // Both lanes finished: not busy, their Pick enabled and their whole reply shown.
  await browser.waitUntil(
    async () =>
      browser.execute(
        (lanes) =>
          lanes.every(([sel, text]) => {
            const l = document.querySelector(sel);
            const md = l?.querySelector(".chat-md")?.textContent.replace(/\s+/g, " ").trim();
            return l && l.getAttribute("aria-busy") === "false" && !l.querySelector("button")?.disabled && md === text;
          }),
        [
          [lane(model), replyOf(model)],
          [lane(other), replyOf(other)],
        ],
      ),
    { timeout: 30000, timeoutMsg: "the two replies did not both finish" },
  );
  for (const m of [model, other]) {
    assert.equal(await plain(`${lane(m)} .chat-md`), replyOf(m));
    assert.equal(await browser.execute((s) => document.querySelector(s).getAttribute("aria-busy"), lane(m)), "false");
    // Words arrived as deltas (the first word has a time) before the reply finished.
    const stats = await browser.execute((s) => [...document.querySelectorAll(`${s} .lane-stats dd`)].map((d) => d.textContent), lane(m));
    assert.match(stats[0], /^\d+\.\d s$/);
    assert.equal(stats[1], `${replyOf(m).split(/\s+/).length} words`);
  }

  await click("button", `Pick ${other} as the winner`);
  await waitForAnnouncement(`${other} picked as the winner.`, "the winner was not announced");
  assert.equal(await browser.$("section.compare").isExisting(), false, "the compare closes once a winner is picked");
  const thread = await browser.execute(() =>
    [...document.querySelectorAll("li.turn")].map((t) => ({
      role: t.dataset.role,
      who: t.querySelector(".turn-who").textContent,
      versions: t.querySelector(".branch-count")?.textContent.replace(/\s+/g, "") ?? null,
      text: t.querySelector(".turn-body").textContent.replace(/\s+/g, " ").trim(),
    })),
  );
  assert.deepEqual(thread, [
    { role: "user", who: "You", versions: null, text: PROMPT },
    { role: "assistant", who: other, versions: "2/2", text: replyOf(other) },
  ]);
  // Recorded in the library on the conversation the compare made (read as the web view reads it).
  let records;
  await browser.waitUntil(
    async () => {
      records = await browser.executeAsync((prompt, done) => {
        const tauri = window.__TAURI_INTERNALS__;
        tauri
          .invoke("list_conversations", { limit: 50, offset: 0 })
          .then((list) => Promise.all(list.map((c) => tauri.invoke("chat_winners", { conversationId: c.id }))))
          .then((all) => done(all.flat().filter((r) => r.prompt === prompt).map((r) => ({ models: r.models, winner: r.winner }))))
          .catch((e) => done({ failed: e }));
      }, PROMPT);
      return Array.isArray(records) && records.length > 0;
    },
    { timeout: 10000, timeoutMsg: "the winner was not recorded in the library" },
  );
  assert.deepEqual(records, [{ models: [model, other], winner: other }]);

  // Leave the chat's settings as they were found for the files after this one.
  await setCheck("Compare models side by side", false);
  await (await browser.$("#chat-tools")).click();
  await browser.keys(["Control", "a"]);
  await browser.keys(["Backspace"]);
  await browser.waitUntil(async () => (await (await browser.$("#chat-tools")).getValue()) === "", { timeout: 10000 });
  rmSync(files, { recursive: true, force: true });
});

test("documents ranked against a query, and their order copied in WebKit", async () => {
  await openArea("Gateway");
  await openStudio("Rerank");
  await fill("Query", "Where can I buy a coffee grinder?");
  // Blocks with blank lines between them, set as a paste would (typed, WebDriver's newlines are keys).
  await browser.execute((text) => {
    const label = [...document.querySelectorAll("label")].find((x) => x.textContent.trim() === "Documents");
    const el = document.getElementById(label.htmlFor);
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set.call(el, text);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, "Our shop sells a burr coffee grinder for espresso.\n\nThe library opens at nine on weekdays.\n\nA guide to growing tomatoes on a balcony.");
  await waitForText("3 documents found.");
  await click("button", "Rank documents", await browser.$('form[aria-label="Rank documents"]'));
  const ranked = await browser.$('ol[aria-label="Ranked documents"]');
  await ranked.waitForExist({ timeout: 30000 });
  const rows = await browser.execute(() =>
    [...document.querySelectorAll('ol[aria-label="Ranked documents"] li')].map((li) => [
      li.querySelector(".ranked-rank")?.textContent.trim(),
      li.querySelector(".ranked-pos")?.textContent.trim(),
      li.querySelector(".ranked-text")?.textContent.trim(),
    ]),
  );
  assert.equal(rows.length, 3);
  assert.deepEqual(rows[0], ["1", "Document 1", "Our shop sells a burr coffee grinder for espresso."]);
  await click("button", "Copy the order", await browser.$("section.rerank-results"));
  await waitForText("Order copied.");
  // The order as the screen shows it: rank, the document's first position, its first line.
  const expected = rows.map(([rank, pos, text]) => `${rank}. [#${pos.replace("Document ", "")}] ${text}`).join("\n");
  assert.equal(clipboard(), expected);
});
