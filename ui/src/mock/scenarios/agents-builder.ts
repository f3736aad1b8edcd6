// Scenarios of the Browser agents builder: a balance that cannot cover a batch, and a batch the
// service refuses for want of credits (with its Top up action). Open one with ?scenario=<name>.
import { defineScenario, ipcError } from "../registry";

export const AGENTS_TOP_UP_URL = "https://example.com/account/top-up";
export const AGENTS_NO_CREDITS = "You do not have enough credits for this batch. Top up your balance, then run it again.";

defineScenario("agents-low-balance", {}, {
  description: "The Sandbox with 0.15 credits: one task is covered, two are not.",
  setup: (db) => {
    db.credits[db.settings.activeProfileId] = 0.15;
  },
});

defineScenario(
  "agents-submit-refused",
  {
    submit_batch: () => {
      throw ipcError("insufficientCredits", AGENTS_NO_CREDITS, {
        status: 402,
        action: { label: "Top up", url: AGENTS_TOP_UP_URL },
      });
    },
  },
  { description: "submit_batch answers 402: the builder shows the error with Top up and keeps the draft." },
);
