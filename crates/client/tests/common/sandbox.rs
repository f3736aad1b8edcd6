//! The client's tests against the real sandbox: a sandbox on 127.0.0.1:0 (simulated work
//! instant), a client of it that retries nothing and polls every 20 ms, and its control calls.

use std::time::Duration;

use specdesk_client::{Client, ClientConfig, RetryPolicy};
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle};

pub async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig::ephemeral())
        .await
        .expect("sandbox starts")
}

pub fn client(sb: &SandboxHandle, key: &str) -> Client {
    let mut cfg = ClientConfig::new(sb.base_url())
        .expect("loopback")
        .with_api_key(key.to_owned())
        .with_retry(RetryPolicy::none());
    cfg.poll_jitter = Duration::ZERO;
    cfg.spec_poll_interval = Duration::from_millis(20);
    cfg.job_poll_interval = Duration::from_millis(20);
    Client::new(cfg).expect("client")
}

/// A `/_sandbox` control call (not part of the client: no key, loopback only).
pub async fn control(sb: &SandboxHandle, path: &str, body: serde_json::Value) -> serde_json::Value {
    let resp = reqwest::Client::new()
        .post(format!("{}{path}", sb.base_url()))
        .json(&body)
        .send()
        .await
        .expect("control call");
    assert!(resp.status().is_success(), "{path}: {}", resp.status());
    resp.json().await.unwrap_or(serde_json::Value::Null)
}
