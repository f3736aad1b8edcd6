// The open conversation follows the route (`#/gateway/chat?conversation=<id>`, lib/nav.ts) and
// the route follows the conversation: opening one from the list, Back and Forward, a palette jump
// and a relaunch all come through the address; a conversation made by the first message of a new
// chat is written into it. A conversation the library no longer has is said, and the address
// goes back to a new chat.
import { useEffect, useRef } from "react";
import type { Conversation } from "../../../ipc/contract";
import { useNavigate } from "../../../lib/nav";

interface ChatLike {
  conversationId: number | undefined;
  newChat: () => void;
}

export function useConversationRoute(
  wanted: number | undefined,
  chat: ChatLike,
  list: Conversation[] | undefined,
  open: (c: Conversation) => void,
  onMissing: () => void,
  lookup: (id: number) => Promise<Conversation | null>,
): void {
  const navigate = useNavigate();
  // The conversation the address last named (undefined: a new chat).
  const named = useRef<number | undefined>(undefined);
  const shownId = chat.conversationId;

  // Address → screen.
  const lastWanted = useRef<number | undefined>(undefined);
  useEffect(() => {
    const moved = lastWanted.current !== wanted;
    lastWanted.current = wanted;
    if (wanted === undefined) {
      // Back to a new chat's entry: the conversation shown goes (not when the address simply
      // has not caught up with a conversation just made by a first message, nor when only the
      // list changed).
      if (moved && named.current !== undefined && shownId !== undefined) chat.newChat();
      if (moved) named.current = undefined;
      return;
    }
    if (wanted === shownId) {
      named.current = wanted;
      return;
    }
    if (!list || named.current === wanted) return;
    named.current = wanted;
    const found = list.find((c) => c.id === wanted);
    if (found) {
      open(found);
      return;
    }
    // Older than the list shows: looked for by its id in the library.
    const missing = () => {
      onMissing();
      navigate({ area: "gateway" }, { replace: true });
    };
    void lookup(wanted)
      .then((c) => (named.current !== wanted ? undefined : c ? open(c) : missing()))
      .catch(missing);
    // Only the address and the list decide; the conversation shown is read as it is now.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, list]);

  // Screen → address: a conversation just made (by a first message) is named in it.
  useEffect(() => {
    if (shownId === undefined || shownId === wanted) return;
    if (named.current !== undefined && named.current !== shownId) return; // an opening in flight
    named.current = shownId;
    navigate({ area: "gateway", studio: "chat", conversation: shownId }, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shownId]);
}
