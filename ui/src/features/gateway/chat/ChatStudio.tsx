// The Chat studio: conversations on the left, the thread with its composer in the middle, the
// settings on the right. A finished reply is announced once to screen readers through one
// visually hidden polite live region that only ever gets the final text (never the deltas).
import { useCallback, useEffect, useRef, useState } from "react";
import type { Conversation } from "../../../ipc/contract";
import type { ContentBlock } from "../../../bindings/ContentBlock";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { useConnectionId, useCredits } from "../../../ipc/hooks";
import { call } from "../../../ipc/invoke";
import { copyText } from "../../../lib/clipboard";
import { formatCreditsWord, slugify } from "../../../lib/format";
import { useNotice } from "../../../lib/notices";
import { useStableCallback } from "../../../lib/useStableCallback";
import { loadJson, saveJson } from "../../../lib/storage";
import { ChatSettings, DEFAULT_FORM, compareModels, isChatForm, type ChatForm } from "./ChatSettings";
import { ComparePanel, useCompare } from "./ComparePanel";
import { Composer } from "./Composer";
import { ConversationList, useConversations } from "./ConversationList";
import { plainText, titleOf, toJson, toMarkdown } from "./conversations";
import { checkTools } from "./tools";
import { markChatOpen } from "./chatTiming";
import { Thread } from "./Thread";
import { pathOf, requestMessages, siblingsOf, type Turn } from "./tree";
import { TurnView, type TurnActions } from "./TurnView";
import { useChat } from "./useChat";
import { useConversationRoute } from "./useConversationRoute";
import { useNavigate } from "../../../lib/nav";
import "./chat.css";

const FORM_KEY = "specdesk.chat.form";

/** A conversation older than the list shows, by its id: there when the library has its messages. */
async function findConversation(id: number): Promise<Conversation | null> {
  const messages = await call("conversation_messages", { conversationId: id });
  const first = messages[0];
  return first ? { id, profileId: "", title: "", createdAt: first.createdAt, updatedAt: messages.at(-1)?.createdAt ?? first.createdAt } : null;
}

