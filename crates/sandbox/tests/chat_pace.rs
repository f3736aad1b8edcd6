//! Paced chat streams (`/_sandbox/gateway/pace`, for benchmarks): off by default and checked; a
//! pace makes each text delta of a `/v1/messages` stream wait, and logs every one with the
//! reply's characters sent so far; a reset turns it off. Nothing here measures time.

mod common;
use common::*;
use serde_json::{Value, json};

const PACE: &str = "/_sandbox/gateway/pace";

#[tokio::test]
async fn a_paced_chat_stream_logs_each_text_delta_with_the_characters_sent() {
    let env = Env::new().await;
    assert_eq!(
        env.get_json(PACE, None, 200).await,
        json!({"deltaIntervalMs": null, "replyChars": null, "sent": []})
    );
    for bad in [
        json!({"deltaIntervalMs": -1}),
        json!({"deltaIntervalMs": 10_001}),
        json!({"interval": 5}),
    ] {
        env.post_json(PACE, None, bad, 400).await;
    }
    assert_eq!(
        env.control(PACE, json!({"deltaIntervalMs": 5})).await,
        json!({"deltaIntervalMs": 5, "replyChars": null, "sent": []})
    );
    let body = json!({"model": "anthropic/claude-sonnet-4.5", "max_tokens": 400, "stream": true,
        "messages": [{"role": "user", "content": "one two three four five six seven"}]});
    let text = env
        .post("/v1/messages", Some(PRO), body)
        .await
        .text()
        .await
        .unwrap();
    // The deltas as streamed, and the reply they make.
    let deltas: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| v["delta"]["text"].as_str().map(str::to_owned))
        .collect();
    let reply: String = deltas.concat();
    assert_eq!(
        reply,
        "Sandbox reply from anthropic/claude-sonnet-4.5. You wrote 7 words: \"one two three four five six seven\""
    );
    let log = env.get_json(PACE, None, 200).await;
    let sent = log["sent"].as_array().unwrap();
    let chars: Vec<u64> = sent.iter().map(|s| s["chars"].as_u64().unwrap()).collect();
    let mut so_far = 0;
    let expected: Vec<u64> = deltas
        .iter()
        .map(|d| {
            so_far += d.chars().count() as u64;
            so_far
        })
        .collect();
    assert_eq!(chars, expected);
    let at: Vec<f64> = sent.iter().map(|s| s["at"].as_f64().unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] <= w[1]), "{at:?}");
    assert!(at[0] > 1.7e12, "wall-clock milliseconds: {}", at[0]);

    env.control("/_sandbox/reset", json!({})).await;
    assert_eq!(
        env.get_json(PACE, None, 200).await,
        json!({"deltaIntervalMs": null, "replyChars": null, "sent": []})
    );
}

#[tokio::test]
async fn a_pace_with_reply_chars_lengthens_replies_with_sentences_until_the_pace_is_off() {
    let env = Env::new().await;
    for bad in [
        json!({"deltaIntervalMs": 1, "replyChars": 0}),
        json!({"deltaIntervalMs": 1, "replyChars": 1_000_001}),
    ] {
        env.post_json(PACE, None, bad, 400).await;
    }
    assert_eq!(
        env.control(PACE, json!({"deltaIntervalMs": 1, "replyChars": 600}))
            .await,
        json!({"deltaIntervalMs": 1, "replyChars": 600, "sent": []})
    );
    let body = json!({"model": "anthropic/claude-sonnet-4.5", "max_tokens": 4000, "stream": true,
        "messages": [{"role": "user", "content": "one two"}]});
    let text = env
        .post("/v1/messages", Some(PRO), body.clone())
        .await
        .text()
        .await
        .unwrap();
    let reply: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|v| v["delta"]["text"].as_str().map(str::to_owned))
        .collect();
    let start = "Sandbox reply from anthropic/claude-sonnet-4.5. You wrote 2 words: \"one two\"";
    let sentences: String = (1..=8)
        .map(|n| {
            format!(" Sentence {n} of this long reply goes on with a few plain words to read.")
        })
        .collect();
    // Sentences are added until the reply holds 600 characters: 76 + 8 × 70.
    assert_eq!(reply, format!("{start}{sentences}"));
    assert_eq!(reply.chars().count(), 76 + 8 * 70);

    // Off with the pace.
    env.control(PACE, json!({"deltaIntervalMs": null})).await;
    assert_eq!(
        env.get_json(PACE, None, 200).await["replyChars"],
        Value::Null
    );
}
