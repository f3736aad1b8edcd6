//! The browser-agent submissions the client's wiremock tests send: two tasks, as Rust values and
//! as the JSON body the service should receive.

use serde_json::{Value, json};
use specdesk_client::BatchOptions;
use specdesk_client::types::{BrowserTask, TaskEvent};

pub const BATCHES: &str = "/api/v1/browser-agents";

pub fn tasks() -> Vec<BrowserTask> {
    vec![
        BrowserTask {
            url: "https://shop.example/grinder".into(),
            instruction: Some("Find the price of \"Espresso grinder\"".into()),
            output: Some(
                json!({"type": "object", "required": ["price"], "properties": {"price": {"type": "number"}}}),
            ),
            timeout_ms: Some(60_000),
            ..task("https://shop.example/grinder")
        },
        BrowserTask {
            input: Some([("user".to_owned(), "demo".to_owned())].into()),
            max_steps: Some(10),
            mode: Some("extract".into()),
            ..task("https://shop.example/login")
        },
    ]
}

/// A task with only its start page.
pub fn task(url: &str) -> BrowserTask {
    BrowserTask {
        url: url.into(),
        instruction: None,
        input: None,
        output: None,
        success_condition: None,
        timeout_ms: None,
        max_steps: None,
        max_duration_seconds: None,
        mode: None,
    }
}

pub fn tasks_json() -> Value {
    json!([
        {
            "url": "https://shop.example/grinder",
            "instruction": "Find the price of \"Espresso grinder\"",
            "output": {"type": "object", "required": ["price"], "properties": {"price": {"type": "number"}}},
            "timeoutMs": 60000
        },
        {
            "url": "https://shop.example/login",
            "input": {"user": "demo"},
            "maxSteps": 10,
            "mode": "extract"
        }
    ])
}

pub fn options(key: &str) -> BatchOptions {
    BatchOptions {
        concurrency: Some(3),
        idempotency_key: Some(key.into()),
    }
}

/// The full timeline of the two tasks, in the order the stream sends it.
pub fn timeline() -> Vec<Value> {
    vec![
        json!({"taskIndex": 0, "type": "sandbox", "timestamp": 1000, "status": "starting"}),
        json!({"taskIndex": 1, "type": "sandbox", "timestamp": 1001, "status": "starting_local"}),
        json!({"taskIndex": 0, "type": "navigation", "timestamp": 1100, "url": "https://shop.example/grinder", "title": "Grinder"}),
        json!({"taskIndex": 1, "type": "navigation", "timestamp": 1101, "url": "https://shop.example/login", "title": "Log in"}),
        json!({"taskIndex": 1, "type": "error", "timestamp": 1200, "status": "BLOCKED", "error": "HTTP 403", "durationMs": 200}),
        // -- the task_result of task 1 goes here on the stream --
        json!({"taskIndex": 0, "type": "screenshot", "timestamp": 1300, "url": "https://shop.example/grinder", "mimeType": "image/jpeg", "chunkIndex": 0, "chunkCount": 2, "data": "AAAA"}),
        // -- the stream drops here --
        json!({"taskIndex": 0, "type": "screenshot", "timestamp": 1301, "url": "https://shop.example/grinder", "mimeType": "image/jpeg", "chunkIndex": 1, "chunkCount": 2, "data": "BBBB"}),
        json!({"taskIndex": 0, "type": "action", "timestamp": 1400, "actionType": "click", "selector": "#price", "success": true, "message": "clicked"}),
        json!({"taskIndex": 0, "type": "validation", "timestamp": 1500, "ok": true}),
        json!({"taskIndex": 0, "type": "done", "timestamp": 1600, "status": "SUCCESS", "data": {"price": 129.0}, "durationMs": 600}),
    ]
}

pub fn event(v: &Value) -> TaskEvent {
    serde_json::from_value(v.clone()).unwrap()
}
