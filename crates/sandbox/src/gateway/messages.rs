//! `POST /v1/messages`: Messages-shaped replies, JSON or SSE stream, with a deterministic tool
//! rule. Any text model of the catalog answers.

use super::{Gate, Meter, begin, credits_for, find_model, invalid};
use crate::control::DropStreamAfter;
use crate::errors::Resp;
use crate::state::App;
use crate::util;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Json, Router};
use serde_json::{Map, Value, json};
use specdesk_types::{
    ContentBlock, ImageSource, MessageContent, MessageRole, MessagesRequest, SystemPrompt,
};
use std::convert::Infallible;

pub fn routes() -> Router<App> {
    Router::new().route("/v1/messages", post(messages))
}

/// What the model answers.
enum Reply {
    Text(String),
    Tool { name: String, input: Value },
}

fn block_text(blocks: &[ContentBlock]) -> String {
    blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn content_text(c: &MessageContent) -> String {
    match c {
        MessageContent::Text(t) => t.clone(),
        MessageContent::Blocks(b) => block_text(b),
    }
}

fn images_in(c: &MessageContent) -> usize {
    match c {
        MessageContent::Text(_) => 0,
        MessageContent::Blocks(b) => b
            .iter()
            .filter(|x| matches!(x, ContentBlock::Image { source } if !matches!(source, ImageSource::Unknown)))
            .count(),
    }
}

fn tool_results_in(c: &MessageContent) -> usize {
    match c {
        MessageContent::Text(_) => 0,
        MessageContent::Blocks(b) => b
            .iter()
            .filter(|x| matches!(x, ContentBlock::ToolResult { .. }))
            .count(),
    }
}

/// A value of a JSON Schema's type.
fn sample(schema: &Value, quoted: Option<&str>) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    match schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string")
    {
        "number" => json!(1.0),
        "integer" => json!(1),
        "boolean" => json!(true),
        "array" => json!([]),
        "object" => {
            let mut m = Map::new();
            fill_required(schema, quoted, &mut m);
            Value::Object(m)
        }
        "null" => Value::Null,
        _ => json!(quoted.unwrap_or("example")),
    }
}

fn fill_required(schema: &Value, quoted: Option<&str>, into: &mut Map<String, Value>) {
    let props = schema.get("properties").and_then(Value::as_object);
    for r in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let s = props.and_then(|p| p.get(r)).cloned().unwrap_or(json!({}));
        into.insert(r.to_owned(), sample(&s, quoted));
    }
}

