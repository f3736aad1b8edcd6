//! A streamed reply's text as safe HTML, rendered in Rust as each frame of deltas leaves for the
//! web view: the chat shows a delta in the same update that brings it, instead of asking for its
//! markdown to be rendered in a second round trip (bench/chat-delta-webkit.mjs). The HTML covers
//! every text delta of the stream so far, in order, as the UI joins them.

use crate::events::ChatEvent;
use crate::markdown;

/// The reply's text so far.
#[derive(Debug, Default)]
pub struct ReplyHtml {
    text: String,
}

impl ReplyHtml {
    pub fn new() -> Self {
        Self::default()
    }

    /// `event`, a text delta given the HTML of the reply up to and with it; others unchanged.
    pub fn attach(&mut self, event: ChatEvent) -> ChatEvent {
        match event {
            ChatEvent::Text { index, text, .. } => {
                self.text.push_str(&text);
                let html = markdown::render(&self.text).html;
                ChatEvent::Text {
                    index,
                    text,
                    html: Some(html),
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> ChatEvent {
        ChatEvent::Text {
            index: 0,
            text: t.into(),
            html: None,
        }
    }

    fn html_of(e: &ChatEvent) -> &str {
        match e {
            ChatEvent::Text { html: Some(h), .. } => h,
            other => panic!("a text event with its HTML: {other:?}"),
        }
    }

    #[test]
    fn each_delta_carries_the_safe_html_of_the_reply_so_far() {
        let mut reply = ReplyHtml::new();
        let first = reply.attach(text("**Bold** start"));
        assert_eq!(html_of(&first), "<p><strong>Bold</strong> start</p>\n");
        let second = reply.attach(text(" and <script>alert(1)</script>more"));
        let html = html_of(&second);
        assert!(
            html.starts_with("<p><strong>Bold</strong> start and "),
            "{html}"
        );
        assert!(!html.contains("<script"), "sanitized like specs: {html}");
        assert!(html.contains("more"), "{html}");
        // The delta's own text is kept as it came.
        assert!(
            matches!(&second, ChatEvent::Text { text, .. } if text == " and <script>alert(1)</script>more")
        );
        let start = ChatEvent::Start { conversation_id: 4 };
        assert_eq!(reply.attach(start.clone()), start);
    }
}