/** `conversation`: the one the route names (lib/nav.ts), else a new chat. */
export function ChatStudio({ conversation: wanted }: { conversation?: number }) {
  const [form, setForm] = useState<ChatForm>(() => ({ ...DEFAULT_FORM, ...(loadJson(FORM_KEY, isChatForm) ?? {}) }));
  const tools = checkTools(form.toolsText);
  const settings = { model: form.model, system: form.system, temperature: form.temperature, maxTokens: form.maxTokens, tools: tools.tools };
  const toast = useErrorToast();
  const chat = useChat(settings);
  const compare = useCompare(chat, toast);
  const conversations = useConversations();
  const credits = useCredits();
  const notice = useNotice();
  // Each turn the user sends brings the thread to the bottom (Thread's followKey).
  const [sent, setSent] = useState(0);
  // Conversations belong to a connection: switching connection starts a new chat.
  const connection = useConnectionId();
  const [shownFor, setShownFor] = useState(connection);
  const navigate = useNavigate();
  if (shownFor !== connection) {
    setShownFor(connection);
    chat.newChat();
  }
  // The address follows: the other connection's conversation is not named there any more.
  const firstConnection = useRef(connection);
  useEffect(() => {
    if (connection !== firstConnection.current) navigate({ area: "gateway" }, { replace: true });
    firstConnection.current = connection;
  }, [connection, navigate]);

  const change = useCallback((patch: Partial<ChatForm>) => {
    setForm((f) => {
      const next = { ...f, ...patch };
      saveJson(FORM_KEY, next);
      return next;
    });
  }, []);

  const conversation = conversations.data?.find((c) => c.id === chat.conversationId) ?? null;
  const title = conversation ? titleOf(conversation) : chat.path.length ? "New conversation" : "New chat";
  const busy = chat.busy || compare.busy;
  const models = compareModels(form);
  const comparingNow = form.compare && models.length >= 2;

  const send = (blocks: ContentBlock[], text: string) => {
    setSent((n) => n + 1);
    if (comparingNow) {
      const { tree, id } = chat.addUserTurn(blocks);
      compare.start(id, text, models, requestMessages(pathOf(tree)), settings);
    } else {
      chat.send(blocks);
    }
  };

  const answered = (toolUseId: string) =>
    chat.path.some((t) => t.content.some((b) => b.type === "tool_result" && b.tool_use_id === toolUseId));

  const save = async (ext: "md" | "json") => {
    try {
      const contents = ext === "md" ? toMarkdown(title, chat.path) : toJson(conversation, title, chat.path);
      const path = await call("save_document", { fileName: `${slugify(title, "conversation")}.${ext}`, contents, choose: true });
      if (path) notice(`Saved to ${path}`);
    } catch (e) {
      toast(e);
    }
  };

  // Opening another conversation never stops a reply: it runs on in Rust (only Stop cancels).
  const open = (c: Conversation) => {
    markChatOpen(c.id);
    void chat.open(c);
  };
  // (Read once the list is current: a conversation just made may not be in an older copy.)
  const listed = conversations.isFetching ? undefined : conversations.data;
  useConversationRoute(wanted, chat, listed, open, () => notice("That conversation is no longer on this computer."), findConversation);

  // Stable for the memoized parts around the thread: a streamed delta renders this studio again,
  // and the conversation list, the composer, the compare lanes and the settings need not follow.
  // Opening and starting anew go through the address (Back returns to the conversation before).
  const onOpen = useStableCallback((c: Conversation) => navigate({ area: "gateway", studio: "chat", conversation: c.id }));
  const onNew = useStableCallback(() => {
    chat.newChat();
    navigate({ area: "gateway" });
  });
  const onDeleted = useStableCallback((id: number) => {
    if (id !== chat.conversationId) return;
    chat.newChat();
    navigate({ area: "gateway" }, { replace: true });
  });
  const onSend = useStableCallback(send);
  const onStop = useStableCallback(() => {
    chat.stop();
    compare.stop();
  });
  const onPick = useStableCallback(compare.pickWinner);
  const onRetryLane = useStableCallback(compare.retryLane);

  const actionsOf = (id: string, turn: Turn): TurnActions => ({
    busy,
    answered,
    onSwitch: (d) => chat.switchBranch(id, d),
    onRegenerate: () => chat.regenerate(id),
    onRetry: () => chat.retry(id),
    onContinue: () => chat.continueReply(id),
    onEdit: (text) => {
      setSent((n) => n + 1);
      chat.edit(id, text);
    },
    onCopy: () =>
      copyText(plainText(turn))
        .then(() => notice("Copied."))
        .catch(toast),
    onAnswer: (toolUseId, result, isError) => {
      setSent((n) => n + 1);
      chat.send([{ type: "tool_result", tool_use_id: toolUseId, content: result, ...(isError ? { is_error: true } : {}) }]);
    },
  });

  const disabledWhy = tools.problems.length
    ? "Fix the tool definitions before sending."
    : !form.model
      ? "Choose a model first."
      : form.compare && models.length < 2
        ? "Choose a second model to compare with."
        : undefined;

  return (
    <div className="chat-studio">
      <ConversationList activeId={chat.conversationId} onOpen={onOpen} onNew={onNew} onDeleted={onDeleted} />

      <section className="chat-main" aria-labelledby="chat-title">
        <div className="section-head chat-head">
          <h2 id="chat-title">{title}</h2>
          <div className="row">
            {credits.data && <span className="muted chat-balance">Balance: {formatCreditsWord(credits.data.creditsRemaining)}</span>}
            <button className="btn btn-small" type="button" disabled={!chat.path.length || busy} onClick={() => void save("md")}>
              Export Markdown
            </button>
            <button className="btn btn-small" type="button" disabled={!chat.path.length || busy} onClick={() => void save("json")}>
              Export JSON
            </button>
          </div>
        </div>

        {chat.loadError && <ErrorPanel error={chat.loadError} onRetry={conversation ? () => open(conversation) : undefined} />}

        {chat.path.length === 0 ? (
          <div className="empty chat-empty">
            <p>Ask anything. Pick a model on the right; attach images, define tools, or compare two or three models side by side.</p>
          </div>
        ) : (
          <Thread
            keys={chat.path.map((t) => t.id)}
            conversationId={chat.conversationId}
            followKey={String(sent)}
            renderTurn={(index, row) => {
              const turn = chat.path[index];
              return turn ? <TurnView key={turn.id} turn={turn} row={row} branch={siblingsOf(chat.tree, turn.id)} actions={actionsOf(turn.id, turn)} /> : null;
            }}
          />
        )}

        <ComparePanel state={compare.state} busy={compare.busy} onPick={onPick} onRetry={onRetryLane} />

        <Composer
          busy={busy}
          onSend={onSend}
          onStop={onStop}
          sendLabel={comparingNow ? `Compare ${models.length} models` : "Send"}
          disabled={disabledWhy}
        />
        <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="chat-announcer">
          {chat.announcement}
        </div>
      </section>

      <ChatSettings form={form} onChange={change} />
    </div>
  );
}
