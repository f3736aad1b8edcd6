// What one gateway call cost: its request id, the credits charged and the balance after it, read
// from the credit ledger (Rust records each call's metering headers there as they arrive). The
// results of the media commands do not carry the request id or the balance, so the studios read
// the ledger line the call just wrote.
import type { CreditEntry } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";

export interface Charge {
  requestId?: string;
  creditsCharged?: number;
  balanceAfter?: number;
  /** Worked out from balance reads, not told by the service. */
  estimated?: boolean;
  /** Not settled yet (a stream still open). */
  pending?: boolean;
}

/** Ledger endpoints by studio, as Rust names them ("v1/images"...); matched on their last part. */
export type GatewayEndpoint = "images" | "speech" | "transcriptions" | "videos" | "messages" | "rerank";

export function endpointMatches(entry: string, endpoint: GatewayEndpoint): boolean {
  const last = entry.split("/").pop() ?? entry;
  return last === endpoint;
}

/** The newest line of `endpoint` (the ledger is newest first) as a Charge, or null. */
export function latestCharge(entries: CreditEntry[], endpoint: GatewayEndpoint): Charge | null {
  const e = entries.find((x) => endpointMatches(x.endpoint, endpoint));
  if (!e) return null;
  return {
    ...(e.requestId ? { requestId: e.requestId } : {}),
    ...(e.creditsCharged !== undefined ? { creditsCharged: e.creditsCharged } : {}),
    ...(e.creditsRemaining !== undefined ? { balanceAfter: e.creditsRemaining } : {}),
    ...(e.estimated ? { estimated: true } : {}),
    ...(e.pending ? { pending: true } : {}),
  };
}

/** Reads the charge of the call just made; null when the ledger cannot be read. */
export async function chargeOfLastCall(endpoint: GatewayEndpoint): Promise<Charge | null> {
  try {
    return latestCharge(await call("credit_ledger", { limit: 20 }), endpoint);
  } catch {
    return null;
  }
}
