// The Gateway's media studios on the mock IPC: images (price before generating, what the call
// cost, gallery search, the viewer's keys and focus, comparison), speech and music (a waveform
// from decoded audio, the A/B swap key, the preferred take), transcription (exports), video (a
// job card followed to the end), an out-of-credits refusal with its Top up, transcription's
// failures (a refused file, takes that cannot be listed, no key) and video's (a failed job sent
// again, a job held for want of a key) in error panels with their next step; offline, every
// picker and the Models tab list the models kept on this computer and say how old they are; axe
// in both themes.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { expectAxeClean, expectAxeCleanInBothThemes, startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

async function openStudio(page, tab) {
  await page.getByRole("button", { name: "Gateway" }).click();
  await page.getByRole("heading", { level: 1, name: "Gateway" }).waitFor();
  await page.getByRole("tab", { name: tab }).click();
}

describe("images", () => {
  test("price first, generate with its cost line, search, viewer keys, compare", async () => {
    await h.withScenario("gateway-media", async ({ page, mock }) => {
      await openStudio(page, "Images");
      const form = page.getByRole("form", { name: "New images" });
      assert.equal(await textOf(form.locator(".price-line")), "0.4 credits per image · 1 image: 0.4 credits");
      await form.getByLabel("Images", { exact: true }).selectOption("2");
      await form.getByLabel("Model").selectOption("google/imagen-4");
      assert.equal(await textOf(form.locator(".price-line")), "0.6 credits per image · 2 images: 1.2 credits");
      await form.getByLabel("Prompt").fill("A red kite over green hills");
      await form.getByRole("button", { name: "Generate 2 images" }).click();
      const cost = page.getByLabel("What this call cost");
      await cost.waitFor();
      assert.match(await textOf(cost), /^Request id req_[0-9a-f]+ · 0\.8 credits charged · balance after: 9,999\.2 credits$/);
      assert.deepEqual((await mock.calls("generate_images")).map((c) => c.args), [
        { request: { model: "google/imagen-4", prompt: "A red kite over green hills", n: 2, size: "1024x1024" } },
      ]);
      const gallery = page.getByRole("region", { name: "Gallery" });
      await gallery.getByText("7 images", { exact: true }).waitFor();
      await expectAxeClean(page, "the images studio after generating");

      await gallery.getByLabel("Search by prompt").fill("LIGHTHOUSE dusk");
      await gallery.getByText("1 image of 7 match", { exact: true }).waitFor();
      await gallery.getByLabel("Search by prompt").fill("lighthouse");
      await gallery.getByText("2 images of 7 match", { exact: true }).waitFor();

      // Each card says what the library keeps of its image (its prompt is the picture's name).
      const card = gallery.locator(".gallery-card", { has: page.locator('.gallery-thumb[data-media-id="21"]') });
      assert.deepEqual(
        await card.locator(".media-meta > div").evaluateAll((rows) => rows.map((r) => [r.querySelector("dt").innerText, r.querySelector("dd").innerText])),
        [
          ["Model", "google/imagen-4"],
          ["Size", "1024 × 1024"],
          ["Cost", "0.6 credits"],
          ["Made", "Nov 21, 2026, 4:00 PM"],
        ],
      );
      // The viewer: Left/Right through the searched images, Escape closes, focus comes back.
      await gallery.locator('.gallery-thumb[data-media-id="21"]').click();
      const viewer = page.getByRole("dialog");
      await viewer.getByRole("heading", { name: "Image 1 of 2" }).waitFor();
      const facts = async (where) =>
        where.locator(".media-meta > div").evaluateAll((rows) => rows.map((r) => [r.querySelector("dt").innerText, r.querySelector("dd").innerText]));
      // Every fact the library keeps of it: prompt, model, size (from the image), cost and date.
      await page.waitForFunction(() => !document.querySelector("[role=dialog] .media-meta")?.innerText.includes("…"));
      assert.deepEqual(await facts(viewer), [
        ["Prompt", "A lighthouse at dusk, watercolour"],
        ["Model", "google/imagen-4"],
        ["Size", "1024 × 1024"],
        ["Cost", "0.6 credits"],
        ["Made", "Nov 21, 2026, 4:00 PM"],
      ]);
      // Download: a copy into the download folder, through Rust (save_media_copy), said where.
      await viewer.getByRole("button", { name: "Download" }).click();
      const file = await page.evaluate(() => window.__SPECDESK_MOCK__.db.media.find((m) => m.id === 21).path.split("/").pop());
      await page.getByText(`Saved to /home/user/Downloads/${file}`, { exact: true }).waitFor();
      assert.deepEqual((await mock.calls("save_media_copy")).map((c) => c.args), [{ id: 21, choose: false }]);
      await page.keyboard.press("ArrowRight");
      await viewer.getByRole("heading", { name: "Image 2 of 2" }).waitFor();
      assert.equal(await viewer.locator(".media-meta dd").first().innerText(), "A lighthouse at dawn, oil painting");
      await page.keyboard.press("ArrowRight");
      await viewer.getByRole("heading", { name: "Image 1 of 2" }).waitFor();
      await page.keyboard.press("ArrowLeft");
      await viewer.getByRole("heading", { name: "Image 2 of 2" }).waitFor();
      await expectAxeCleanInBothThemes(page, "the image viewer");
      await page.keyboard.press("Escape");
      await viewer.waitFor({ state: "detached" });
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-media-id")), "20");

      // Compare two side by side.
      await gallery.getByRole("checkbox", { name: "Compare image 21" }).check();
      await gallery.getByRole("checkbox", { name: "Compare image 20" }).check();
      await gallery.getByRole("button", { name: "Compare side by side" }).click();
      const compare = page.getByRole("region", { name: "Comparing 2 images" });
      assert.equal(await compare.getByRole("listitem").count(), 2);

      // Same prompt on another model: the prompt goes to the form with the next model.
      await gallery.getByRole("button", { name: "Same prompt on another model" }).first().click();
      assert.equal(await form.getByLabel("Prompt").inputValue(), "A lighthouse at dusk, watercolour");
      assert.equal(await form.getByLabel("Model").inputValue(), "black-forest-labs/flux-pro");
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), "SELECT");
    });
  });
});

