// Compare: one prompt to two or three models at once. Each lane streams on its own; this
// reducer keeps their text, time to first token, length, credits and the winner. Pure, tested in
// compare.test.ts; the winner is also recorded on the conversation (conversations.ts).
import type { IpcError } from "../../../ipc/contract";

export type LaneStatus = "waiting" | "streaming" | "done" | "stopped" | "cut" | "error";

export interface Lane {
  model: string;
  streamId: string;
  text: string;
  status: LaneStatus;
  startedAt: number;
  firstTokenAt?: number;
  endedAt?: number;
  credits?: number;
  /** The service's request id of the lane's reply, and the balance after it (its headers). */
  requestId?: string;
  balanceAfter?: number;
  error?: IpcError;
}

export interface CompareState {
  prompt: string;
  lanes: Lane[];
  winner?: string;
}

export type CompareAction =
  | { type: "start"; prompt: string; lanes: { model: string; streamId: string }[]; at: number }
  | { type: "text"; streamId: string; text: string; at: number }
  | { type: "done"; streamId: string; text: string; credits?: number; requestId?: string; balanceAfter?: number; at: number }
  | { type: "error"; streamId: string; error: IpcError; at: number }
  /** A lane that failed streams again under a new stream id. */
  | { type: "retry"; streamId: string; newStreamId: string; at: number }
  | { type: "winner"; model: string };

export const NO_COMPARE: CompareState = { prompt: "", lanes: [] };

function lane(state: CompareState, streamId: string, f: (l: Lane) => Lane): CompareState {
  return { ...state, lanes: state.lanes.map((l) => (l.streamId === streamId ? f(l) : l)) };
}

const live = (l: Lane) => l.status === "waiting" || l.status === "streaming";

export function compareReducer(state: CompareState, action: CompareAction): CompareState {
  switch (action.type) {
    case "start":
      return {
        prompt: action.prompt,
        lanes: action.lanes.map((l) => ({ ...l, text: "", status: "waiting", startedAt: action.at })),
      };
    case "text":
      return lane(state, action.streamId, (l) =>
        live(l) ? { ...l, text: l.text + action.text, status: "streaming", firstTokenAt: l.firstTokenAt ?? action.at } : l,
      );
    case "done":
      return lane(state, action.streamId, (l) =>
        live(l)
          ? {
              ...l,
              text: action.text || l.text,
              status: "done",
              credits: action.credits,
              requestId: action.requestId,
              balanceAfter: action.balanceAfter,
              endedAt: action.at,
              firstTokenAt: l.firstTokenAt ?? action.at,
            }
          : l,
      );
    case "error":
      return lane(state, action.streamId, (l) => {
        if (!live(l)) return l;
        const status: LaneStatus = action.error.kind === "cancelled" ? "stopped" : l.text ? "cut" : "error";
        return { ...l, status, error: action.error, endedAt: action.at };
      });
    case "retry":
      return lane(state, action.streamId, (l) =>
        l.status === "error" ? { model: l.model, streamId: action.newStreamId, text: "", status: "waiting", startedAt: action.at } : l,
      );
    case "winner":
      return state.lanes.some((l) => l.model === action.model && pickable(l)) ? { ...state, winner: action.model } : state;
  }
}

/** A lane can win once it ended with some text (a cut-off reply too). */
export function pickable(l: Lane): boolean {
  return !live(l) && l.text.length > 0;
}

/** Whether any lane is still streaming. */
export function comparing(state: CompareState): boolean {
  return state.lanes.some(live);
}

/** Time to first token in ms, once known. */
export function ttftOf(l: Lane): number | undefined {
  return l.firstTokenAt === undefined ? undefined : l.firstTokenAt - l.startedAt;
}

/** Words in a reply. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
