//! The browser-agent submissions the client's wiremock tests send: two tasks, as Rust values and
//! as the JSON body the service should receive.

use serde_json::{Value, json};
use specdesk_client::BatchOptions;
use specdesk_client::types::BrowserTask;

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

