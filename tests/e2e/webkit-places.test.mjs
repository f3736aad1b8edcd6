// Every place has an address, and a relaunch of the real app returns to it (issue 24, point 1):
// a conversation of the Chat studio, then a section of Settings, each reopened by a new launch
// on the same data folder; then specdesk:// links given to a second launch, opened in the first
// window. Works alone or after the other files (it makes its own conversation).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { browser, env, launch, openArea, quit, useSandbox, waitForSelected, waitForText } from "./helpers.mjs";

const MESSAGE = "Where does this conversation live?";

before(async () => {
  await launch();
});

after(async () => {
  await quit().catch(() => undefined);
});

const hash = () => browser.execute(() => window.location.hash);

async function waitForHash(pattern, what) {
  await browser.waitUntil(async () => pattern.test(await hash()), { timeout: 20000, timeoutMsg: `the address never named ${what}: ${await hash()}` });
}

async function relaunch() {
  await quit();
  await launch();
  await browser.$('nav[aria-label="Areas"]').waitForExist({ timeout: 20000 });
}

test("the Sandbox is in use", async () => {
  await useSandbox();
});

test("a conversation and a section of Settings are reopened by a relaunch", async () => {
  await openArea("Gateway");
  await browser.$("h1=Gateway").waitForExist({ timeout: 10000 });
  await waitForSelected("Model");
  const input = await browser.$("#chat-input");
  await input.setValue(MESSAGE);
  await browser.keys("Enter");
  // The conversation the first message made is named in the address.
  await waitForHash(/^#\/gateway\/chat\?conversation=\d+$/, "the new conversation");
  const conversation = await hash();
  const reply = 'li.turn[data-role="assistant"] .turn-body';
  await browser.waitUntil(async () => (await browser.execute((s) => document.querySelector(s)?.textContent ?? "", reply)).includes(MESSAGE), {
    timeout: 30000,
    timeoutMsg: "the reply never came",
  });

  await relaunch();
  assert.equal(await hash(), conversation);
  await browser.$("h1=Gateway").waitForExist({ timeout: 10000 });
  await browser.waitUntil(async () => (await browser.execute((s) => document.querySelector(s)?.textContent ?? "", reply)).includes(MESSAGE), {
    timeout: 20000,
    timeoutMsg: "the conversation was not reopened",
  });
  assert.equal(await browser.execute(() => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent.trim()), "Chat");

  await openArea("Settings");
  await (await (await browser.$('nav[aria-label="Sections of Settings"]')).$("a=Spending")).click();
  await waitForHash(/^#\/settings\/spending$/, "the Spending section");
  await relaunch();
  assert.equal(await hash(), "#/settings/spending");
  await browser.$("h1=Settings").waitForExist({ timeout: 10000 });
  assert.equal(await browser.execute(() => document.querySelector('nav[aria-label="Sections of Settings"] [aria-current="location"]')?.textContent), "Spending");
  linkedConversation = conversation;
});

/** Launches the app again with `link`, as the desktop does for a link; resolves with its exit code. */
async function launchWith(link) {
  const second = spawn(env("SPECDESK_E2E_APP"), [link], { env: process.env, stdio: "ignore" });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      second.kill("SIGKILL");
      reject(new Error("the second launch stayed"));
    }, 30000);
    second.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

let linkedConversation;

test("a specdesk:// link given to a second launch opens its place in the first window; one that names nothing is said", async () => {
  assert.ok(linkedConversation, "the conversation of the test before");
  assert.equal(await hash(), "#/settings/spending");
  const link = `specdesk://gateway/${linkedConversation.slice("#/gateway/".length)}`;
  assert.equal(await launchWith(link), 0, "the second launch exits cleanly");
  await waitForHash(new RegExp(`^${linkedConversation.replace(/[?]/g, "\\$&")}$`), "the linked conversation");
  await browser.waitUntil(async () => (await browser.execute(() => document.querySelectorAll('li.turn[data-role="assistant"]').length)) === 1, {
    timeout: 20000,
    timeoutMsg: "the linked conversation is not shown",
  });

  assert.equal(await launchWith("specdesk://nowhere/at/all"), 0);
  await waitForText("This link does not lead to anything in Specdesk: “specdesk://nowhere/at/all”. Check that it was copied whole; nothing was opened.");
  assert.equal(await hash(), linkedConversation, "nothing was opened");

  // Back to the Specs list, where the next file expects to start.
  await openArea("Specs");
  await waitForHash(/^#\/specs/, "the Specs area");
});
