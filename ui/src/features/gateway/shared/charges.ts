// What one gateway call cost: its request id, the credits charged and the balance after it. The
// media commands and rerank return their own call's charge with their result (`Charged`, from the
// call's metering headers); a chat reply's comes with its `done` event.

export interface Charge {
  requestId?: string;
  creditsCharged?: number;
  balanceAfter?: number;
  /** Worked out from balance reads, not told by the service. */
  estimated?: boolean;
  /** Not settled yet (a stream still open). */
  pending?: boolean;
}
