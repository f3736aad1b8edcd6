//! Chat replies that run on in Rust whatever the screen does: leaving Chat, opening another
//! conversation or switching connection no longer stops a reply; only an explicit Stop (the
//! stream's cancel) does. Each reply streaming now is kept here with what it has said so far
//! (its text and HTML), so a screen that comes back to its conversation is given the reply so
//! far and then every event after it, in order, on its own channel ([`LiveReplies::attach`]).
//! The snapshot and the joining happen under the reply's one lock, the same lock each event is
//! sent under: nothing is missed or told twice.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;

use crate::chat_render::ReplyHtml;
use crate::events::ChatEvent;
use crate::ipc_error::IpcError;

/// Where a reply's events go: the channel of the screen that started it, then those of screens
/// that came back to it.
pub type Subscriber = Box<dyn Fn(ChatEvent) + Send + Sync>;

/// A reply streaming now, as a screen that comes back to it is given it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct LiveReplyView {
    /// The stream's id (its Stop is `cancel_stream` with it).
    pub stream_id: String,
    /// The UI's turn the reply streams into, when the UI named one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub turn_id: Option<String>,
    pub conversation_id: i64,
    /// The reply's text so far (every text delta, in order).
    pub text: String,
    /// That text as safe HTML (`core::chat_render`): the next text event's `htmlFrom` counts in it.
    pub html: String,
    /// The words the reply continues (a cut or stopped reply continued), before `text`; empty
    /// for a new reply.
    pub base: String,
    /// When the reply started (RFC 3339).
    pub started_at: String,
}

struct ReplyState {
    conversation_id: Option<i64>,
    /// Its `done` or `error` was sent: a screen coming back reads it from the library instead.
    ended: bool,
    html: ReplyHtml,
    subscribers: Vec<Subscriber>,
}

/// One reply streaming now.
pub struct LiveReply {
    stream_id: String,
    turn_id: Option<String>,
    base: String,
    started_at: String,
    state: Mutex<ReplyState>,
}

impl LiveReply {
    fn lock(&self) -> MutexGuard<'_, ReplyState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends `event` to every screen following the reply: a text delta with the change to the
    /// reply's HTML (`ChatEvent::Text`'s `html`, `htmlFrom`); a `start` names its conversation.
    pub fn send(&self, event: ChatEvent) {
        let mut state = self.lock();
        let event = match event {
            ChatEvent::Start { conversation_id } => {
                state.conversation_id = Some(conversation_id);
                ChatEvent::Start { conversation_id }
            }
            text @ ChatEvent::Text { .. } => state.html.attach(text),
            other => {
                state.ended |= matches!(other, ChatEvent::Done { .. } | ChatEvent::Error { .. });
                other
            }
        };
        for subscriber in &state.subscribers {
            subscriber(event.clone());
        }
    }

    /// Tells the screens that came back to the reply that it failed or was stopped (the screen
    /// that started it is told by the stream's own ending).
    pub fn fail(&self, error: &IpcError) {
        let mut state = self.lock();
        state.ended = true;
        for subscriber in state.subscribers.iter().skip(1) {
            subscriber(ChatEvent::Error {
                error: error.clone(),
            });
        }
    }

    /// The conversation the reply is kept in, once its stream said.
    pub fn conversation_id(&self) -> Option<i64> {
        self.lock().conversation_id
    }

    pub fn stream_id(&self) -> &str {
        &self.stream_id
    }
}

/// The replies streaming now, by stream id.
#[derive(Default)]
pub struct LiveReplies {
    by_stream: Mutex<HashMap<String, Arc<LiveReply>>>,
}

/// Takes its reply off the list when the stream ends, however it ends.
pub struct LiveGuard<'a> {
    replies: &'a LiveReplies,
    reply: Arc<LiveReply>,
}

impl LiveGuard<'_> {
    pub fn reply(&self) -> &Arc<LiveReply> {
        &self.reply
    }
}

impl Drop for LiveGuard<'_> {
    fn drop(&mut self) {
        let mut by_stream = self.replies.lock();
        if by_stream
            .get(&self.reply.stream_id)
            .is_some_and(|r| Arc::ptr_eq(r, &self.reply))
        {
            by_stream.remove(&self.reply.stream_id);
        }
    }
}

impl LiveReplies {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<LiveReply>>> {
        self.by_stream.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Lists reply `stream_id` (into the UI's turn `turn_id`, in conversation `conversation_id`
    /// when it continues one, after the words `base` when it continues a reply), its events going
    /// to `first`, until the guard is dropped.
    pub fn begin(
        &self,
        stream_id: &str,
        turn_id: Option<String>,
        conversation_id: Option<i64>,
        base: String,
        first: Subscriber,
    ) -> LiveGuard<'_> {
        let reply = Arc::new(LiveReply {
            stream_id: stream_id.to_owned(),
            turn_id,
            base,
            started_at: time::OffsetDateTime::now_utc()
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default(),
            state: Mutex::new(ReplyState {
                conversation_id,
                ended: false,
                html: ReplyHtml::new(),
                subscribers: vec![first],
            }),
        });
        self.lock().insert(stream_id.to_owned(), reply.clone());
        LiveGuard {
            replies: self,
            reply,
        }
    }