fn reply_for(req: &MessagesRequest) -> (Reply, u64) {
    let system = match &req.system {
        Some(SystemPrompt::Text(t)) => t.clone(),
        Some(SystemPrompt::Blocks(b)) => block_text(b),
        None => String::new(),
    };
    let mut input_text = system.clone();
    let mut images = 0;
    for m in &req.messages {
        input_text.push('\n');
        input_text.push_str(&content_text(&m.content));
        images += images_in(&m.content);
    }
    for t in req.tools.iter().flatten() {
        input_text.push_str(&t.name);
        input_text.push_str(&t.input_schema.to_string());
    }
    let input_tokens = util::tokens(&input_text) + 258 * images as u64;
    let last_user = req
        .messages
        .iter()
        .rev()
        .find(|m| m.role == MessageRole::User);
    let last_text = last_user
        .map(|m| content_text(&m.content))
        .unwrap_or_default();
    let tool_results = last_user.map(|m| tool_results_in(&m.content)).unwrap_or(0);
    if tool_results == 0
        && let Some(tool) = req
            .tools
            .iter()
            .flatten()
            .find(|t| last_text.contains(&t.name))
    {
        let quoted = regex::Regex::new(r#""([^"]+)""#)
            .ok()
            .and_then(|re| re.captures(&last_text).map(|c| c[1].to_owned()));
        let mut input = Map::new();
        fill_required(&tool.input_schema, quoted.as_deref(), &mut input);
        return (
            Reply::Tool {
                name: tool.name.clone(),
                input: Value::Object(input),
            },
            input_tokens,
        );
    }
    let mut text = format!("Sandbox reply from {}.", req.model);
    if !system.trim().is_empty() {
        text.push_str(" I am following your system prompt.");
    }
    if images > 0 {
        text.push_str(&format!(
            " I received {images} image{}.",
            if images == 1 { "" } else { "s" }
        ));
    }
    if tool_results > 0 {
        text.push_str(&format!(
            " I received {tool_results} tool result{}.",
            if tool_results == 1 { "" } else { "s" }
        ));
    }
    let echo: String = last_text.chars().take(200).collect();
    let words = last_text.split_whitespace().count();
    text.push_str(&format!(
        " You wrote {words} word{}: \"{}\"",
        if words == 1 { "" } else { "s" },
        echo.trim()
    ));
    // A request ending with the assistant's own words (a prefill) is continued from them: the
    // reply is what follows those words when they begin it (nothing when they are all of it),
    // else the whole reply.
    if let Some(before) = prefill_of(req).filter(|p| !p.is_empty())
        && let Some(rest) = text.strip_prefix(before.as_str())
    {
        text = rest.to_owned();
    }
    (Reply::Text(text), input_tokens)
}

/// The text of the last message when the assistant wrote it (a prefill to continue).
fn prefill_of(req: &MessagesRequest) -> Option<String> {
    req.messages
        .last()
        .filter(|m| m.role == MessageRole::Assistant)
        .map(|m| content_text(&m.content))
}

/// Keeps the first words of `text` that fit `max` tokens.
fn truncate(text: &str, max: u64) -> String {
    let mut out = String::new();
    for w in text.split_inclusive(' ') {
        if util::tokens(&format!("{out}{w}")) > max {
            break;
        }
        out.push_str(w);
    }
    out
}

struct Answer {
    id: String,
    model: String,
    block: Value,
    text: Option<String>,
    stop: &'static str,
    input_tokens: u64,
    output_tokens: u64,
    price_in: f64,
    price_out: f64,
}

impl Answer {
    fn cost(&self, output_tokens: u64) -> f64 {
        util::round6(
            (self.input_tokens as f64 * self.price_in + output_tokens as f64 * self.price_out)
                / 1e6,
        )
    }
}

/// The answer to `req`; a text reply lengthened to `long` characters when a benchmark asked.
fn answer(req: &MessagesRequest, price_in: f64, price_out: f64, long: Option<usize>) -> Answer {
    let (reply, input_tokens) = reply_for(req);
    let reply = match (reply, long) {
        (Reply::Text(t), Some(n)) => Reply::Text(super::pace::lengthened(t, n)),
        (other, _) => other,
    };
    let id = format!("msg_{}", util::random_hex(24));
    let max = req.max_tokens.max(1) as u64;
    match reply {
        Reply::Tool { name, input } => {
            let output_tokens = util::tokens(&input.to_string()) + 10;
            Answer {
                id,
                model: req.model.clone(),
                block: json!({"type": "tool_use", "id": format!("toolu_{}", util::random_hex(24)), "name": name, "input": input}),
                text: None,
                stop: "tool_use",
                input_tokens,
                output_tokens,
                price_in,
                price_out,
            }
        }
        Reply::Text(t) => {
            let (text, stop) = if util::tokens(&t) > max {
                (truncate(&t, max), "max_tokens")
            } else {
                (t, "end_turn")
            };
            let output_tokens = util::tokens(&text).max(1);
            Answer {
                id,
                model: req.model.clone(),
                block: json!({"type": "text", "text": text}),
                text: Some(text),
                stop,
                input_tokens,
                output_tokens,
                price_in,
                price_out,
            }
        }
    }
}

async fn messages(
    State(app): State<App>,
    headers: HeaderMap,
    drop_after: Option<Extension<DropStreamAfter>>,
    body: axum::body::Bytes,
) -> Resp {
    let meter = begin(&app, &headers, Gate::Full, 0.01)?;
    let fail = |r| Err(meter.fail(&app, r));
    let Ok(v) = serde_json::from_slice::<Value>(&body) else {
        return fail(invalid("Body must be JSON in the Messages shape."));
    };
    let model = v
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let Some(def) = find_model(&model) else {
        return fail(super::unknown_model(&model));
    };
    if def.kind != "text" {
        return fail(invalid(&format!(
            "`{model}` is not a chat model; use a text model from GET /v1/models."
        )));
    }
    if v.get("max_tokens")
        .is_none_or(|m| m.as_u64().is_none_or(|n| n < 1))
    {
        return fail(invalid("`max_tokens` must be an integer >= 1."));
    }
    if v.get("messages")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty)
    {
        return fail(invalid("`messages` must be a non-empty array."));
    }
    let req: MessagesRequest = match serde_json::from_value(v) {
        Ok(r) => r,
        Err(e) => return fail(invalid(&format!("Malformed Messages request: {e}"))),
    };
    if prefill_of(&req).is_some_and(|p| p.ends_with(char::is_whitespace)) {
        return fail(invalid(
            "final assistant content cannot end with trailing whitespace",
        ));
    }
    let a = answer(
        &req,
        def.price_in,
        def.price_out,
        super::pace::reply_chars(&app),
    );
    if req.stream.unwrap_or(false) {
        return Ok(stream(app.clone(), meter, a, drop_after.map(|e| e.0.0)));
    }
    let cost = a.cost(a.output_tokens);
    let body = json!({
        "id": a.id,
        "type": "message",
        "role": "assistant",
        "model": a.model,
        "content": [a.block],
        "stop_reason": a.stop,
        "stop_sequence": null,
        "usage": {"input_tokens": a.input_tokens, "output_tokens": a.output_tokens, "cost": cost},
    });
    Ok(meter.done(&app, Json(body).into_response(), credits_for(cost)))
}

