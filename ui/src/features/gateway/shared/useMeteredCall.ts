// One gateway call at a time from a studio's form: pending, the refusal (an IpcError with its
// action), the result, and what that call cost (returned with the result by the command).
import { useState } from "react";
import type { Charged } from "../../../bindings/Charged";
import type { IpcError } from "../../../ipc/contract";
import { toIpcError } from "../../../ipc/invoke";
import type { Charge } from "./charges";

export interface MeteredState<T> {
  pending: boolean;
  error: IpcError | null;
  result: T | null;
  charge: Charge | null;
}

export function useMeteredCall<T>() {
  const [state, setState] = useState<MeteredState<T>>({ pending: false, error: null, result: null, charge: null });
  const run = async (send: () => Promise<Charged<T>>): Promise<T | null> => {
    setState((s) => ({ ...s, pending: true, error: null }));
    try {
      const { value, charge } = await send();
      setState({ pending: false, error: null, result: value, charge });
      return value;
    } catch (e) {
      setState((s) => ({ ...s, pending: false, error: toIpcError(e) }));
      return null;
    }
  };
  const clearError = () => setState((s) => ({ ...s, error: null }));
  return { ...state, run, clearError };
}
