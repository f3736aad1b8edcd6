//! The AI gateway's Messages endpoint over HTTP: JSON replies with system prompts, images and
//! tools; streams (events, a dropped stream's charge, tool use, incremental bodies); and a reply
//! continued from the assistant's own words (a prefill).

mod common;
use common::*;
use futures::StreamExt;
use serde_json::{Value, json};
use specdesk_types::MessagesStreamEvent;

#[tokio::test]
async fn messages_json_system_images_and_tools() {
    let env = Env::new().await;
    let body = json!({
        "model": "openai/gpt-5-mini",
        "max_tokens": 200,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "What is in this picture?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
        ]}]
    });
    let r = env.post("/v1/messages", Some(PRO), body.clone()).await;
    assert_eq!(r.status(), 200);
    let charged = num(&r, "x-svc-credits-charged");
    let v: Value = r.json().await.unwrap();
    let m: specdesk_types::MessagesResponse = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(m.object_type, "message");
    assert_eq!(v["stop_reason"], "end_turn");
    let text = v["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("system prompt") && text.contains("1 image"));
    assert!((charged - v["usage"]["cost"].as_f64().unwrap() * 10.0).abs() < 1e-9);
    let again = env.post_json("/v1/messages", Some(PRO), body, 200).await;
    assert_eq!(again["content"], v["content"]);

    let tools = json!([
        {"name": "get_weather", "input_schema": {"type": "object", "required": ["city", "days"], "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}},
        {"name": "get_time", "input_schema": {"type": "object", "properties": {}}}
    ]);
    let v = env
        .post_json(
            "/v1/messages",
            Some(PRO),
            json!({"model": "anthropic/claude-haiku-4.5", "max_tokens": 100, "tools": tools,
                   "messages": [{"role": "user", "content": "Use get_weather for \"Paris\", then get_time"}]}),
            200,
        )
        .await;
    assert_eq!(v["stop_reason"], "tool_use");
    assert_eq!(v["content"][0]["type"], "tool_use");
    assert_eq!(v["content"][0]["name"], "get_weather");
    assert_eq!(
        v["content"][0]["input"],
        json!({"city": "Paris", "days": 1})
    );
    let v = env
        .post_json(
            "/v1/messages",
            Some(PRO),
            json!({"model": "anthropic/claude-haiku-4.5", "max_tokens": 100, "tools": tools,
                   "messages": [{"role": "user", "content": "Hello there"}]}),
            200,
        )
        .await;
    assert_eq!(v["content"][0]["type"], "text");
    // max_tokens cuts the reply.
    let v = env
        .post_json("/v1/messages", Some(PRO), json!({"model": "openai/gpt-5", "max_tokens": 3, "messages": [{"role": "user", "content": "Tell me a long story about dragons"}]}), 200)
        .await;
    assert_eq!(v["stop_reason"], "max_tokens");
    assert!(v["usage"]["output_tokens"].as_u64().unwrap() <= 3);
    // Errors.
    let e = env.post_json("/v1/messages", Some(PRO), json!({"model": "x/y", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}), 404).await;
    assert_eq!(e["error"]["code"], "model_not_found");
    env.post_json(
        "/v1/messages",
        Some(PRO),
        json!({"model": "openai/gpt-5", "messages": [{"role": "user", "content": "hi"}]}),
        400,
    )
    .await;
}

async fn sse_events(r: reqwest::Response) -> Vec<(String, Value)> {
    let text = r.text().await.unwrap();
    text.split("\n\n")
        .filter(|f| !f.trim().is_empty())
        .map(|f| {
            let mut ev = String::new();
            let mut data = String::new();
            for l in f.lines() {
                if let Some(e) = l.strip_prefix("event: ") {
                    ev = e.to_owned();
                } else if let Some(d) = l.strip_prefix("data: ") {
                    data = d.to_owned();
                }
            }
            (ev, serde_json::from_str(&data).unwrap())
        })
        .collect()
}

#[tokio::test]
async fn messages_stream_events_and_dropped_stream_charge() {
    let env = Env::new().await;
    let body = json!({"model": "google/gemini-2.5-flash", "max_tokens": 500, "stream": true,
                      "messages": [{"role": "user", "content": "Write a few words about the sea and the sky and the sun"}]});
    let before = env.credits(PRO).await;
    let r = env.post("/v1/messages", Some(PRO), body.clone()).await;
    assert_eq!(r.status(), 200);
    assert!(header(&r, "content-type").starts_with("text/event-stream"));
    let full = num(&r, "x-svc-credits-charged");
    let events = sse_events(r).await;
    let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(names[0], "message_start");
    assert!(names.contains(&"ping"));
    assert_eq!(names[names.len() - 1], "message_stop");
    assert_eq!(names[names.len() - 2], "message_delta");
    assert_eq!(names[names.len() - 3], "content_block_stop");
    let mut text = String::new();
    for (name, data) in &events {
        assert_eq!(data["type"], name.as_str());
        let parsed: MessagesStreamEvent = serde_json::from_value(data.clone()).unwrap();
        assert!(!matches!(parsed, MessagesStreamEvent::Unknown));
        if let Some(t) = data["delta"]["text"].as_str() {
            text.push_str(t);
        }
    }
    let delta = &events[events.len() - 2].1;
    assert_eq!(delta["delta"]["stop_reason"], "end_turn");
    assert!(delta["usage"]["output_tokens"].as_u64().unwrap() > 0);
    // The streamed text equals the JSON reply.
    let mut plain = body.clone();
    plain["stream"] = json!(false);
    let j = env.post_json("/v1/messages", Some(PRO), plain, 200).await;
    assert_eq!(j["content"][0]["text"].as_str().unwrap(), text);
    let after = env.credits(PRO).await;
    let json_charge = j["usage"]["cost"].as_f64().unwrap() * 10.0;
    assert!((before - after - full - json_charge).abs() < 1e-6);

    // A stream dropped by a fault after 4 events is charged less than the full reply.
    env.control(
        "/_sandbox/faults",
        json!({"match": {"path": "/v1/messages"}, "dropStreamAfterEvents": 4}),
    )
    .await;
    let before = env.credits(PRO).await;
    let r = env.post("/v1/messages", Some(PRO), body).await;
    let events = sse_events(r).await;
    assert_eq!(events.len(), 4);
    assert!(events.iter().all(|(e, _)| e != "message_stop"));
    let charged = before - env.credits(PRO).await;
    assert!(charged > 0.0 && charged < full, "{charged} vs {full}");
}

#[tokio::test]
async fn messages_stream_tool_use() {
    let env = Env::new().await;
    let r = env
        .post(
            "/v1/messages",
            Some(PRO),
            json!({"model": "anthropic/claude-sonnet-4.5", "max_tokens": 100, "stream": true,
                   "tools": [{"name": "lookup", "input_schema": {"type": "object", "required": ["q"], "properties": {"q": {"type": "string"}}}}],
                   "messages": [{"role": "user", "content": "please lookup \"axum\""}]}),
        )
        .await;
    let events = sse_events(r).await;
    let start = events
        .iter()
        .find(|(e, _)| e == "content_block_start")
        .unwrap();
    assert_eq!(start.1["content_block"]["type"], "tool_use");
    let json_text: String = events
        .iter()
        .filter_map(|(_, d)| d["delta"]["partial_json"].as_str())
        .collect();
    assert_eq!(
        serde_json::from_str::<Value>(&json_text).unwrap(),
        json!({"q": "axum"})
    );
    let delta = events.iter().find(|(e, _)| e == "message_delta").unwrap();
    assert_eq!(delta.1["delta"]["stop_reason"], "tool_use");
}

#[tokio::test]
async fn stream_body_arrives_incrementally() {
    // The Messages stream is a real stream (frames can be read one by one).
    let env = Env::new().await;
    let r = env
        .post("/v1/messages", Some(PRO), json!({"model": "openai/gpt-5", "max_tokens": 50, "stream": true, "messages": [{"role": "user", "content": "hi"}]}))
        .await;
    let mut s = r.bytes_stream();
    let first = s.next().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).starts_with("event: message_start"));
}