describe("images compared", () => {
  test("four images side by side, each with its facts; three cannot be compared", async () => {
    await h.withScenario("gateway-media", async ({ page }) => {
      await openStudio(page, "Images");
      const gallery = page.getByRole("region", { name: "Gallery" });
      await gallery.getByText("5 images", { exact: true }).waitFor();
      for (const id of [21, 20, 19]) await gallery.getByRole("checkbox", { name: `Compare image ${id}` }).check();
      const bar = gallery.getByRole("group", { name: "Compare images" });
      assert.equal(await textOf(bar.locator(".muted")), "3 picked");
      assert.equal(await bar.getByRole("button", { name: "Compare side by side" }).isDisabled(), true, "2 or 4, not 3");
      await gallery.getByRole("checkbox", { name: "Compare image 18" }).check();
      await bar.getByRole("button", { name: "Compare side by side" }).click();
      const compare = page.getByRole("region", { name: "Comparing 4 images" });
      const items = compare.getByRole("listitem");
      assert.equal(await items.count(), 4);
      const prompts = await items.evaluateAll((els) => els.map((el) => el.querySelector(".media-meta dd")?.textContent));
      assert.deepEqual(prompts, [
        "A lighthouse at dusk, watercolour",
        "A lighthouse at dawn, oil painting",
        "Logo for a bakery: a croissant and a sun",
        "Logo for a bakery: a croissant and a sun",
      ]);
      await expectAxeCleanInBothThemes(page, "four images compared");
    });
  });
});

