// Work belongs to the app, not to a screen (issue 24, point 2), in the real app: a long chat reply
// (the Sandbox paced to a word a second: about 30 s, against the few seconds an image takes, so it
// is still streaming when the user comes back) keeps streaming in Rust while the user goes to Images
// and generates an image; back in Chat, the reply still streaming is shown live and ends whole,
// kept once and charged once, and the image is in the gallery. Works alone or after the others.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { browser, click, fill, invoke, launch, openArea, openStudio, quit, useSandbox, waitForSelected, waitForText } from "./helpers.mjs";

const QUESTION = "Tell me, word by word, what happens to this reply while I look at images";
const PROMPT = "A paper boat on a pond, drawn while a reply streams";
let sandbox;

before(async () => {
  await launch();
});

after(async () => {
  // Back to the Sandbox's own pace for the files after this one.
  if (sandbox) await fetch(`${sandbox}/_sandbox/gateway/pace`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ deltaIntervalMs: 0 }) }).catch(() => undefined);
  await quit().catch(() => undefined);
});

/** Opens the activity panel until its rows (label and meta line) pass `ok`, then closes it. */
async function waitForActivity(ok, what) {
  let rows = [];
  await browser.waitUntil(
    async () => {
      if (!(await browser.$(".activity-panel").isExisting())) await (await browser.$(".activity-button")).click();
      rows = await browser.execute(() =>
        [...document.querySelectorAll("li.activity-row")].map((li) => ({ label: li.getAttribute("aria-label"), meta: li.querySelector(".activity-meta")?.textContent.replace(/\s+/g, " ").trim() })),
      );
      return ok(rows);
    },
    { timeout: 90000, timeoutMsg: `the activity center never showed ${what}: ${JSON.stringify(rows)}` },
  );
  await browser.keys("Escape");
}

const reply = () =>
  browser.execute(() => [...document.querySelectorAll('li.turn[data-role="assistant"] .turn-body')].at(-1)?.textContent.replace(/\s+/g, " ").trim() ?? "");

test("a reply keeps streaming while the user makes an image elsewhere, and is whole, kept once and charged once", async () => {
  sandbox = await useSandbox();
  const paced = await fetch(`${sandbox}/_sandbox/gateway/pace`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ deltaIntervalMs: 1000 }) });
  assert.equal(paced.status, 200, await paced.clone().text());
  await openArea("Gateway");
  await openStudio("Chat");
  const model = await waitForSelected("Model");
  await (await browser.$("#chat-input")).setValue(QUESTION);
  await browser.keys("Enter");
  const whole = `Sandbox reply from ${model}. You wrote ${QUESTION.split(/\s+/).length} words: "${QUESTION}"`;
  await browser.waitUntil(async () => (await reply()).split(" ").length >= 3, { timeout: 30000, timeoutMsg: "the reply never started" });
  const conversation = Number((await browser.execute(() => window.location.hash)).match(/conversation=(\d+)/)?.[1]);
  assert.ok(conversation > 0, "the conversation is in the address");

  // The activity center lists the reply while it runs (Rust's list, not the screen's).
  await waitForActivity((rows) => rows.some((r) => r.label === `Chat reply: ${QUESTION}` && r.meta.startsWith("Chat reply · Running")), "the running reply");
  assert.match(await (await browser.$(".activity-button")).getText(), /Activity\s*1/);

  // Elsewhere while it streams: an image made in the Images studio.
  await openStudio("Images");
  await fill("Prompt", PROMPT);
  await click("button", "Generate image");
  await waitForText(PROMPT, 30000);

  // Back in Chat: the same reply, still streaming or already ended, never cut or stopped.
  await openStudio("Chat");
  await browser.waitUntil(async () => whole.startsWith(await reply()) && (await reply()).length > 0, { timeout: 20000, timeoutMsg: `the reply is not shown: "${await reply()}"` });
  const back = await reply();
  assert.ok(back.length < whole.length, `still streaming on return (the Sandbox's pace leaves it mid-way): "${back}"`);
  await browser.waitUntil(async () => (await reply()) === whole, { timeout: 90000, timeoutMsg: `the reply did not end whole: "${await reply()}"` });
  const turn = await browser.$('li.turn[data-role="assistant"]');
  assert.equal(await turn.$("span=Cut off").isExisting(), false);
  assert.equal(await turn.$("span=Stopped").isExisting(), false);

  // Kept once, charged once.
  const messages = await invoke("conversation_messages", { conversationId: conversation });
  const answers = messages.filter((m) => m.role === "assistant");
  assert.equal(answers.length, 1);
  assert.equal(answers[0].cut, false);
  assert.equal(answers[0].content.map((b) => b.text).join(""), whole);
  const ledger = await invoke("credit_ledger", { limit: 500 });
  const charges = ledger.filter((e) => e.endpoint === "v1/messages" && e.requestId === answers[0].requestId);
  assert.equal(charges.length, 1, `one charge for the reply: ${JSON.stringify(charges)}`);

  // Both ended, each with its charge; the reply's entry opens its conversation.
  await waitForActivity(
    (rows) =>
      rows.some((r) => r.label === `Chat reply: ${QUESTION}` && /^Chat reply · Done · [\d.]+ credits?$/.test(r.meta)) &&
      rows.some((r) => r.label === `Image: ${PROMPT}` && /^Image · Done · [\d.]+ credits?$/.test(r.meta)),
    "the reply and the image done",
  );
  await openStudio("Images");
  await (await browser.$(".activity-button")).click();
  await (await (await browser.$(`li.activity-row[aria-label="Chat reply: ${QUESTION}"]`)).$("button.activity-title")).click();
  await browser.waitUntil(async () => (await browser.execute(() => window.location.hash)) === `#/gateway/chat?conversation=${conversation}`, {
    timeout: 10000,
    timeoutMsg: "the activity entry did not open its conversation",
  });
  await browser.waitUntil(async () => (await reply()) === whole, { timeout: 10000, timeoutMsg: "the conversation did not open" });

  // The image is in the gallery (its card's prompt: the card may be below the fold).
  await openStudio("Images");
  await browser.waitUntil(
    async () => browser.execute((p) => [...document.querySelectorAll(".gallery .gallery-prompt")].some((el) => el.textContent.trim() === p), PROMPT),
    { timeout: 20000, timeoutMsg: "the image is not in the gallery" },
  );
});