#[tokio::test]
async fn a_reply_is_continued_from_the_assistants_own_words() {
    let env = Env::new().await;
    let model = "anthropic/claude-haiku-4.5";
    let ask = |prefill: Option<&str>| {
        let mut messages = vec![json!({"role": "user", "content": "Name three pasta shapes"})];
        if let Some(p) = prefill {
            messages.push(json!({"role": "assistant", "content": p}));
        }
        json!({"model": model, "max_tokens": 200, "messages": messages})
    };
    let whole = env
        .post_json("/v1/messages", Some(PRO), ask(None), 200)
        .await;
    assert_eq!(
        whole["content"][0]["text"],
        "Sandbox reply from anthropic/claude-haiku-4.5. You wrote 4 words: \"Name three pasta shapes\""
    );
    // The reply goes on from the words it was given.
    let rest = env
        .post_json(
            "/v1/messages",
            Some(PRO),
            ask(Some("Sandbox reply from")),
            200,
        )
        .await;
    assert_eq!(
        rest["content"][0]["text"],
        " anthropic/claude-haiku-4.5. You wrote 4 words: \"Name three pasta shapes\""
    );
    // The whole reply given: nothing is left to say.
    let done = env
        .post_json(
            "/v1/messages",
            Some(PRO),
            ask(whole["content"][0]["text"].as_str()),
            200,
        )
        .await;
    assert_eq!(done["content"][0]["text"], "");
    // Words that are not the reply's own beginning: the whole reply follows them.
    let other = env
        .post_json("/v1/messages", Some(PRO), ask(Some("Well,")), 200)
        .await;
    assert_eq!(other["content"][0]["text"], whole["content"][0]["text"]);
    // As the Messages shape does, a prefill ending in white space is refused.
    let e = env
        .post_json(
            "/v1/messages",
            Some(PRO),
            ask(Some("Sandbox reply from ")),
            400,
        )
        .await;
    assert_eq!(
        e["error"]["message"],
        "final assistant content cannot end with trailing whitespace"
    );
}
