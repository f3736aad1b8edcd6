//! A streamed reply's text as safe HTML, rendered in Rust as each frame of deltas leaves for the
//! web view: the chat shows a delta in the same update that brings it, instead of asking for its
//! markdown to be rendered in a second round trip (bench/chat-delta-webkit.mjs). The HTML covers
//! every text delta of the stream so far, in order, as the UI joins them; each frame carries only
//! what differs from the frame before (the HTML after their common start): text added at the end
//! travels alone, while a change earlier in the HTML (a paragraph that becomes a list item, a
//! code fence that opens) sends everything after it again.

use crate::events::ChatEvent;
use crate::markdown;

/// The reply's text so far, and the HTML the web view was last given for it.
#[derive(Debug, Default)]
pub struct ReplyHtml {
    text: String,
    html: String,
}

impl ReplyHtml {
    pub fn new() -> Self {
        Self::default()
    }

    /// The reply's text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The HTML of the reply so far, as the web view was last given it.
    pub fn html(&self) -> &str {
        &self.html
    }

    /// `event`, a text delta, given the change to the HTML of the reply up to and with it (the
    /// previous HTML kept up to `html_from`, then `html`); others unchanged.
    pub fn attach(&mut self, event: ChatEvent) -> ChatEvent {
        match event {
            ChatEvent::Text { index, text, .. } => {
                self.text.push_str(&text);
                let html = markdown::render(&self.text).html;
                let same = common_start(&self.html, &html);
                let from = html[..same].encode_utf16().count();
                let tail = html[same..].to_owned();
                self.html = html;
                ChatEvent::Text {
                    index,
                    text,
                    html: Some(tail),
                    html_from: (from > 0).then(|| u32::try_from(from).unwrap_or(u32::MAX)),
                }
            }
            other => other,
        }
    }
}

/// The length in bytes of the longest start `a` and `b` share, at a character boundary of both.
fn common_start(a: &str, b: &str) -> usize {
    let mut n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !b.is_char_boundary(n) {
        n -= 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> ChatEvent {
        ChatEvent::Text {
            index: 0,
            text: t.into(),
            html: None,
            html_from: None,
        }
    }

    /// What the web view does with a text event: the HTML it had up to `htmlFrom` (counted in
    /// UTF-16 units), then the event's `html`.
    fn apply(shown: &str, e: &ChatEvent) -> String {
        let ChatEvent::Text {
            html: Some(tail),
            html_from,
            ..
        } = e
        else {
            panic!("a text event with its HTML: {e:?}")
        };
        let units: Vec<u16> = shown.encode_utf16().collect();
        let kept = &units[..html_from.unwrap_or(0) as usize];
        String::from_utf16(kept).unwrap() + tail
    }

    #[test]
    fn each_delta_carries_the_change_to_the_safe_html_of_the_reply_so_far() {
        let mut reply = ReplyHtml::new();
        let first = reply.attach(text("**Bold** start"));
        assert!(matches!(
            &first,
            ChatEvent::Text {
                html_from: None,
                ..
            }
        ));
        let shown = apply("", &first);
        assert_eq!(shown, "<p><strong>Bold</strong> start</p>\n");
        let second = reply.attach(text(" and <script>alert(1)</script>more"));
        let shown = apply(&shown, &second);
        assert!(
            shown.starts_with("<p><strong>Bold</strong> start and "),
            "{shown}"
        );
        assert!(!shown.contains("<script"), "sanitized like specs: {shown}");
        assert!(shown.contains("more"), "{shown}");
        // Only the change travelled: the second frame keeps the first's `<p><strong>Bold</strong> start`.
        assert!(matches!(
            &second,
            ChatEvent::Text {
                html_from: Some(30),
                ..
            }
        ));
        // The delta's own text is kept as it came.
        assert!(
            matches!(&second, ChatEvent::Text { text, .. } if text == " and <script>alert(1)</script>more")
        );
        let start = ChatEvent::Start { conversation_id: 4 };
        assert_eq!(reply.attach(start.clone()), start);
    }

    #[test]
    fn the_html_built_from_the_changes_is_the_whole_reply_rendered_however_it_was_cut() {
        // Deltas cut inside words, multi-byte characters' neighbours, a list and a code block
        // that change earlier HTML (a paragraph becomes a list item; a fence opens).
        let reply =
            "Café ☕ notes:\n\n- first 𝄞 item\n- second\n\n```rust\nlet x = \"é\";\n```\n\nEnd ✓.";
        let chars: Vec<char> = reply.chars().collect();
        for size in [1, 2, 3, 7] {
            let mut r = ReplyHtml::new();
            let mut shown = String::new();
            let mut big = 0;
            for part in chars.chunks(size) {
                let e = r.attach(text(&part.iter().collect::<String>()));
                shown = apply(&shown, &e);
                if let ChatEvent::Text {
                    html: Some(tail), ..
                } = &e
                {
                    big = big.max(tail.len());
                }
            }
            assert_eq!(
                shown,
                markdown::render(reply).html,
                "deltas of {size} characters"
            );
            assert!(big < shown.len(), "frames carry parts, not the whole reply");
        }
    }
}
