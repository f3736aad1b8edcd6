//! A chat stream's events on their way to the web view, at most a frame apart: a reply streams as
//! thousands of small text deltas, and each would otherwise be an IPC message of its own. The
//! deltas of one content block that arrive within a frame (~16 ms, `agents::frames::FRAME`) go as
//! one `Text` event; every other event keeps its place in the order.

use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Instant;

use crate::events::ChatEvent;

/// Forwards `events` to `send` until the sending side is gone: the first event at once, each next
/// batch at least `frame` after the previous one, with the text deltas that arrived meanwhile
/// merged per content block.
pub async fn forward_in_frames(
    mut events: UnboundedReceiver<ChatEvent>,
    frame: Duration,
    mut send: impl FnMut(ChatEvent),
) {
    let mut last_sent: Option<Instant> = None;
    while let Some(first) = events.recv().await {
        if let Some(at) = last_sent
            && Instant::now() < at + frame
        {
            tokio::time::sleep_until(at + frame).await;
        }
        let mut batch = vec![first];
        while let Ok(event) = events.try_recv() {
            batch.push(event);
        }
        for event in merge_text(batch) {
            send(event);
        }
        last_sent = Some(Instant::now());
    }
}

/// Joins neighbouring text deltas of the same content block.
fn merge_text(batch: Vec<ChatEvent>) -> Vec<ChatEvent> {
    let mut out: Vec<ChatEvent> = Vec::with_capacity(batch.len());
    for event in batch {
        if let (
            Some(ChatEvent::Text { index, text, .. }),
            ChatEvent::Text {
                index: next,
                text: more,
                ..
            },
        ) = (out.last_mut(), &event)
            && *index == *next
        {
            text.push_str(more);
            continue;
        }
        out.push(event);
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use tokio::sync::mpsc::unbounded_channel;

    use super::*;
    use crate::agents::frames::FRAME;

    fn text(index: u32, text: &str) -> ChatEvent {
        ChatEvent::Text {
            index,
            text: text.into(),
            html: None,
            html_from: None,
        }
    }

    fn label(e: &ChatEvent) -> String {
        match e {
            ChatEvent::Start { conversation_id } => format!("start {conversation_id}"),
            ChatEvent::Text { index, text, .. } => format!("text {index} {text}"),
            ChatEvent::Done { .. } => "done".into(),
            ChatEvent::Error { error } => format!("error {}", error.message),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn deltas_within_a_frame_go_as_one_message_in_order() {
        let (tx, rx) = unbounded_channel();
        let sent = Arc::new(Mutex::new(Vec::<String>::new()));
        let out = Arc::clone(&sent);
        let forwarder = tokio::spawn(forward_in_frames(rx, FRAME, move |e| {
            out.lock().unwrap().push(label(&e));
        }));
        tx.send(ChatEvent::Start { conversation_id: 7 }).unwrap();
        tokio::task::yield_now().await;
        // A thousand deltas inside one frame, over two content blocks.
        for i in 0..1000 {
            tx.send(text(0, &format!("{}", i % 10))).unwrap();
        }
        tx.send(text(1, "tool")).unwrap();
        tx.send(text(1, " input")).unwrap();
        tokio::time::advance(FRAME).await;
        tokio::task::yield_now().await;
        tx.send(text(1, "!")).unwrap();
        drop(tx);
        forwarder.await.unwrap();
        let sent = sent.lock().unwrap().clone();
        let digits: String = (0..1000)
            .map(|i| char::from(b'0' + (i % 10) as u8))
            .collect();
        assert_eq!(
            sent,
            vec![
                "start 7".to_string(),
                format!("text 0 {digits}"),
                "text 1 tool input".into(),
                "text 1 !".into(),
            ]
        );
    }

    #[test]
    fn only_neighbouring_deltas_of_one_block_are_joined() {
        let merged = merge_text(vec![text(0, "a"), text(0, "b"), text(1, "c"), text(0, "d")]);
        let labels: Vec<String> = merged.iter().map(label).collect();
        assert_eq!(labels, ["text 0 ab", "text 1 c", "text 0 d"]);
    }
}