    /// A screen back at conversation `conversation_id`: the reply streaming in it now (its text
    /// so far), with every later event going to `subscriber` too; `None` when none streams (one
    /// whose end was sent counts as none: it is in the library).
    pub fn attach(&self, conversation_id: i64, subscriber: Subscriber) -> Option<LiveReplyView> {
        let reply = self
            .lock()
            .values()
            .find(|r| r.conversation_id() == Some(conversation_id))
            .cloned()?;
        let mut state = reply.lock();
        if state.ended {
            return None;
        }
        let view = LiveReplyView {
            stream_id: reply.stream_id.clone(),
            turn_id: reply.turn_id.clone(),
            conversation_id,
            text: state.html.text().to_owned(),
            html: state.html.html().to_owned(),
            base: reply.base.clone(),
            started_at: reply.started_at.clone(),
        };
        state.subscribers.push(subscriber);
        Some(view)
    }

    /// The replies streaming now (for the list of running work).
    pub fn running(&self) -> Vec<Arc<LiveReply>> {
        self.lock().values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;

    fn collector() -> (Arc<Mutex<Vec<ChatEvent>>>, Subscriber) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        (seen, Box::new(move |e| sink.lock().unwrap().push(e)))
    }

    fn text(t: &str) -> ChatEvent {
        ChatEvent::Text {
            index: 0,
            text: t.to_owned(),
            html: None,
            html_from: None,
        }
    }

    fn texts(events: &[ChatEvent]) -> Vec<String> {
        events
            .iter()
            .map(|e| match e {
                ChatEvent::Text { text, .. } => format!("text {text}"),
                ChatEvent::Start { conversation_id } => format!("start {conversation_id}"),
                ChatEvent::Error { error } => format!("error {}", error.message),
                ChatEvent::Done { .. } => "done".to_owned(),
            })
            .collect()
    }

    #[test]
    fn a_screen_coming_back_gets_the_reply_so_far_then_every_later_event_once() {
        let replies = LiveReplies::default();
        let (first, to_first) = collector();
        let guard = replies.begin("s1", Some("turn-9".into()), None, String::new(), to_first);
        let reply = guard.reply().clone();
        // Not findable before its conversation is known.
        assert!(replies.attach(7, Box::new(|_| ())).is_none());
        reply.send(ChatEvent::Start { conversation_id: 7 });
        reply.send(text("Hello **wor"));
        let (second, to_second) = collector();
        let view = replies
            .attach(7, to_second)
            .expect("streaming in conversation 7");
        assert_eq!(view.stream_id, "s1");
        assert_eq!(view.turn_id.as_deref(), Some("turn-9"));
        assert_eq!(view.conversation_id, 7);
        assert_eq!(view.text, "Hello **wor");
        assert_eq!(view.html, "<p>Hello **wor</p>\n");
        reply.send(text("ld**"));
        // The later delta's HTML continues the snapshot's.
        let after = second.lock().unwrap().clone();
        assert_eq!(texts(&after), ["text ld**"]);
        let ChatEvent::Text {
            html, html_from, ..
        } = &after[0]
        else {
            panic!("a text event")
        };
        let joined = format!(
            "{}{}",
            view.html
                .encode_utf16()
                .take(html_from.unwrap_or(0) as usize)
                .map(|u| char::from_u32(u32::from(u)).unwrap())
                .collect::<String>(),
            html.as_deref().unwrap()
        );
        assert_eq!(joined, "<p>Hello <strong>world</strong></p>\n");
        assert_eq!(
            texts(&first.lock().unwrap()),
            ["start 7", "text Hello **wor", "text ld**"]
        );
        // A failure reaches the screens that came back (the first is told by the stream).
        reply.fail(&IpcError::new(IpcErrorKind::Cancelled, "Stopped."));
        assert_eq!(
            texts(&second.lock().unwrap()),
            ["text ld**", "error Stopped."]
        );
        assert_eq!(first.lock().unwrap().len(), 3);
        assert_eq!(replies.running().len(), 1);
        drop(guard);
        assert!(replies.running().is_empty());
        assert!(replies.attach(7, Box::new(|_| ())).is_none());
    }

    #[test]
    fn a_reply_continuing_a_conversation_is_found_from_its_start() {
        let replies = LiveReplies::default();
        let guard = replies.begin("s2", None, Some(3), "Once upon".into(), Box::new(|_| ()));
        let view = replies.attach(3, Box::new(|_| ())).expect("found");
        assert_eq!(
            (view.text.as_str(), view.turn_id, view.base.as_str()),
            ("", None, "Once upon")
        );
        assert!(replies.attach(4, Box::new(|_| ())).is_none());
        // Once its end is sent, a screen coming back reads the reply from the library.
        guard
            .reply()
            .fail(&IpcError::new(IpcErrorKind::Network, "Lost."));
        assert!(replies.attach(3, Box::new(|_| ())).is_none());
    }
}
