// Music in the Gateway studio, on the real app and its embedded sandbox, in WebKit: a clip made
// from a mood prompt with the first music model (clip), decoded by WebKit (its duration is the
// clip's 10 s), with a cost line carrying the call's own request id, charge and balance after;
// then "Download" copies the take into the download folder the settings name, byte for byte. It
// works alone or after the other files (same data folder). Nothing here measures time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { browser, click, env, fill, invoke, launch, openArea, openStudio, quit, useSandbox, waitForDuration, waitForSelected, waitForText } from "./helpers.mjs";

const MOOD = "Calm lo-fi piano on a rainy evening";
let downloads;

before(async () => {
  await launch();
  downloads = mkdtempSync(join(tmpdir(), "specdesk-downloads-"));
});

after(async () => {
  await quit().catch(() => undefined);
  rmSync(downloads, { recursive: true, force: true });
});

/** The text of the element matching `selector` in the player, whitespace collapsed. */
const inPlayer = (selector) =>
  browser.execute((s) => document.querySelector(`section[aria-label="Player"] ${s}`)?.textContent.replace(/\s+/g, " ").trim() ?? "", selector);

test("a music clip is made from a mood, plays in WebKit, shows what its call cost, and downloads", async () => {
  await useSandbox();
  // Downloads go to a folder of this run's own.
  const settings = await invoke("get_settings", {});
  await invoke("save_settings", { settings: { ...settings, downloadFolder: downloads } });
  try {
    await openArea("Gateway");
    await openStudio("Speech and music");
    await (await browser.$("label.mode-option*=Music")).click();
    assert.equal(await waitForSelected("Music model"), "google/lyria-3-clip-preview", "the clip model comes first");
    await fill("Mood and style", MOOD);
    await click("button", "Generate music");

    const player = await browser.$('section[aria-label="Player"]');
    await player.waitForExist({ timeout: 30000 });
    assert.equal(await inPlayer(".prompt-text"), MOOD);
    // WebKit decodes the MP3 the asset protocol serves: the clip's ten seconds.
    const duration = await waitForDuration('section[aria-label="Player"] audio', "the music clip");
    assert.equal(Math.round(duration), 10, `a 10-second clip (${duration})`);

    // What this call cost, as its own metering headers said (a request id of the sandbox's).
    const cost = await inPlayer('[aria-label="What this call cost"]');
    assert.match(cost, /^Request id req_[0-9a-z]+ · 0\.4 credits charged · balance after: [\d,.]+ credits$/, cost);

    await click("button", "Download", player);
    await browser.waitUntil(async () => readdirSync(downloads).length > 0, { timeout: 20000, timeoutMsg: "nothing was saved in the download folder" });
    const files = readdirSync(downloads);
    assert.equal(files.length, 1, `one file in the download folder: ${files.join(", ")}`);
    assert.match(files[0], /\.mp3$/);
    await waitForText(`Saved to ${join(downloads, files[0])}`);
    // The copy is the take itself (the newest MP3 of the media folder), byte for byte.
    const media = join(env("SPECDESK_DATA_DIR"), "media");
    const takes = readdirSync(media)
      .filter((f) => f.endsWith(".mp3"))
      .sort((a, b) => statSync(join(media, b)).mtimeMs - statSync(join(media, a)).mtimeMs);
    assert.ok(takes.length > 0, `the take is in ${media}`);
    assert.deepEqual(readFileSync(join(downloads, files[0])), readFileSync(join(media, takes[0])));
  } finally {
    // The settings as they were, for the files that run after this one on the same data folder.
    await invoke("save_settings", { settings });
  }
});