fn sse(event: &str, data: &Value) -> bytes::Bytes {
    bytes::Bytes::from(format!("event: {event}\ndata: {data}\n\n"))
}

/// Charges what was generated when the stream ends, however it ends.
struct Settle {
    app: App,
    user: String,
    credits: f64,
}

impl Drop for Settle {
    fn drop(&mut self) {
        let mut d = self.app.data();
        if let Some(u) = d.user_mut(&self.user) {
            if u.on_trial() {
                u.trial_used = util::round6(u.trial_used + self.credits);
            } else {
                u.charge(self.credits);
            }
        }
        drop(d);
        self.app.touch();
    }
}

fn stream(app: App, meter: Meter, a: Answer, drop_after: Option<u32>) -> Response {
    let full_cost = a.cost(a.output_tokens);
    // Pieces of the reply: text in chunks of three words, tool input in two halves.
    let (start_block, deltas): (Value, Vec<(Value, u64)>) = match &a.text {
        Some(text) => {
            let words: Vec<&str> = text.split_inclusive(' ').collect();
            let chunks: Vec<String> = words.chunks(3).map(|c| c.concat()).collect();
            let n = chunks.len().max(1) as u64;
            (
                json!({"type": "text", "text": ""}),
                chunks
                    .into_iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let share =
                            a.output_tokens * (i as u64 + 1) / n - a.output_tokens * i as u64 / n;
                        (json!({"type": "text_delta", "text": c}), share)
                    })
                    .collect(),
            )
        }
        None => {
            let input = a.block["input"].to_string();
            let mid = input
                .char_indices()
                .nth(input.chars().count() / 2)
                .map_or(0, |(i, _)| i);
            let half = a.output_tokens / 2;
            (
                json!({"type": "tool_use", "id": a.block["id"], "name": a.block["name"], "input": {}}),
                vec![
                    (
                        json!({"type": "input_json_delta", "partial_json": &input[..mid]}),
                        half,
                    ),
                    (
                        json!({"type": "input_json_delta", "partial_json": &input[mid..]}),
                        a.output_tokens - half,
                    ),
                ],
            )
        }
    };
    let limit = drop_after.map(|n| n as usize).unwrap_or(usize::MAX);
    let paced = super::pace::start(&app);
    let user = meter.user.id.clone();
    let app2 = app.clone();
    let body = async_stream::stream! {
        let mut settle = Settle { app: app2, user, credits: credits_for(a.cost(0)) };
        let mut sent = 0usize;
        let mut out_tokens = 0u64;
        let mut frames: Vec<(&str, Value, u64)> = vec![
            ("message_start", json!({"type": "message_start", "message": {
                "id": a.id, "type": "message", "role": "assistant", "model": a.model,
                "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": a.input_tokens, "output_tokens": 1}
            }}), 0),
            ("content_block_start", json!({"type": "content_block_start", "index": 0, "content_block": start_block}), 0),
            ("ping", json!({"type": "ping"}), 0),
        ];
        for (d, share) in deltas {
            frames.push(("content_block_delta", json!({"type": "content_block_delta", "index": 0, "delta": d}), share));
        }
        frames.push(("content_block_stop", json!({"type": "content_block_stop", "index": 0}), 0));
        frames.push(("message_delta", json!({"type": "message_delta",
            "delta": {"stop_reason": a.stop, "stop_sequence": null},
            "usage": {"output_tokens": a.output_tokens, "cost": full_cost}}), 0));
        frames.push(("message_stop", json!({"type": "message_stop"}), 0));
        let mut chars = 0usize;
        for (name, data, share) in frames {
            if sent >= limit {
                break;
            }
            sent += 1;
            out_tokens += share;
            settle.credits = credits_for(a.cost(out_tokens));
            let text = data["delta"]["text"].as_str().map(|t| t.chars().count());
            if let (Some(wait), Some(len)) = (paced, text) {
                tokio::time::sleep(wait).await;
                chars += len;
                super::pace::sent(&settle.app, chars);
            }
            yield Ok::<_, Infallible>(sse(name, &data));
        }
    };
    let resp = (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        axum::body::Body::from_stream(body),
    )
        .into_response();
    // Credits settle when the stream ends; the headers announce the complete reply's charge.
    let remaining = (meter.remaining(&app) - credits_for(full_cost)).max(0.0);
    let mut resp = super::meter_headers(
        resp,
        &meter.request_id,
        credits_for(full_cost),
        Some(remaining),
    );
    if let Some(p) = &meter.project
        && let Ok(v) = axum::http::HeaderValue::from_str(p)
    {
        resp.headers_mut().insert("x-svc-project-id", v);
    }
    resp
}
