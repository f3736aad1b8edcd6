//! Chat turns kept in the library as the conversation reads: a question sent again after a
//! broken reply is kept once, and a reply continued from its own words is one assistant turn.

use specdesk_client::{Client, ClientConfig, RetryPolicy};
use specdesk_core::studio::Studio;
use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle, keys};
use specdesk_types::{Message, MessageContent, MessageRole, MessagesRequest};

/// A sandbox, a client with the `pro` key and an empty library.
struct World {
    sb: SandboxHandle,
    client: Client,
    library: Library,
    dir: tempfile::TempDir,
}

impl World {
    async fn new() -> World {
        let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
        let config = ClientConfig::new(sb.base_url())
            .unwrap()
            .with_api_key(keys::PRO.to_owned())
            .with_retry(RetryPolicy::none());
        World {
            client: Client::new(config).unwrap(),
            sb,
            library: Library::in_memory().unwrap(),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn studio(&self) -> Studio<'_> {
        Studio {
            client: &self.client,
            library: &self.library,
            profile_id: "pro",
            media_dir: self.dir.path(),
            estimate: 0.0,
        }
    }

    /// The next reply's stream breaks off five events in (a sandbox fault), part of its text sent.
    async fn break_next_reply(&self) {
        let resp = reqwest::Client::new()
            .post(format!("{}/_sandbox/faults", self.sb.base_url()))
            .json(&serde_json::json!({
                "match": {"method": "POST", "path": "/v1/messages"},
                "dropStreamAfterEvents": 5
            }))
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_success());
    }

    fn roles(&self, conversation_id: i64) -> Vec<String> {
        self.library
            .messages(conversation_id)
            .unwrap()
            .into_iter()
            .map(|m| m.role)
            .collect()
    }
}

/// A one-message chat request: "Name three pasta shapes".
fn pasta_question(model: &str) -> MessagesRequest {
    serde_json::from_value(serde_json::json!({
        "model": model,
        "max_tokens": 200,
        "messages": [{"role": "user", "content": "Name three pasta shapes"}]
    }))
    .unwrap()
}

#[tokio::test]
async fn a_chat_turn_sent_again_after_a_broken_reply_keeps_the_question_once() {
    let w = World::new().await;
    let studio = w.studio();
    let request = pasta_question("anthropic/claude-haiku-4.5");
    // The first reply breaks off five events in, part of its text sent.
    w.break_next_reply().await;
    let mut events = Vec::new();
    let broken = studio.chat_stream(None, &request, |e| events.push(e)).await;
    assert!(broken.is_err(), "{broken:?}");
    let ChatEvent::Start { conversation_id } = events[0].clone() else {
        panic!("{:?}", events[0]);
    };
    let roles = |id| w.roles(id);
    // What the reply said before it broke is kept, marked as cut.
    let streamed: String = events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let kept = w.library.messages(conversation_id).unwrap();
    assert_eq!(roles(conversation_id), ["user", "assistant"]);
    assert!(kept[1].cut);
    assert_eq!(
        kept[1].content,
        serde_json::json!([{"type": "text", "text": streamed}])
    );

    studio
        .chat_stream(Some(conversation_id), &request, |_| {})
        .await
        .unwrap();
    // Sent again: the question once, the cut reply replaced by the whole one.
    assert_eq!(roles(conversation_id), ["user", "assistant"]);
    assert!(!w.library.messages(conversation_id).unwrap()[1].cut);

    // A new question in the same conversation is kept as a new turn.
    let mut next = request.clone();
    next.messages.push(Message {
        role: MessageRole::Assistant,
        content: MessageContent::Text("Penne, fusilli, farfalle".into()),
    });
    next.messages.push(Message {
        role: MessageRole::User,
        content: MessageContent::Text("Name three pasta shapes".into()),
    });
    studio
        .chat_stream(Some(conversation_id), &next, |_| {})
        .await
        .unwrap();
    assert_eq!(
        roles(conversation_id),
        ["user", "assistant", "user", "assistant"]
    );
}

#[tokio::test]
async fn a_reply_continued_from_its_own_words_is_kept_as_one_assistant_turn() {
    let w = World::new().await;
    let studio = w.studio();
    let request = pasta_question("anthropic/claude-haiku-4.5");
    let whole = "Sandbox reply from anthropic/claude-haiku-4.5. You wrote 4 words: \"Name three pasta shapes\"";
    // The reply breaks off five events in: its first words are kept, marked as cut.
    w.break_next_reply().await;
    let mut events = Vec::new();
    assert!(
        studio
            .chat_stream(None, &request, |e| events.push(e))
            .await
            .is_err()
    );
    let ChatEvent::Start { conversation_id } = events[0].clone() else {
        panic!("{:?}", events[0]);
    };
    let kept = w.library.messages(conversation_id).unwrap();
    assert!(kept[1].cut);
    let cut = kept[1].content[0]["text"].as_str().unwrap().to_owned();
    assert!(whole.starts_with(&cut) && cut.len() < whole.len(), "{cut}");

    // Continued from those words as the window sends them (a prefill, its trailing space and
    // all: it goes without it, which the Messages shape refuses).
    let mut more = request.clone();
    more.messages.push(Message {
        role: MessageRole::Assistant,
        content: MessageContent::Text(cut.clone()),
    });
    let continued = studio
        .chat_stream(Some(conversation_id), &more, |_| {})
        .await
        .unwrap();
    let tail = match &continued.message.content[0] {
        specdesk_types::ContentBlock::Text { text, .. } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(format!("{}{tail}", cut.trim_end()), whole);
    // One reply in the library, whole: the cut-off row gave way to it.
    assert_eq!(w.roles(conversation_id), ["user", "assistant"]);
    let kept = w.library.messages(conversation_id).unwrap();
    assert!(!kept[1].cut);
    assert_eq!(
        kept[1].content,
        serde_json::json!([{"type": "text", "text": whole}])
    );
}