describe("speech and music", () => {
  test("a take with its waveform and cost; A/B with the swap key and the preferred mark", async () => {
    await h.withScenario("gateway-media", async ({ page, mock }) => {
      await openStudio(page, "Speech and music");
      const form = page.getByRole("form", { name: "New take" });
      await form.getByLabel("Text to speak").fill("Hello team");
      assert.equal(await textOf(form.locator(".price-line")), "Speech · fast: 0.15 credits per 1,000 characters · 10 characters: about 0.0015 credits");
      await form.getByLabel("Voice").selectOption("coral");
      await form.getByLabel("Delivery instructions (optional)").fill("Cheerful");
      await form.getByRole("button", { name: "Generate speech" }).click();
      const player = page.getByRole("region", { name: "Player" });
      await player.getByRole("img", { name: "Waveform of take 4" }).waitFor(); // after the 3 takes of the library
      assert.ok(Number(await player.locator("canvas").getAttribute("data-bars")) > 0);
      assert.match(await textOf(player.getByLabel("What this call cost")), /^Request id req_[0-9a-f]+ · 0\.05 credits charged · balance after: 9,999\.95 credits$/);
      assert.deepEqual((await mock.calls("speech")).map((c) => c.args.request), [
        { model: "openai/speech-audio-mini", input: "Hello team", voice: "coral", response_format: "wav", instructions: "Cheerful" },
      ]);
      // What the take was made with is kept with it in the library, and shown in the history.
      const [made] = await mock.calls("set_media_settings");
      assert.deepEqual(made.args.settings, { voice: "coral", format: "wav", instructions: "Cheerful" });
      await expectAxeClean(page, "the speech studio with a take");

      // The music take's MP3 cannot be decoded here: said plainly.
      const takes = page.getByRole("list", { name: "Takes" });
      // Takes are numbered in the connection's history from its oldest (files 29, 30, 31, then the new one).
      await takes.getByRole("button", { name: "Listen to take 1" }).click();
      await player.getByText("This audio could not be decoded, so its waveform cannot be drawn. It may still play.").waitFor();

      await takes.getByRole("button", { name: "Use as A (take 3)" }).click();
      await takes.getByRole("button", { name: "Use as B (take 2)" }).click();
      await page.getByRole("button", { name: "Compare A and B" }).click();
      const ab = page.getByRole("region", { name: "A/B comparison" });
      await ab.getByText("Now hearing A. Press S to switch at the same moment.").waitFor();
      await ab.getByRole("img", { name: "Waveform of take A" }).waitFor();
      await ab.getByRole("img", { name: "Waveform of take B" }).waitFor();
      await page.keyboard.press("s");
      await ab.getByText("Now hearing B. Press S to switch at the same moment.").waitFor();
      await page.keyboard.press("S");
      await ab.getByText("Now hearing A. Press S to switch at the same moment.").waitFor();
      await ab.getByRole("button", { name: "Prefer B" }).click();
      await ab.getByRole("button", { name: "B is preferred" }).waitFor();
      // The mark is kept in the library with the take (the mock's media rows).
      const preferred = () => page.evaluate(() => window.__SPECDESK_MOCK__.db.media.filter((m) => m.preferred).map((m) => m.id));
      assert.deepEqual(await preferred(), [30]);
      await ab.getByRole("button", { name: "Prefer A" }).click();
      await ab.getByRole("button", { name: "A is preferred" }).waitFor();
      assert.deepEqual(await preferred(), [31]);
      await expectAxeCleanInBothThemes(page, "the A/B comparison");
    });
  });

  test("a take's settings and preferred mark an earlier version kept in the web view are brought into the library once", async () => {
    await h.withScenario("gateway-media", async ({ page }) => {
      await page.evaluate(() => {
        localStorage.setItem("specdesk.media.settings.v1", JSON.stringify({ 30: { voice: "sage", format: "wav", instructions: "Slowly" } }));
        localStorage.setItem("specdesk.speech.preferred.v1", JSON.stringify([30]));
      });
      await openStudio(page, "Speech and music");
      const take = page.getByRole("list", { name: "Takes" }).getByRole("listitem", { name: "Take 2" }); // file 30
      await take.getByText("Preferred").waitFor();
      const facts = (await take.locator(".media-meta").innerText()).replace(/\s+/g, " ");
      assert.match(facts, /Voice sage/);
      assert.match(facts, /Delivery Slowly/);
      assert.deepEqual(await page.evaluate(() => [localStorage.getItem("specdesk.media.settings.v1"), localStorage.getItem("specdesk.speech.preferred.v1")]), [null, null]);
      const kept = await page.evaluate(() => window.__SPECDESK_MOCK__.db.media.find((m) => m.id === 30));
      assert.deepEqual([kept.settings, kept.preferred], [{ voice: "sage", format: "wav", instructions: "Slowly" }, true]);
    });
  });
});

