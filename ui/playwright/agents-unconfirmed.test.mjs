// Batches not known to have reached the service (their key past the service's 24-hour window,
// not in its batch list): listed on the Browser agents screen with what happened, each sent again
// only on the user's word (a new batch) or kept unsent. Axe in both themes.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { expectAxeCleanInBothThemes, openArea, startHarness, textOf } from "./harness.mjs";

let h;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h?.close();
});

const UNCONFIRMED =
  "This batch is not known to have reached the service. It was saved on 2026-11-20 09:15 UTC and the service remembers a batch's key for 24 hours only, so sending it now could run and charge it twice. Check your batch history; if it is not there, choose Send again.";

test("each batch not known to have been sent waits for the user: Send again or Keep it unsent", async () => {
  await h.withScenario("agents-unconfirmed", async ({ page, mock }) => {
    await openArea(page, "Browser agents");
    const panel = page.getByRole("region", { name: "2 batches may not have been sent" });
    await panel.waitFor();
    const rows = panel.getByRole("listitem");
    assert.equal(await rows.count(), 2);
    // Newest job first.
    assert.match(await textOf(rows.nth(0)), /^1 task, saved Nov 20, 2026, 9:15 AM /);
    assert.match(await textOf(rows.nth(1)), /^3 tasks, saved Nov 20, 2026, 9:15 AM /);
    assert.ok((await textOf(rows.nth(1))).includes(UNCONFIRMED));
    // Nothing was sent by itself.
    assert.deepEqual(await mock.calls("submit_batch"), []);
    await expectAxeCleanInBothThemes(page, "batches not known to have been sent");

    // Kept unsent: it goes, nothing is sent.
    await rows.nth(0).getByRole("button", { name: "Keep it unsent" }).click();
    await page.getByRole("region", { name: "A batch may not have been sent" }).waitFor();
    assert.deepEqual(
      (await mock.calls("settle_unconfirmed_batch")).map((c) => c.args),
      [{ jobId: 902, sendAgain: false }],
    );

    // Sent again: a new batch of its three tasks, shown as just submitted.
    await page.getByRole("button", { name: "Send again" }).click();
    await page.getByRole("region", { name: "Submitted" }).waitFor();
    assert.equal(await page.getByRole("region", { name: /may not have been sent/ }).count(), 0);
    assert.deepEqual(
      (await mock.calls("settle_unconfirmed_batch")).map((c) => c.args),
      [
        { jobId: 902, sendAgain: false },
        { jobId: 901, sendAgain: true },
      ],
    );
    assert.match(await textOf(page.getByRole("region", { name: "Submitted" })), /The service has your batch of 3 tasks\./);
  });
});
