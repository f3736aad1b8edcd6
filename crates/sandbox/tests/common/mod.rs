//! Shared helpers: a sandbox on 127.0.0.1:0 at time scale 0, and raw HTTP calls.
#![allow(dead_code)]

use serde_json::Value;
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle};

pub const ORG: &str = "sk_sandbox_org";
pub const PRO: &str = "sk_sandbox_pro";
pub const FREE: &str = "sk_sandbox_free";
pub const BROKE: &str = "sk_sandbox_broke";

pub struct Env {
    pub sb: SandboxHandle,
    pub http: reqwest::Client,
}

impl Env {
    pub async fn new() -> Env {
        Env::with(SandboxConfig::ephemeral()).await
    }

    pub async fn with(config: SandboxConfig) -> Env {
        let sb = Sandbox::start(config).await.expect("sandbox starts");
        specdesk_sandbox::install_tls_provider();
        Env {
            sb,
            http: reqwest::Client::new(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.sb.base_url, path)
    }

    pub async fn get(&self, path: &str, key: Option<&str>) -> reqwest::Response {
        let mut r = self.http.get(self.url(path));
        if let Some(k) = key {
            r = r.bearer_auth(k);
        }
        r.send().await.expect("GET")
    }

    pub async fn post(&self, path: &str, key: Option<&str>, body: Value) -> reqwest::Response {
        let mut r = self.http.post(self.url(path)).json(&body);
        if let Some(k) = key {
            r = r.bearer_auth(k);
        }
        r.send().await.expect("POST")
    }

    /// GET and decode JSON, asserting the status.
    pub async fn get_json(&self, path: &str, key: Option<&str>, status: u16) -> Value {
        let r = self.get(path, key).await;
        assert_eq!(r.status().as_u16(), status, "GET {path}");
        r.json().await.expect("json")
    }

    /// POST and decode JSON, asserting the status.
    pub async fn post_json(
        &self,
        path: &str,
        key: Option<&str>,
        body: Value,
        status: u16,
    ) -> Value {
        let r = self.post(path, key, body).await;
        let got = r.status().as_u16();
        let text = r.text().await.expect("body");
        assert_eq!(got, status, "POST {path}: {text}");
        serde_json::from_str(&text).expect("json")
    }

    /// A control call that must succeed.
    pub async fn control(&self, path: &str, body: Value) -> Value {
        self.post_json(path, None, body, 200).await
    }

    pub async fn credits(&self, key: &str) -> f64 {
        let v = self.get_json("/credits-balance", Some(key), 200).await;
        v["creditsRemaining"].as_f64().expect("creditsRemaining")
    }
}

/// A response header as text (empty when absent).
pub fn header(r: &reqwest::Response, name: &str) -> String {
    r.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

/// A response header as a number.
pub fn num(r: &reqwest::Response, name: &str) -> f64 {
    header(r, name)
        .parse()
        .unwrap_or_else(|_| panic!("header {name}"))
}