describe("transcription", () => {
  test("a picked file transcribed, copied and exported as .txt and .srt, with its cost", async () => {
    await h.withScenario("gateway-media", async ({ page, mock }) => {
      await openStudio(page, "Transcription");
      const form = page.getByRole("form", { name: "Transcribe audio" });
      assert.equal(await textOf(form.locator(".price-line")), "0.06 credits per minute of audio");
      await form.getByRole("button", { name: "Pick an audio file…" }).click();
      await form.getByText("standup-notes.m4a").waitFor();
      await form.getByRole("button", { name: "Transcribe" }).click();
      const transcript = page.getByRole("region", { name: "Transcript", exact: true });
      assert.equal(await transcript.innerText(), "Welcome to the weekly update. Three features shipped. Next week: the billing page.");
      assert.match(await textOf(page.getByLabel("What this call cost")), /^Request id req_[0-9a-f]+ · 0\.07 credits charged · model cost \$0\.007 · balance after: 9,999\.93 credits$/);
      assert.deepEqual((await mock.calls("transcribe")).map((c) => c.args), [{ path: "/home/user/Recordings/standup-notes.m4a", model: "openai/gpt-4o-transcribe" }]);

      await page.getByRole("button", { name: "Copy" }).click();
      await page.getByText("Transcript copied.").waitFor();
      assert.equal(await page.evaluate(() => window.__SPECDESK_MOCK__.db.clipboard?.text), "Welcome to the weekly update. Three features shipped. Next week: the billing page.");
      await page.getByRole("button", { name: "Export .srt" }).click();
      await page.getByText("Saved to /home/user/Downloads/standup-notes-transcript.srt").waitFor();
      await page.getByRole("button", { name: "Export .txt" }).click();
      await page.getByText("Saved to /home/user/Downloads/standup-notes-transcript.txt").waitFor();
      const saves = (await mock.calls("save_document")).map((c) => c.args);
      assert.deepEqual(saves, [
        {
          fileName: "standup-notes-transcript.srt",
          contents:
            "1\n00:00:00,000 --> 00:00:02,400\nWelcome to the weekly update.\n\n2\n00:00:02,400 --> 00:00:04,100\nThree features shipped.\n\n3\n00:00:04,100 --> 00:01:05,250\nNext week: the billing page.\n",
          choose: false,
        },
        { fileName: "standup-notes-transcript.txt", contents: "Welcome to the weekly update. Three features shipped. Next week: the billing page.", choose: false },
      ]);
      await expectAxeClean(page, "the transcription studio with a transcript");
    });
  });
});

