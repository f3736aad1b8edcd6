//! Shared helpers of the client's wiremock tests: client builders, fixtures, multipart parsing.
#![allow(dead_code)]

pub mod batches;
pub mod sandbox;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;
use specdesk_client::{Client, ClientConfig, RetryPolicy};
use wiremock::{MockServer, Request, ResponseTemplate};

/// The key every test client sends.
pub const KEY: &str = "sk_test_0123456789SECRETabcdef";

/// A 24-hex spec id.
pub const SPEC_ID: &str = "6650f1c2a9b3e4d5f6a7b8c9";
/// A 24-hex project id.
pub const PROJECT_ID: &str = "6650f1c2a9b3e4d5f6a7b8ca";

/// A config for `server` with the test key, no retries, no connect timeout (a paused clock
/// auto-advances to pending timers while real I/O is in flight) and no poll jitter.
pub fn config(server: &MockServer) -> ClientConfig {
    let mut cfg = ClientConfig::new(&server.uri())
        .expect("loopback http is allowed")
        .with_api_key(KEY.to_owned())
        .with_retry(RetryPolicy::none());
    cfg.connect_timeout = None;
    cfg.poll_jitter = Duration::ZERO;
    cfg
}

/// A client for `server` built from [`config`].
pub fn client(server: &MockServer) -> Client {
    Client::new(config(server)).expect("client")
}

/// A client for `server` with `retry`.
pub fn client_with_retry(server: &MockServer, retry: RetryPolicy) -> Client {
    Client::new(config(server).with_retry(retry)).expect("client")
}

/// A client whose config is `config(server)` changed by `f`.
pub fn client_with(server: &MockServer, f: impl FnOnce(&mut ClientConfig)) -> Client {
    let mut cfg = config(server);
    f(&mut cfg);
    Client::new(cfg).expect("client")
}

/// `tests/resources/{name}`.
pub fn resource_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/resources")
        .join(name)
}

/// The JSON fixture `tests/resources/{name}.json`.
pub fn fixture(name: &str) -> Value {
    let path = resource_path(&format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// A fixture decoded into `T`.
pub fn fixture_as<T: serde::de::DeserializeOwned>(name: &str) -> T {
    serde_json::from_value(fixture(name)).unwrap_or_else(|e| panic!("decoding {name}: {e}"))
}

/// A 200 JSON answer that closes its connection, so the client's connection pool never arms an
/// idle timer (a paused clock would jump to it while the next request is in flight).
pub fn json(body: Value) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("connection", "close")
        .set_body_json(body)
}

/// A JSON answer with `status` (closing its connection, see [`json`]).
pub fn json_status(status: u16, body: Value) -> ResponseTemplate {
    ResponseTemplate::new(status)
        .insert_header("connection", "close")
        .set_body_json(body)
}

/// A `text/event-stream` answer with `body` (closing its connection).
pub fn sse(body: impl Into<String>) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("connection", "close")
        .set_body_raw(body.into().into_bytes(), "text/event-stream")
}

/// One SSE frame: `event: {name}\ndata: {json}\n\n`.
pub fn frame(name: &str, data: &Value) -> String {
    format!(
        "event: {name}\ndata: {}\n\n",
        serde_json::to_string(data).unwrap()
    )
}

/// Every request the server received.
pub async fn received(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.expect("recording is on")
}

/// The value of header `name` of `req`, as text.
pub fn header<'r>(req: &'r Request, name: &str) -> Option<&'r str> {
    req.headers
        .get(name)
        .map(|v| v.to_str().expect("ascii header"))
}

/// The raw (still encoded) query string of `req`.
pub fn raw_query(req: &Request) -> &str {
    req.url.query().unwrap_or("")
}

/// One part of a `multipart/form-data` body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub file_name: Option<String>,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

impl Part {
    /// The body as text.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.body).expect("utf-8 part")
    }
}

/// Splits a `multipart/form-data` request body into its parts, checking its framing exactly.
pub fn multipart(req: &Request) -> Vec<Part> {
    let content_type = header(req, "content-type").expect("content-type");
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap_or_else(|| panic!("not multipart/form-data: {content_type}"));
    let body = req.body.as_slice();
    let opening = format!("--{boundary}\r\n");
    let closing = format!("\r\n--{boundary}--\r\n");
    let inner = body
        .strip_prefix(opening.as_bytes())
        .expect("body starts with the delimiter")
        .strip_suffix(closing.as_bytes())
        .expect("body ends with the closing delimiter");
    let separator = format!("\r\n--{boundary}\r\n");
    let mut parts = Vec::new();
    for chunk in split(inner, separator.as_bytes()) {
        let head_end = find(chunk, b"\r\n\r\n").expect("part headers end");
        let head = std::str::from_utf8(&chunk[..head_end]).expect("ascii part headers");
        let mut name = None;
        let mut file_name = None;
        let mut part_type = None;
        for line in head.split("\r\n") {
            let (key, value) = line.split_once(": ").expect("part header");
            match key.to_ascii_lowercase().as_str() {
                "content-disposition" => {
                    assert!(value.starts_with("form-data; "), "{value}");
                    for attr in value.split("; ").skip(1) {
                        let (k, v) = attr.split_once('=').expect("attribute");
                        let v = v.trim_matches('"').to_owned();
                        match k {
                            "name" => name = Some(v),
                            "filename" => file_name = Some(v),
                            other => panic!("unexpected attribute {other}"),
                        }
                    }
                }
                "content-type" => part_type = Some(value.to_owned()),
                other => panic!("unexpected part header {other}"),
            }
        }
        parts.push(Part {
            name: name.expect("part name"),
            file_name,
            content_type: part_type,
            body: chunk[head_end + 4..].to_vec(),
        });
    }
    parts
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(mut haystack: &'a [u8], separator: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    while let Some(at) = find(haystack, separator) {
        out.push(&haystack[..at]);
        haystack = &haystack[at + separator.len()..];
    }
    out.push(haystack);
    out
}
