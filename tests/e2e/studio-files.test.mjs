// The Gateway studio's ways in for files, and a focus move, in WebKit on the real app and its
// embedded sandbox: images attached to a chat with "Attach images" (the web view's own file
// chooser: its file input filled as the chooser does) and sent with the message; the composer's
// drop highlight while a file is dragged over the window (Tauri's drag events); documents
// imported into Rerank, and a recording picked for Transcription, through the native file dialog
// (GTK's chooser on the virtual display, the path typed into it with xdotool as a person would); "Same prompt on another model" in the image
// viewer giving the focus to the model picker. It works alone or after the other files (same data
// folder). Nothing here measures time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG, answerFileDialog, browser, click, copyOfLatestTake, decoded, fill, launch, openArea, openStudio, quit, selected, setCheck, tauriDrag, useSandbox, waitForAnnouncement, waitForSelected, waitForText } from "./helpers.mjs";

const files = mkdtempSync(join(tmpdir(), "specdesk-files-"));

before(async () => {
  await launch();
});

after(async () => {
  await quit();
});

test("the Sandbox is in use", async () => {
  await useSandbox();
});

test("images chosen with Attach images are shown and sent with the message; a drag over the window lights the composer", async () => {
  const image = join(files, "teapot.png");
  writeFileSync(image, Buffer.from(PNG, "base64"));
  await openArea("Gateway");
  await openStudio("Chat");
  await click("button", "New chat");
  const model = await waitForSelected("Model");
  await setCheck("Compare models side by side", false);

  // A file dragged over the window from the OS: the composer shows where it can go, until the
  // drag leaves.
  const dragging = () => browser.execute(() => document.querySelector('form[aria-label="Message"]')?.dataset.dragging);
  assert.equal(await dragging(), "false");
  await tauriDrag("enter", [image]);
  await browser.waitUntil(async () => (await dragging()) === "true", { timeout: 10000, timeoutMsg: "the composer did not light up for the drag" });
  await tauriDrag("over");
  await tauriDrag("leave");
  await browser.waitUntil(async () => (await dragging()) === "false", { timeout: 10000, timeoutMsg: "the composer stayed lit after the drag left" });

  // The chooser's part, as WebDriver plays it: the file goes into the composer's file input.
  const input = await browser.$('form[aria-label="Message"] input[type="file"]');
  await browser.execute((el) => (el.hidden = false), input);
  await input.setValue(image);
  const thumbs = 'ul[aria-label="Attached images"] img';
  await browser.waitUntil(async () => decoded(thumbs), { timeout: 20000, timeoutMsg: "the chosen image's thumbnail was not shown" });
  assert.deepEqual(await browser.execute((sel) => [...document.querySelectorAll(sel)].map((i) => i.alt), thumbs), ["teapot.png"]);

  await (await browser.$("#chat-input")).setValue("Describe this teapot");
  await browser.keys("Enter");
  await waitForAnnouncement(`Sandbox reply from ${model}. I received 1 image. You wrote 3 words: "Describe this teapot"`, "the reply was not announced");
  assert.ok(await decoded('li.turn[data-role="user"] img.turn-image'), "the sent image is shown in the thread");
});

test("documents imported into Rerank through the system's file dialog are read and ranked", async () => {
  const notes = join(files, "grinder-notes.txt");
  writeFileSync(notes, "A burr grinder keeps the grind even for espresso.\n\nTomatoes grow well on a sunny balcony.\n");
  await openArea("Gateway");
  await openStudio("Rerank");
  await fill("Query", "Which grinder suits espresso?");
  await click("button", "Import a file…");
  await answerFileDialog("Choose documents to rank", notes);
  await waitForText("Added 2 documents from grinder-notes.txt.");
  await waitForText("2 documents found.");
  await click("button", "Rank documents", await browser.$('form[aria-label="Rank documents"]'));
  await browser.$('ol[aria-label="Ranked documents"]').waitForExist({ timeout: 30000 });
  const rows = await browser.execute(() =>
    [...document.querySelectorAll('ol[aria-label="Ranked documents"] li')].map((li) => [li.querySelector(".ranked-pos")?.textContent.trim(), li.querySelector(".ranked-text")?.textContent.trim()]),
  );
  assert.deepEqual(rows, [
    ["Document 1", "A burr grinder keeps the grind even for espresso."],
    ["Document 2", "Tomatoes grow well on a sunny balcony."],
  ]);
});

test("a recording picked in the system's file dialog is transcribed to its text", async () => {
  const spoken = "Picked from the dialog, this recording is read back.";
  await openArea("Gateway");
  await openStudio("Speech and music");
  await fill("Text to speak", spoken);
  await click("button", "Generate speech");
  await browser.$('section[aria-label="Player"]').waitForExist({ timeout: 30000 });
  // The take's file, copied out of the media folder as a recording of the user's own.
  const recording = copyOfLatestTake(files, "meeting");

  await openStudio("Transcription");
  await click("button", "Pick an audio file…");
  await answerFileDialog("Choose a recording to transcribe", recording);
  await waitForText(recording.slice(files.length + 1));
  await click("button", "Transcribe");
  const transcript = await browser.$('[role="region"][aria-label="Transcript"]');
  await browser.waitUntil(async () => (await transcript.isExisting()) && (await transcript.getText()).trim() === spoken, {
    timeout: 30000,
    timeoutMsg: "the picked recording was not transcribed to its text",
  });
});

test("Same prompt on another model in the image viewer gives the focus to the model picker", async () => {
  const prompt = "A porcelain teapot on a linen cloth";
  await openArea("Gateway");
  await openStudio("Images");
  await fill("Prompt", prompt);
  await click("button", "Generate image");
  const thumb = `//section[contains(@class, "gallery")]//*[contains(@class, "gallery-card")][.//*[contains(@class, "gallery-prompt")][normalize-space(.)="${prompt}"]]//button[contains(@class, "gallery-thumb")]`;
  // Shown once WebKit has decoded it from the media folder.
  await browser.waitUntil(() => browser.execute((xpath) => {
    const button = document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
    const img = button?.querySelector("img");
    return !!img && img.complete && img.naturalWidth > 0;
  }, thumb), { timeout: 30000, timeoutMsg: "the new image was not shown in the gallery" });
  const made = await waitForSelected("Model");
  await fill("Prompt", "A different idea");
  // Opened from the page (the thumbnail may sit under the fold of the virtual display).
  await browser.execute((xpath) => document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue.click(), thumb);
  const viewer = await browser.$('[role="dialog"][aria-modal="true"]');
  await viewer.waitForExist({ timeout: 10000 });
  await click("button", "Same prompt on another model", viewer);
  await browser.waitUntil(async () => !(await viewer.isExisting()), { timeout: 10000, timeoutMsg: "the viewer did not close" });
  const focused = await browser.execute(() => {
    const el = document.activeElement;
    const label = el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent.trim() : null;
    return [el?.tagName, label, el?.value];
  });
  const now = await waitForSelected("Model");
  assert.notEqual(now, made, "another model is picked");
  assert.deepEqual(focused, ["SELECT", "Model", now]);
  assert.equal(await selected("Prompt"), prompt);
  await waitForText(`The prompt is in the form with ${now}.`);
});
