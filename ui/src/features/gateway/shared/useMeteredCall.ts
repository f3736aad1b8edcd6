// One gateway call at a time from a studio's form: pending, the refusal (an IpcError with its
// action), the result, and what the call cost (read from the credit ledger once it answered).
import { useState } from "react";
import type { IpcError } from "../../../ipc/contract";
import { toIpcError } from "../../../ipc/invoke";
import { chargeOfLastCall, type Charge, type GatewayEndpoint } from "./charges";

export interface MeteredState<T> {
  pending: boolean;
  error: IpcError | null;
  result: T | null;
  charge: Charge | null;
}

export function useMeteredCall<T>(endpoint: GatewayEndpoint) {
  const [state, setState] = useState<MeteredState<T>>({ pending: false, error: null, result: null, charge: null });
  const run = async (send: () => Promise<T>): Promise<T | null> => {
    setState((s) => ({ ...s, pending: true, error: null }));
    try {
      const result = await send();
      const charge = await chargeOfLastCall(endpoint);
      setState({ pending: false, error: null, result, charge });
      return result;
    } catch (e) {
      setState((s) => ({ ...s, pending: false, error: toIpcError(e) }));
      return null;
    }
  };
  const clearError = () => setState((s) => ({ ...s, error: null }));
  return { ...state, run, clearError };
}
