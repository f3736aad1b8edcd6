// The Chat studio's virtualized thread on a 500-turn conversation (src/mock/scenarios/
// gateway-chat-500.ts): only a window of turns is in the DOM; the keyboard scrolls the thread to
// its first turn, found with its exact text; a reply streamed while the user reads above does not
// move the view, and one streamed at the bottom is followed and announced once; axe.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { expectAxeClean, startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const MODEL = "anthropic/claude-sonnet-4.5";
const FIRST_TURN = "Turn 1: where do we start planning the habit tracker?";
const reply = (asked) => `claude-sonnet-4.5 says: here is a thought about ${asked}. Keep it short and clear.`;

const thread = (page) => page.getByRole("list", { name: "Messages" });
const scroller = (page) => page.getByRole("region", { name: "Conversation" });
const turnAt = (page, n) => thread(page).locator(`:scope > li[aria-posinset="${n}"]`);

/** How far the thread is from its bottom (px) and its scroll position. */
const position = (page) =>
  scroller(page).evaluate((el) => ({ top: el.scrollTop, fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight }));

/** Whether the locator's box is inside the thread's visible box. */
async function inView(page, locator) {
  const [box, view] = await Promise.all([locator.boundingBox(), scroller(page).boundingBox()]);
  return !!box && !!view && box.y < view.y + view.height && box.y + box.height > view.y;
}

async function openLong(page) {
  await page.getByRole("navigation", { name: "Areas" }).getByRole("button", { name: "Gateway" }).click();
  await page.getByRole("tablist", { name: "Studios" }).getByRole("tab", { name: "Chat", exact: true }).click();
  await page.waitForFunction((m) => document.querySelector("#chat-input") && [...document.querySelectorAll("select")].some((s) => s.value === m), MODEL);
  await page.getByRole("navigation", { name: "Conversations" }).getByRole("button", { name: /^Planning the habit tracker \(500 turns\)/ }).click();
  await turnAt(page, 500).waitFor();
}

async function send(page, text) {
  await page.getByLabel("Your message").fill(text);
  await page.getByLabel("Your message").press("Enter");
}

test("a 500-turn conversation keeps a window of turns in the DOM, and the keyboard reaches its first turn", async () => {
  await h.withScenario("gateway-chat-500", async ({ page }) => {
    await openLong(page);
    const rendered = await thread(page).locator(":scope > li").count();
    assert.ok(rendered > 0 && rendered < 60, `${rendered} turns in the DOM`);
    assert.equal(await turnAt(page, 500).getAttribute("aria-setsize"), "500");
    // Opened at its newest turn.
    await page.waitForFunction(() => {
      const el = document.querySelector(".thread-scroll");
      return el && el.scrollHeight - el.scrollTop - el.clientHeight < 2;
    });
    assert.ok(await inView(page, turnAt(page, 500)));
    await expectAxeClean(page, "a 500-turn conversation");

    // Home on the thread scrolls to the first turn, whose exact text is there.
    await scroller(page).focus();
    await page.keyboard.press("Home");
    await turnAt(page, 1).waitFor();
    await page.waitForFunction(() => document.querySelector(".thread-scroll")?.scrollTop === 0);
    assert.equal(await textOf(turnAt(page, 1).locator(".user-text")), FIRST_TURN);
    assert.ok(await inView(page, turnAt(page, 1)));
    assert.equal(await turnAt(page, 500).count(), 0);
    const window = await thread(page).locator(":scope > li").count();
    assert.ok(window < 60, `${window} turns in the DOM at the top`);

    // Tab reaches the first turn's buttons; the focused turn stays while the thread scrolls away.
    await turnAt(page, 1).getByRole("button", { name: "Edit" }).focus();
    await page.keyboard.press("Tab");
    await scroller(page).evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await turnAt(page, 500).waitFor();
    assert.equal(await turnAt(page, 1).count(), 1, "the turn holding the focus is still rendered");
    assert.equal(await page.evaluate(() => document.activeElement?.closest("li")?.getAttribute("aria-posinset")), "1");
  });
});

test("a reply streamed while the user reads above leaves the view alone; one streamed at the bottom is followed and announced", async () => {
  await h.withScenario("gateway-chat-500", async ({ page, mock }) => {
    await openLong(page);

    // At the bottom: the new turns are followed to the end of the reply.
    await send(page, "Name a habit app");
    await turnAt(page, 502).locator(".turn-credits").waitFor();
    assert.equal(await textOf(turnAt(page, 502).locator(".chat-md")), reply("Name a habit app"));
    await page.waitForFunction(() => {
      const el = document.querySelector(".thread-scroll");
      return el && el.scrollHeight - el.scrollTop - el.clientHeight < 2;
    });
    assert.ok(await inView(page, turnAt(page, 502)));
    assert.equal(await page.getByTestId("chat-announcer").innerText(), `claude-sonnet-4.5 says: here is a thought about Name a habit app. Keep it short and clear.`);

    // Held halfway, the user scrolls up to the first turn; the reply ends without moving the view.
    await send(page, "Tell me more [hold]");
    await turnAt(page, 504).getByText("Writing…").waitFor();
    await scroller(page).focus();
    await page.keyboard.press("Home");
    await turnAt(page, 1).waitFor();
    await page.waitForFunction(() => document.querySelector(".thread-scroll")?.scrollTop === 0);
    await mock.release("chat-hold");
    await page.waitForFunction(() => document.querySelector('[data-testid="chat-announcer"]')?.textContent?.includes("Tell me more"));
    const after = await position(page);
    assert.equal(after.top, 0);
    assert.ok(await inView(page, turnAt(page, 1)));

    // End goes back to the finished reply.
    await page.keyboard.press("End");
    await turnAt(page, 504).locator(".turn-credits").waitFor();
    await page.waitForFunction(() => {
      const el = document.querySelector(".thread-scroll");
      return el && el.scrollHeight - el.scrollTop - el.clientHeight < 2;
    });
    assert.equal(await textOf(turnAt(page, 504).locator(".chat-md")), reply("Tell me more"));
    assert.ok((await thread(page).locator(":scope > li").count()) < 60);
  });
});