describe("video", () => {
  test("price per second first; jobs followed to done, several at once", async () => {
    await h.withScenario("gateway-media", async ({ page, mock }) => {
      await openStudio(page, "Video");
      const form = page.getByRole("form", { name: "New video" });
      assert.equal(await textOf(form.locator(".price-line")), "1.5 credits per second · 4 s: 6 credits, charged when the video is done");
      await form.getByLabel("Length (seconds)").fill("8");
      assert.equal(await textOf(form.locator(".price-line")), "1.5 credits per second · 8 s: 12 credits, charged when the video is done");
      await form.getByLabel("Length (seconds)").fill("4");

      // A job the runner was following before the app restarted.
      const resumed = page.getByRole("listitem", { name: "Video: Clouds over a mountain lake, time-lapse" });
      await resumed.getByText("Rendering (40%)").waitFor();
      assert.equal(
        await textOf(resumed.locator(".charge-note")),
        "Charged when the video is done: about 6 credits. Nothing is charged while it renders, and Specdesk keeps following it if you close the app.",
      );

      await form.getByLabel("Prompt").fill("A hummingbird in slow motion");
      await form.getByRole("button", { name: "Start video" }).click();
      const card = page.getByRole("listitem", { name: "Video: A hummingbird in slow motion" });
      await card.getByText("Rendering (20%)").waitFor();
      await page.getByRole("tabpanel", { name: "Video" }).getByText("2 running", { exact: true }).waitFor();
      await expectAxeClean(page, "the video studio with jobs running");

      await mock.release("video-done");
      await card.getByText("Done", { exact: true }).waitFor();
      // The charging poll's request id and the balance after its 6 credits (10,000 before).
      assert.equal(await textOf(card.getByLabel("What this call cost")), "Request id req_a1b2c4 · 6 credits charged · model cost $0.60 · balance after: 9,994 credits");
      await card.locator("video, .media-missing").first().waitFor();
      await card.getByRole("button", { name: "Show in folder" }).click();
      assert.equal((await mock.calls("reveal_media")).length, 1);
      // Download: a copy of the finished video in the download folder, and where it went.
      await card.getByRole("button", { name: "Download" }).click();
      const mediaId = await page.evaluate(() => window.__SPECDESK_MOCK__.db.jobs.find((j) => j.request?.prompt === "A hummingbird in slow motion")?.result?.mediaId);
      assert.deepEqual((await mock.calls("save_media_copy")).map((c) => c.args), [{ id: mediaId, choose: false }]);
      const file = await page.evaluate((id) => window.__SPECDESK_MOCK__.db.media.find((m) => m.id === id).path.split("/").pop(), mediaId);
      await page.getByText(`Saved to /home/user/Downloads/${file}`).waitFor();

      // The resumed job ends through the ledger's broadcast.
      const job = await page.evaluate(() => structuredClone(window.__SPECDESK_MOCK__.db.jobs.find((j) => j.id === 42)));
      await mock.emit("job-changed", { ...job, status: "completed", progress: "Done", result: { videoId: "video_42", mediaId: 40, path: "/x/video-40.mp4", credits: 6, cost: 0.6 } });
      await resumed.getByText("Done", { exact: true }).waitFor();
      await page.getByText("None running", { exact: true }).waitFor();
    });
  });
});

