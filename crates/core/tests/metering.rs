//! Nothing charged goes unrecorded: a streamed chat is in the credit ledger from the moment it
//! opens; a whole reply settles with its usage; a reply cut short (the service still charges what
//! the model generated) is settled from the next balance reading, marked as estimated.

use std::time::Duration;

use specdesk_client::{Client, ClientConfig};
use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig, keys};
use specdesk_types::MessagesRequest;

fn pasta_question() -> MessagesRequest {
    serde_json::from_value(serde_json::json!({
        "model": "anthropic/claude-haiku-4.5",
        "max_tokens": 200,
        "messages": [{"role": "user", "content": "Name three pasta shapes"}]
    }))
    .unwrap()
}

fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

#[tokio::test]
async fn a_cut_stream_is_recorded_at_once_and_settled_from_the_next_balance() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let client = Client::new(
        ClientConfig::new(sb.base_url())
            .unwrap()
            .with_api_key(keys::PRO),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let library = Library::in_memory().unwrap();
    let studio = Studio {
        client: &client,
        library: &library,
        profile_id: "pro",
        media_dir: dir.path(),
        estimate: 0.0,
    };
    let balance = async || {
        client
            .account()
            .credits_balance()
            .await
            .unwrap()
            .credits_remaining
    };
    let start = balance().await;
    library.record_balance("pro", start).unwrap();

    // A whole reply: settled with what its usage says.
    let reply = studio
        .chat_stream(None, &pasta_question(), |_| {})
        .await
        .unwrap();
    let full = round(reply.message.usage.cost.unwrap() * 10.0);
    let line = library.credit_ledger(1).unwrap().remove(0);
    assert_eq!(
        (
            line.endpoint.as_str(),
            line.credits_charged,
            line.pending,
            line.estimated
        ),
        ("v1/messages", Some(full), false, false)
    );
    assert!(line.request_id.is_some());

    // A reply broken off after four events: in the ledger at once, its charge pending.
    let resp = reqwest::Client::new()
        .post(format!("{}/_sandbox/faults", sb.base_url()))
        .json(&serde_json::json!({
            "match": {"method": "POST", "path": "/v1/messages"},
            "dropStreamAfterEvents": 4
        }))
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success());
    let broken = studio.chat_stream(None, &pasta_question(), |_| {}).await;
    assert!(broken.is_err());
    let cut = library.credit_ledger(1).unwrap().remove(0);
    assert_eq!(
        (cut.endpoint.as_str(), cut.credits_charged, cut.pending),
        ("v1/messages", None, true)
    );
    assert!(cut.request_id.is_some());

    // The service charged the part generated; the next balance reading settles the line.
    let mut now = balance().await;
    for _ in 0..100 {
        if round(start - now) > full {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        now = balance().await;
    }
    library.record_balance("pro", now).unwrap();
    let ledger = library.credit_ledger(10).unwrap();
    let settled = ledger
        .iter()
        .find(|e| e.request_id == cut.request_id)
        .unwrap();
    let part = round(start - now - full);
    assert!(part > 0.0, "the cut reply cost something");
    assert_eq!(
        (settled.credits_charged, settled.pending, settled.estimated),
        (Some(part), false, true)
    );
}
