// "gateway-chat-500": the Chat studio with a conversation of 500 turns (250 questions and 250
// replies of varied length: a line, paragraphs, lists, a code block), generated here, for the
// virtualized thread's screen test and bench/chat-500.mjs. New messages are answered as in
// "gateway-chat" (streamed a word at a time; [hold] waits for release("chat-hold")).
import type { ConversationMessage } from "../../ipc/contract";
import { defineScenario } from "../registry";
import { SANDBOX_ID } from "../state";
import { chatStream, renderEmphasis } from "./gateway-chat";

export const LONG_CONVERSATION_ID = 500;
export const LONG_CONVERSATION_TITLE = "Planning the habit tracker (500 turns)";
export const LONG_TURNS = 500;
/** The first turn's exact text (the screen test finds it after scrolling to the top). */
export const FIRST_TURN = "Turn 1: where do we start planning the habit tracker?";
const MODEL = "anthropic/claude-sonnet-4.5";
const TOPICS = ["streaks", "reminders", "team boards", "check-ins", "weekly email", "billing", "onboarding", "offline mode", "exports", "dark theme"];

/** A reply of one of five shapes, so the turns differ in height. */
function replyOf(n: number, topic: string): string {
  switch (n % 5) {
    case 0:
      return `Short answer for turn ${n}: keep **${topic}** simple.`;
    case 1:
      return `About *${topic}* (turn ${n}):\n\n- what the user sees first\n- what they can change\n- what is kept on this computer\n- what goes to the service`;
    case 2:
      return Array.from({ length: 3 }, (_, p) => `Paragraph ${p + 1} of turn ${n}. ${topic} needs a clear rule: say what happens, when it happens and what the user can undo. Keep each screen to one job.`).join("\n\n");
    case 3:
      return `A sketch for ${topic} (turn ${n}):\n\n\`\`\`ts\nexport function ${topic.replace(/\W/g, "")}Of(day: number): string {\n  return day > 0 ? "kept" : "new";\n}\n\`\`\`\n\nThen test it with a few days.`;
    default:
      return `Turn ${n}: ${topic} is fine as it is. ${"Check it again next week. ".repeat(4).trim()}`;
  }
}

export function longConversation(): ConversationMessage[] {
  const start = Date.parse("2026-11-20T09:00:00.000Z");
  return Array.from({ length: LONG_TURNS }, (_, i): ConversationMessage => {
    const n = i + 1;
    const at = new Date(start + i * 30_000).toISOString();
    const topic = TOPICS[Math.floor(i / 2) % TOPICS.length] ?? "streaks";
    if (i % 2 === 0) {
      const text = n === 1 ? FIRST_TURN : `Turn ${n}: what about ${topic}?${n % 7 === 0 ? " And how does it work for a team of twelve, with people in three time zones?" : ""}`;
      return { id: 1000 + i, conversationId: LONG_CONVERSATION_ID, role: "user", content: text, createdAt: at, cut: false };
    }
    return {
      id: 1000 + i,
      conversationId: LONG_CONVERSATION_ID,
      role: "assistant",
      content: [{ type: "text", text: replyOf(n, topic) }],
      model: MODEL,
      creditsCharged: 0.02,
      requestId: `req_long_${n}`,
      createdAt: at,
      cut: false,
    };
  });
}

defineScenario(
  "gateway-chat-500",
  {
    chat_stream: (args, ctx) => chatStream(args, ctx),
    render_markdown: renderEmphasis,
  },
  {
    description: "A 500-turn conversation (generated) beside the usual one; replies streamed as in gateway-chat.",
    setup: (db) => {
      db.conversations.unshift({
        id: LONG_CONVERSATION_ID,
        profileId: SANDBOX_ID,
        title: LONG_CONVERSATION_TITLE,
        model: MODEL,
        createdAt: "2026-11-20T09:00:00.000Z",
        updatedAt: "2026-11-20T13:10:00.000Z",
      });
      db.messages.push(...longConversation());
      db.seq = Math.max(db.seq, 5000);
    },
  },
);