describe("errors and themes", () => {
  for (const theme of ["light", "dark"]) {
    test(`out of credits: images, speech and video refusals offer Top up (${theme})`, async () => {
      await h.withScenario("gateway-media-broke", { theme }, async ({ page, mock }) => {
        await openStudio(page, "Images");
        const form = page.getByRole("form", { name: "New images" });
        await form.getByLabel("Prompt").fill("A cat");
        await form.getByRole("button", { name: "Generate image" }).click();
        const alert = form.getByRole("alert");
        await alert.getByRole("heading", { name: "Not enough credits" }).waitFor();
        await alert.getByText("You have run out of credits. Top up to keep generating.").waitFor();
        await alert.getByRole("button", { name: "Top up" }).click();
        assert.deepEqual((await mock.calls("open_external")).map((c) => c.args), [{ url: "https://example.com/topup" }]);
        await expectAxeClean(page, `an out-of-credits refusal (${theme})`);

        // Speech: the same refusal in its form, the text kept.
        await page.getByRole("tab", { name: "Speech and music" }).click();
        await page.getByLabel("Text to speak").fill("Hello team");
        await page.getByRole("button", { name: "Generate speech" }).click();
        const take = page.getByRole("alert").filter({ hasText: "You have run out of credits. Top up to keep generating." });
        await take.getByRole("heading", { name: "Not enough credits" }).waitFor();
        await take.getByRole("button", { name: "Top up" }).waitFor();
        assert.equal(await page.getByLabel("Text to speak").inputValue(), "Hello team");
        assert.equal((await mock.calls("speech")).length, 1);
        await expectAxeClean(page, `a refused take (${theme})`);

        await page.getByRole("tab", { name: "Video" }).click();
        await page.getByRole("form", { name: "New video" }).getByLabel("Prompt").fill("Waves");
        await page.getByRole("button", { name: "Start video" }).click();
        await page.getByRole("form", { name: "New video" }).getByRole("button", { name: "Top up" }).waitFor();
      });
    });
  }

  test("transcription: a refused file, unreadable takes and a missing key each show their title, words and next step", async () => {
    await h.withScenario("gateway-media-faults", async ({ page, mock }) => {
      await openStudio(page, "Transcription");
      const form = page.getByRole("form", { name: "Transcribe audio" });

      // The takes could not be listed: said so, with Try again (not "No takes yet").
      const takes = form.getByRole("alert").filter({ hasText: "The media library on this computer could not be read. Try again in a moment." });
      await takes.getByRole("heading", { name: "Something went wrong" }).waitFor();
      assert.equal(await textOf(form.getByLabel("Or a take from the history").locator("option").first()), "Could not list takes");

      // A file that is not on this computer: the refusal's title and words, and Try again, which picks again.
      await form.getByRole("button", { name: "Pick an audio file…" }).click();
      const refused = form.getByRole("alert").filter({ hasText: "That file is not on this computer. Copy it to a folder here and choose it again." });
      await refused.getByRole("heading", { name: "Please check what you entered" }).waitFor();
      await expectAxeCleanInBothThemes(page, "transcription with a refused file and unreadable takes");
      await refused.getByRole("button", { name: "Try again" }).click();
      await form.getByText("standup-notes.m4a").waitFor();
      assert.equal(await refused.count(), 0);
      assert.equal((await mock.calls("choose_file")).length, 2);

      await mock.release("takes-back");
      await takes.getByRole("button", { name: "Try again" }).click();
      await form.getByRole("option", { name: /^Take \d+:/ }).first().waitFor({ state: "attached" });
      assert.equal(await takes.count(), 0);

      // No API key: Open Settings, which goes there.
      await form.getByRole("button", { name: "Transcribe" }).click();
      const noKey = form.getByRole("alert").filter({ hasText: "The service needs an API key for this. Add your key in Settings, then try again." });
      await noKey.getByRole("heading", { name: "An API key is needed" }).waitFor();
      await noKey.getByRole("button", { name: "Try again" }).waitFor();
      await noKey.getByRole("button", { name: "Open Settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    });
  });

  test("video: a failed job and a held one show their title, words and next step; Try again sends the video again", async () => {
    await h.withScenario("gateway-media-faults", async ({ page, mock }) => {
      await openStudio(page, "Video");
      const failed = page.getByRole("listitem", { name: "Video: A fox running through fresh snow" });
      const why = failed.getByRole("alert");
      await why.getByRole("heading", { level: 3, name: "The service had a problem" }).waitFor();
      await why.getByText("The video service stopped rendering this video before it was done.").waitFor();
      await failed.getByText("Nothing was charged.").waitFor();

      // Held for want of a key: its title, words and Open Settings (no Try again: the runner resumes it).
      const held = page.getByRole("listitem", { name: "Video: Northern lights over a fjord" });
      const hold = held.getByRole("alert");
      await hold.getByRole("heading", { level: 3, name: "An API key is needed" }).waitFor();
      await held.getByText("On hold until this is sorted out:").waitFor();
      assert.equal(await hold.getByRole("button", { name: "Try again" }).count(), 0);
      await hold.getByRole("button", { name: "Open Settings" }).waitFor();
      await expectAxeCleanInBothThemes(page, "the video studio with a failed and a held job");

      await why.getByRole("button", { name: "Try again" }).click();
      await page.getByRole("listitem", { name: "Video: A fox running through fresh snow" }).nth(1).waitFor();
      const sent = (await mock.calls("submit_video")).map((c) => c.args.request);
      assert.deepEqual(sent, [{ model: "google/veo-3-fast", prompt: "A fox running through fresh snow", seconds: "4" }]);
      const fresh = page.getByRole("listitem", { name: "Video: A fox running through fresh snow" }).first();
      await fresh.getByText("Queued", { exact: true }).waitFor();
      assert.equal(await fresh.getByRole("alert").count(), 0);

      await hold.getByRole("button", { name: "Open Settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    });
  });

  for (const theme of ["light", "dark"]) {
    test(`every media studio is axe-clean in the ${theme} theme`, async () => {
      await h.withScenario("gateway-media", { theme }, async ({ page }) => {
        await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
        for (const tab of ["Images", "Speech and music", "Transcription", "Video"]) {
          await openStudio(page, tab);
          await page.locator(".studio-form").waitFor();
          await page.locator(".skeleton").waitFor({ state: "detached" });
          await expectAxeClean(page, `${tab} (${theme})`);
        }
      });
    });
  }

  test("no asset protocol and an empty library: plain words, no broken images", async () => {
    await h.withScenario("gateway-media-empty", async ({ page }) => {
      await openStudio(page, "Images");
      await page.getByText("No images yet. Generated images are saved here with their prompt, model and cost.").waitFor();
      await page.getByRole("tab", { name: "Speech and music" }).click();
      await page.getByText("No takes yet. Each take is saved here with its settings and what it cost.").waitFor();
    });
  });
});

describe("offline", () => {
  const OFFLINE = "Offline — models as of 2 hours ago";
  for (const theme of ["light", "dark"]) {
    test(`offline, the kept model lists still fill every picker and say how old they are (${theme})`, async () => {
      await h.withScenario("gateway-media-offline", { theme }, async ({ page }) => {
        await page.locator(`html[data-theme=${theme}]`).waitFor({ state: "attached" });
        await openStudio(page, "Images");
        const form = page.getByRole("form", { name: "New images" });
        await form.locator(".offline-note").waitFor();
        assert.equal(await textOf(form.locator(".offline-note")), OFFLINE);
        assert.equal(await textOf(form.locator(".price-line")), "0.4 credits per image · 1 image: 0.4 credits");
        assert.ok((await form.getByLabel("Model").locator("option").count()) >= 2);
        await expectAxeClean(page, `Images offline (${theme})`);

        for (const [tab, picker] of [
          ["Speech and music", "Speech model"],
          ["Transcription", "Transcription model"],
          ["Video", "Model"],
        ]) {
          await openStudio(page, tab);
          const field = page.locator(".studio-form .model-picker").filter({ has: page.getByLabel(picker, { exact: true }) });
          await field.locator(".offline-note").waitFor();
          assert.equal(await textOf(field.locator(".offline-note")), OFFLINE);
          const select = field.getByLabel(picker, { exact: true });
          assert.ok((await select.locator("option").count()) >= 1, `${tab} lists models`);
          assert.notEqual(await select.inputValue(), "", `${tab} has a model chosen`);
          await expectAxeClean(page, `${tab} offline (${theme})`);
        }

        await openStudio(page, "Models");
        const catalog = page.locator(".model-catalog");
        await catalog.locator(".offline-note").waitFor();
        assert.equal(await textOf(catalog.locator(".offline-note").first()), OFFLINE);
        assert.ok((await page.getByRole("table", { name: "Models" }).locator("tbody tr").count()) > 0);
        assert.ok((await page.getByRole("table", { name: "Image models" }).locator("tbody tr").count()) > 0);
        await expectAxeClean(page, `Models offline (${theme})`);
      });
    });
  }
});
