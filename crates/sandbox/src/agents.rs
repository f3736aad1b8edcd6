//! Browser agents: submissions (wait, async, stream), real fetches of each start URL, the outcome
//! rule, the event timeline, idempotency, listing and the capacity snapshot.

use crate::auth;
use crate::control::DropStreamAfter;
use crate::errors::{self, Resp};
use crate::media;
use crate::state::{App, BatchRec, Data};
use crate::util::{self, iso};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use base64::Engine;
use serde_json::{Map, Value, json};
use specdesk_types::{
    ActionEvent, Batch, BatchList, BatchRequest, BatchStatus, BrowserTask, CapacitySnapshot,
    CapacityUser, CapacityWorker, NavigationEvent, PlanEvent, PlannedAction, SandboxEvent,
    ScreenshotEvent, TaskDoneEvent, TaskErrorEvent, TaskEvent, TaskEventKind, TaskResult,
    TaskResultFrame, TaskStatus, ValidationEvent, WaitingEvent,
};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;

/// Idempotency window, sandbox ms.
const IDEMPOTENCY_MS: i64 = 24 * 60 * 60 * 1000;
/// In-flight tasks a user may have.
const PER_USER_CAP: usize = 5000;
/// Open batch streams a user may have.
const STREAMS_PER_USER: u32 = 10;
/// Global ceiling reported by the capacity snapshot.
const MAX_SANDBOXES: u32 = 200;
/// Base64 characters per screenshot chunk.
const CHUNK: usize = 8192;
/// Raw USD per agent step.
const STEP_COST: f64 = 0.004;

/// One SSE frame of a batch stream.
#[derive(Debug, Clone)]
pub struct Frame {
    pub event: &'static str,
    pub data: String,
}

pub fn routes() -> Router<App> {
    let mut r = Router::new().route("/browser-agent", post(submit));
    for base in ["/api/v1/browser-agents", "/api/v1/browser-tasks"] {
        r = r
            .route(base, post(submit).get(list))
            .route(&format!("{base}/_system/capacity"), get(capacity))
            .route(&format!("{base}/{{id}}"), get(get_batch));
    }
    r
}

/// After a restart, unfinished tasks of persisted batches end as `ERROR`.
pub fn recover(d: &mut Data) {
    let now = d.now();
    for b in d.batches.iter_mut().filter(|b| b.status == "processing") {
        for (i, r) in b.results.iter_mut().enumerate() {
            if r.is_none() {
                let t = &b.request.tasks[i];
                *r = Some(result_for(
                    t,
                    TaskStatus::Error,
                    None,
                    1,
                    0.0,
                    Some("The sandbox restarted while this task ran.".into()),
                ));
            }
        }
        b.status = "completed".into();
        b.completed_at = Some(now);
    }
}

fn result_for(
    t: &BrowserTask,
    status: TaskStatus,
    data: Option<Value>,
    steps: u32,
    duration_ms: f64,
    error: Option<String>,
) -> TaskResult {
    let cost = util::round6(STEP_COST * steps.max(1) as f64);
    TaskResult {
        url: t.url.clone(),
        instruction: t.instruction.clone(),
        input: t.input.clone(),
        status,
        data,
        cost,
        credits_used: util::round6((cost * 10.0).max(0.1)),
        duration_ms,
        error,
        events: None,
    }
}

/// The public view of a batch.
fn view(b: &BatchRec, include_events: bool) -> Batch {
    let mut results = Vec::new();
    for (i, r) in b.results.iter().enumerate() {
        if let Some(r) = r {
            let mut r = r.clone();
            if include_events {
                r.events = Some(b.events[i].clone());
            }
            results.push(r);
        }
    }
    let total_cost = util::round6(results.iter().map(|r| r.cost).sum());
    let total_credits = util::round6(results.iter().map(|r| r.credits_used).sum());
    Batch {
        id: b.id.clone(),
        total: b.results.len() as u32,
        completed: results.len() as u32,
        results,
        total_cost,
        total_credits_used: total_credits,
        status: BatchStatus::from(b.status.as_str()),
        created_at: iso(b.created),
        completed_at: b.completed_at.map(iso),
    }
}

fn not_found() -> Response {
    errors::rest(
        StatusCode::NOT_FOUND,
        "Not found",
        "No batch with this id belongs to this key.",
    )
}

fn validate(body: &Value) -> Result<BatchRequest, Response> {
    let Some(tasks) = body.get("tasks").and_then(Value::as_array) else {
        return Err(errors::invalid("`tasks` must be an array of tasks."));
    };
    if tasks.is_empty() {
        return Err(errors::invalid("`tasks` must hold at least one task."));
    }
    if tasks.len() > 1000 {
        return Err(errors::invalid("At most 1000 tasks per submission."));
    }
    for (i, t) in tasks.iter().enumerate() {
        match t.get("url").and_then(Value::as_str) {
            Some(u) if !u.trim().is_empty() => {}
            _ => return Err(errors::invalid(&format!("Task {i} has no `url`."))),
        }
        if let Some(schema) = t.get("output")
            && jsonschema::validator_for(schema).is_err()
        {
            return Err(errors::invalid(&format!(
                "Task {i}: `output` is not a valid JSON Schema."
            )));
        }
    }
    if let Some(c) = body.get("concurrency") {
        match c.as_u64() {
            Some(n) if (1..=20).contains(&n) => {}
            _ => {
                return Err(errors::invalid(
                    "`concurrency` must be an integer from 1 to 20.",
                ));
            }
        }
    }
    serde_json::from_value(body.clone())
        .map_err(|e| errors::invalid(&format!("Malformed submission: {e}")))
}

async fn submit(
    State(app): State<App>,
    headers: HeaderMap,
    drop_after: Option<Extension<DropStreamAfter>>,
    body: axum::body::Bytes,
) -> Resp {
    let user = auth::rest_user(&app, &headers)?;
    let body: Value = serde_json::from_slice(&body)
        .map_err(|_| errors::invalid("Body must be JSON with a `tasks` array."))?;
    let req = validate(&body)?;
    let key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| req.idempotency_key.clone())
        .filter(|k| !k.is_empty());
    let stream = req.stream.unwrap_or(false);
    let is_async = req.is_async.unwrap_or(false);
    let drop_after = drop_after.map(|e| e.0.0);

    // A repeated submission within the window answers with the existing batch.
    let existing = {
        let d = app.data();
        let now = d.now();
        key.as_ref()
            .and_then(|k| d.idempotency.get(&format!("{}\n{k}", user.id)))
            .filter(|(_, at)| now - at < IDEMPOTENCY_MS)
            .map(|(id, _)| id.clone())
            .filter(|id| d.batches.iter().any(|b| &b.id == id))
    };
    if let Some(id) = existing {
        return respond(&app, &user.id, &id, stream, is_async, drop_after).await;
    }

    let n = req.tasks.len();
    {
        let d = app.data();
        let inflight: usize = d
            .batches
            .iter()
            .filter(|b| b.owner == user.id)
            .map(BatchRec::inflight)
            .sum();
        if inflight + n > PER_USER_CAP {
            return Err(errors::rest(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many tasks in flight",
                &format!("At most {PER_USER_CAP} tasks may run at once; {inflight} are running."),
            ));
        }
        let credits = d.users.get(&user.id).map(|u| u.credits).unwrap_or(0.0);
        if credits < 0.1 * n as f64 {
            return Err(errors::rest_with(
                StatusCode::PAYMENT_REQUIRED,
                "Insufficient credits",
                &format!(
                    "This batch needs at least {} credits and {credits} remain. Add credits to continue.",
                    0.1 * n as f64
                ),
                json!({"actionUrl": errors::TOPUP_URL}),
            ));
        }
    }
    if stream && app.runtime().streams.get(&user.id).copied().unwrap_or(0) >= STREAMS_PER_USER {
        return Err(errors::rest(
            StatusCode::TOO_MANY_REQUESTS,
            "Stream capacity reached",
            "Too many open streams: close one, or submit with `async: true` and poll.",
        ));
    }

    let id = format!("batch_{}", util::random_hex(20));
    let concurrency = req.concurrency.unwrap_or(5).clamp(1, 20) as usize;
    let (tx, _) = broadcast::channel(65_536);
    app.runtime().batch_tx.insert(id.clone(), tx);
    {
        let mut d = app.data();
        let now = d.now();
        if let Some(k) = &key {
            d.idempotency
                .insert(format!("{}\n{k}", user.id), (id.clone(), now));
        }
        d.batches.push(BatchRec {
            id: id.clone(),
            owner: user.id.clone(),
            owner_org: user.org.clone(),
            created: now,
            completed_at: None,
            request: req.clone(),
            results: vec![None; n],
            events: vec![Vec::new(); n],
            status: "processing".into(),
        });
    }
    app.touch();
    let first_view = app
        .data()
        .batches
        .iter()
        .find(|b| b.id == id)
        .map(|b| view(b, false));
    tokio::spawn(run_batch(app.clone(), id.clone(), req.tasks, concurrency));
    if is_async && !stream {
        return Ok(Json(first_view).into_response());
    }
    respond(&app, &user.id, &id, stream, false, drop_after).await
}

async fn respond(
    app: &App,
    user: &str,
    id: &str,
    stream: bool,
    is_async: bool,
    drop_after: Option<u32>,
) -> Resp {
    if stream {
        return Ok(sse(app, user, id, drop_after));
    }
    if !is_async {
        wait_done(app, id).await;
    }
    let d = app.data();
    let b = d
        .batches
        .iter()
        .find(|b| b.id == id)
        .ok_or_else(not_found)?;
    Ok(Json(view(b, false)).into_response())
}

/// Waits until the batch is no longer processing.
async fn wait_done(app: &App, id: &str) {
    loop {
        let rx = {
            let d = app.data();
            match d.batches.iter().find(|b| b.id == id) {
                Some(b) if b.status == "processing" => {
                    app.runtime().batch_tx.get(id).map(|tx| tx.subscribe())
                }
                _ => return,
            }
        };
        let Some(mut rx) = rx else { return };
        loop {
            match rx.recv().await {
                Ok(f) if f.event == "done" => return,
                Ok(_) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => break,
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    }
}

struct StreamGuard {
    app: App,
    user: String,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        if let Some(n) = self.app.runtime().streams.get_mut(&self.user) {
            *n = n.saturating_sub(1);
        }
    }
}

fn frame_bytes(f: &Frame) -> bytes::Bytes {
    bytes::Bytes::from(format!("event: {}\ndata: {}\n\n", f.event, f.data))
}

fn event_frame(e: &TaskEvent) -> Frame {
    Frame {
        event: "task_event",
        data: serde_json::to_string(e).unwrap_or_default(),
    }
}

fn result_frame(i: usize, r: &TaskResult) -> Frame {
    Frame {
        event: "task_result",
        data: serde_json::to_string(&TaskResultFrame {
            task_index: i as u32,
            status: r.status.clone(),
            data: r.data.clone(),
        })
        .unwrap_or_default(),
    }
}

fn done_frame(b: &BatchRec) -> Frame {
    Frame {
        event: "done",
        data: serde_json::to_string(&view(b, false)).unwrap_or_default(),
    }
}

/// The batch as `text/event-stream`: what happened so far, then live frames, with a `:keepalive`
/// comment line after every `keepalive_ms` of silence.
fn sse(app: &App, user: &str, id: &str, drop_after: Option<u32>) -> Response {
    *app.runtime().streams.entry(user.to_owned()).or_default() += 1;
    let guard = StreamGuard {
        app: app.clone(),
        user: user.to_owned(),
    };
    // Replay what happened so far and subscribe, under one lock so nothing is missed or doubled.
    let (replay, rx, finished) = {
        let d = app.data();
        let mut replay = Vec::new();
        let mut finished = true;
        let mut rx = None;
        if let Some(b) = d.batches.iter().find(|b| b.id == id) {
            for (i, evs) in b.events.iter().enumerate() {
                replay.extend(evs.iter().map(event_frame));
                if let Some(r) = &b.results[i] {
                    replay.push(result_frame(i, r));
                }
            }
            if b.status == "processing" {
                finished = false;
                rx = app.runtime().batch_tx.get(id).map(|tx| tx.subscribe());
            } else {
                replay.push(done_frame(b));
            }
        }
        (replay, rx, finished)
    };
    let limit = drop_after.map(|n| n as usize).unwrap_or(usize::MAX);
    let keepalive = Duration::from_millis(app.config.keepalive_ms.max(1));
    let s = async_stream::stream! {
        let _guard = guard;
        let mut sent = 0usize;
        if limit == 0 { return; }
        for f in replay {
            sent += 1;
            yield Ok::<_, Infallible>(frame_bytes(&f));
            if sent >= limit { return; }
        }
        if finished { return; }
        let Some(mut rx) = rx else { return };
        loop {
            tokio::select! {
                r = rx.recv() => match r {
                    Ok(f) => {
                        sent += 1;
                        let done = f.event == "done";
                        yield Ok(frame_bytes(&f));
                        if done || sent >= limit { return; }
                    }
                    Err(_) => return,
                },
                _ = tokio::time::sleep(keepalive) => {
                    yield Ok(bytes::Bytes::from_static(b":keepalive\n\n"));
                }
            }
        }
    };
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        axum::body::Body::from_stream(s),
    )
        .into_response()
}

async fn run_batch(app: App, id: String, tasks: Vec<BrowserTask>, concurrency: usize) {
    let sem = Arc::new(tokio::sync::Semaphore::new(concurrency));
    let mut set = tokio::task::JoinSet::new();
    for (i, t) in tasks.into_iter().enumerate() {
        let Ok(permit) = sem.clone().acquire_owned().await else {
            break;
        };
        let app = app.clone();
        let id = id.clone();
        set.spawn(async move {
            let _permit = permit;
            run_task(&app, &id, i, &t).await;
        });
    }
    while set.join_next().await.is_some() {}
    {
        let mut d = app.data();
        let now = d.now();
        if let Some(b) = d.batches.iter_mut().find(|b| b.id == id) {
            b.status = "completed".into();
            b.completed_at = Some(now);
            let f = done_frame(b);
            if let Some(tx) = app.runtime().batch_tx.get(&id) {
                let _ = tx.send(f);
            }
        }
    }
    app.runtime().batch_tx.remove(&id);
    app.touch();
}

/// Records an event of task `i` and sends it to live streams.
fn emit(app: &App, id: &str, i: usize, kind: TaskEventKind) {
    let mut d = app.data();
    let now = d.now();
    let Some(b) = d.batches.iter_mut().find(|b| b.id == id) else {
        return;
    };
    let e = TaskEvent {
        task_index: i as u32,
        timestamp: Some(now as f64),
        kind,
    };
    let f = event_frame(&e);
    b.events[i].push(e);
    if let Some(tx) = app.runtime().batch_tx.get(id) {
        let _ = tx.send(f);
    }
}

/// Records the result of task `i`, charges it, and sends it to live streams.
fn finish(app: &App, id: &str, i: usize, r: TaskResult) {
    {
        let mut d = app.data();
        let Some(pos) = d.batches.iter().position(|b| b.id == id) else {
            return;
        };
        let owner = d.batches[pos].owner.clone();
        let f = result_frame(i, &r);
        let credits = r.credits_used;
        d.batches[pos].results[i] = Some(r);
        if let Some(u) = d.user_mut(&owner) {
            u.charge(credits);
        }
        if let Some(tx) = app.runtime().batch_tx.get(id) {
            let _ = tx.send(f);
        }
    }
    app.touch();
}

struct Page {
    url: String,
    status: u16,
    html: String,
}

enum Fetch {
    Page(Page),
    Failed(String),
    TimedOut,
}

async fn fetch(app: &App, url: &str, limit: Duration) -> Fetch {
    let parsed = match url::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => u,
        _ => return Fetch::Failed(format!("Not an http(s) URL: {url}")),
    };
    let work = async {
        let resp = app.http.get(parsed).send().await?;
        let status = resp.status().as_u16();
        let final_url = resp.url().to_string();
        let html = resp.text().await?;
        Ok::<_, reqwest::Error>(Page {
            url: final_url,
            status,
            html,
        })
    };
    match tokio::time::timeout(limit, work).await {
        Err(_) => Fetch::TimedOut,
        Ok(Ok(p)) => Fetch::Page(p),
        Ok(Err(e)) if e.is_timeout() => Fetch::TimedOut,
        Ok(Err(e)) => Fetch::Failed(if e.is_connect() {
            format!("Could not connect to {url}: connection refused or unknown host.")
        } else {
            format!("Could not load {url}: {e}")
        }),
    }
}

/// Text in straight or curly double quotes.
fn quoted_targets(instruction: &str) -> Vec<String> {
    let re = regex::Regex::new(r#""([^"]+)"|“([^”]+)”"#).expect("static regex");
    re.captures_iter(instruction)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)).map(|m| m.as_str().to_owned()))
        .collect()
}

/// Text lines of a page (tags become line breaks).
fn page_lines(html: &str) -> Vec<String> {
    let re = regex::Regex::new(r"(?s)<[^>]*>").expect("static regex");
    re.replace_all(html, "\n")
        .lines()
        .map(util::html_text)
        .filter(|l| !l.is_empty())
        .collect()
}

/// Inner HTML of every element whose id, name, itemprop or data-field is `name`, or whose class
/// list holds `name` (the element ends at the next closing tag of its name).
fn elements(html: &str, name: &str) -> Vec<String> {
    let open = regex::Regex::new(r"(?is)<([a-z][a-z0-9]*)\b([^>]*)>").expect("static regex");
    let attr =
        regex::Regex::new(r#"(?is)\b(id|name|itemprop|data-field|class)\s*=\s*["']([^"']*)["']"#)
            .expect("static regex");
    let lower = html.to_lowercase();
    let mut out = Vec::new();
    for c in open.captures_iter(html) {
        let hit = attr.captures_iter(&c[2]).any(|a| {
            if a[1].eq_ignore_ascii_case("class") {
                a[2].split_whitespace().any(|w| w == name)
            } else {
                &a[2] == name
            }
        });
        if !hit {
            continue;
        }
        let tag = c[1].to_lowercase();
        let start = c.get(0).map_or(0, |m| m.end());
        let end = lower[start..]
            .find(&format!("</{tag}"))
            .map_or(html.len(), |p| start + p);
        out.push(html[start..end].to_owned());
    }
    out
}

/// Text of every element named `name` (see [`elements`]), or the content of a `<meta>` of that name.
fn element_texts(html: &str, name: &str) -> Vec<String> {
    let mut out: Vec<String> = elements(html, name)
        .iter()
        .map(|inner| util::html_text(inner))
        .filter(|t| !t.is_empty())
        .collect();
    if out.is_empty() {
        let n = regex::escape(name);
        let meta = format!(
            r#"(?is)<meta\b[^>]*\b(?:name|property)\s*=\s*["']{n}["'][^>]*\bcontent\s*=\s*["']([^"']*)["']"#
        );
        if let Ok(re) = regex::Regex::new(&meta) {
            out.extend(re.captures_iter(html).map(|c| c[1].to_owned()));
        }
    }
    out
}

fn labelled(lines: &[String], name: &str) -> Option<String> {
    let re = regex::Regex::new(&format!(r"(?i)^\s*{}\s*[:=]\s*(.+)$", regex::escape(name))).ok()?;
    lines
        .iter()
        .find_map(|l| re.captures(l).map(|c| c[1].trim().to_owned()))
}

fn typed(raw: &str, ty: &str) -> Option<Value> {
    match ty {
        "number" | "integer" => {
            let re = regex::Regex::new(r"-?\d[\d,]*(?:\.\d+)?").expect("static regex");
            let m = re.find(raw)?.as_str().replace(',', "");
            if ty == "integer" {
                m.parse::<f64>().ok().map(|f| json!(f.trunc() as i64))
            } else {
                m.parse::<f64>().ok().map(|f| json!(f))
            }
        }
        "boolean" => match raw.trim().to_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Some(json!(true)),
            "false" | "no" | "off" | "0" => Some(json!(false)),
            _ => None,
        },
        _ => Some(json!(raw)),
    }
}

/// Extracts one property from the page by its schema type; `None` when not found.
fn extract_prop(
    name: &str,
    schema: &Value,
    page: &Page,
    title: &str,
    lines: &[String],
) -> Option<Value> {
    let ty = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    let lower = name.to_lowercase();
    if ty == "array" {
        let item_ty = schema
            .pointer("/items/type")
            .and_then(Value::as_str)
            .unwrap_or("string");
        let mut items = element_texts(&page.html, name);
        if items.len() == 1 {
            // A container: its list items.
            let li = regex::Regex::new(r"(?is)<li\b[^>]*>(.*?)</li>").ok()?;
            let lis: Vec<String> = elements(&page.html, name)
                .iter()
                .flat_map(|inner| {
                    li.captures_iter(inner)
                        .map(|m| util::html_text(&m[1]))
                        .collect::<Vec<_>>()
                })
                .collect();
            if !lis.is_empty() {
                items = lis;
            }
        }
        if items.is_empty() && lower == "links" {
            let a = regex::Regex::new(r#"(?is)<a\b[^>]*href\s*=\s*["']([^"']+)["']"#).ok()?;
            items = a
                .captures_iter(&page.html)
                .map(|c| c[1].to_owned())
                .collect();
        }
        if items.is_empty() {
            return None;
        }
        return Some(Value::Array(
            items.iter().filter_map(|i| typed(i, item_ty)).collect(),
        ));
    }
    if ty == "object" {
        let props = schema.get("properties").and_then(Value::as_object)?;
        let mut obj = Map::new();
        for (k, s) in props {
            if let Some(v) = extract_prop(k, s, page, title, lines) {
                obj.insert(k.clone(), v);
            }
        }
        return (!obj.is_empty()).then_some(Value::Object(obj));
    }
    let raw = if matches!(lower.as_str(), "title" | "pagetitle" | "page_title") && !title.is_empty()
    {
        Some(title.to_owned())
    } else if lower == "url" {
        Some(page.url.clone())
    } else {
        element_texts(&page.html, name)
            .into_iter()
            .next()
            .or_else(|| labelled(lines, name))
            .or_else(|| {
                (matches!(lower.as_str(), "heading" | "h1"))
                    .then(|| element_texts_tag(&page.html, "h1"))
                    .flatten()
            })
    }?;
    typed(&raw, ty)
}

fn element_texts_tag(html: &str, tag: &str) -> Option<String> {
    let re = regex::Regex::new(&format!(r"(?is)<{tag}\b[^>]*>(.*?)</{tag}>")).ok()?;
    re.captures(html).map(|c| util::html_text(&c[1]))
}

/// Data for an `output` schema: (data, missing required properties).
fn extract(schema: &Value, page: &Page, title: &str) -> (Value, Vec<String>) {
    let lines = page_lines(&page.html);
    let mut obj = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, s) in props {
            if let Some(v) = extract_prop(k, s, page, title, &lines) {
                obj.insert(k.clone(), v);
            }
        }
    }
    let missing: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .filter(|k| !obj.contains_key(*k))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    (Value::Object(obj), missing)
}

async fn run_task(app: &App, id: &str, i: usize, t: &BrowserTask) {
    let started = Instant::now();
    let elapsed = |s: &Instant| s.elapsed().as_millis() as f64;
    let mut limit_ms = t.timeout_ms.unwrap_or(240_000);
    if let Some(s) = t.max_duration_seconds {
        limit_ms = limit_ms.min(s.saturating_mul(1000));
    }
    let limit = Duration::from_millis(limit_ms);
    let mut steps = 0u32;
    let end = |status: TaskStatus, data: Option<Value>, steps: u32, err: Option<String>| {
        let d = elapsed(&started);
        let kind = if status == TaskStatus::Success {
            TaskEventKind::Done(TaskDoneEvent {
                status: status.clone(),
                data: data.clone(),
                duration_ms: Some(d),
            })
        } else {
            TaskEventKind::Error(TaskErrorEvent {
                status: status.clone(),
                error: err.clone(),
                duration_ms: Some(d),
            })
        };
        emit(app, id, i, kind);
        finish(app, id, i, result_for(t, status, data, steps, d, err));
    };

    emit(
        app,
        id,
        i,
        TaskEventKind::Sandbox(SandboxEvent {
            status: "starting".into(),
        }),
    );
    tokio::time::sleep(app.sim(300)).await;
    let page = match fetch(app, &t.url, limit.saturating_sub(started.elapsed())).await {
        Fetch::TimedOut => {
            return end(
                TaskStatus::Timeout,
                None,
                1,
                Some(format!(
                    "The task took longer than its limit of {limit_ms} ms."
                )),
            );
        }
        Fetch::Failed(e) => return end(TaskStatus::Error, None, 1, Some(e)),
        Fetch::Page(p) => p,
    };
    let title = util::html_title(&page.html).unwrap_or_default();
    emit(
        app,
        id,
        i,
        TaskEventKind::Navigation(NavigationEvent {
            url: page.url.clone(),
            title: Some(title.clone()),
        }),
    );
    if page.status == 401 || page.status == 403 {
        return end(
            TaskStatus::Blocked,
            None,
            1,
            Some(format!("The site refused access (HTTP {}).", page.status)),
        );
    }
    if page.status >= 400 {
        return end(
            TaskStatus::Error,
            None,
            1,
            Some(format!("The page answered HTTP {}.", page.status)),
        );
    }
    let text = util::html_text(&page.html);
    let png = media::page_png(&page.url, &title, &text);
    let b64 = base64::engine::general_purpose::STANDARD.encode(png);
    let chunks: Vec<&str> = b64
        .as_bytes()
        .chunks(CHUNK)
        .map(|c| std::str::from_utf8(c).unwrap_or(""))
        .collect();
    for (k, c) in chunks.iter().enumerate() {
        emit(
            app,
            id,
            i,
            TaskEventKind::Screenshot(ScreenshotEvent {
                url: Some(page.url.clone()),
                mime_type: "image/png".into(),
                chunk_index: k as u32,
                chunk_count: chunks.len() as u32,
                data: Some((*c).to_owned()),
            }),
        );
    }
    let lower = text.to_lowercase();
    if lower.contains("cloudflare") || lower.contains("just a moment") {
        emit(
            app,
            id,
            i,
            TaskEventKind::Waiting(WaitingEvent {
                reason: "cloudflare".into(),
            }),
        );
    }
    if lower.contains("captcha") {
        steps += 1;
        emit(
            app,
            id,
            i,
            TaskEventKind::Plan(PlanEvent {
                actions: Vec::new(),
                notes: Some("A captcha blocks the page.".into()),
                done: false,
                captcha_detected: true,
            }),
        );
        emit(
            app,
            id,
            i,
            TaskEventKind::Waiting(WaitingEvent {
                reason: "captcha".into(),
            }),
        );
        return end(
            TaskStatus::CaptchaFailed,
            None,
            steps,
            Some("A captcha could not be solved.".into()),
        );
    }
    if started.elapsed() > limit {
        return end(
            TaskStatus::Timeout,
            None,
            1,
            Some(format!(
                "The task took longer than its limit of {limit_ms} ms."
            )),
        );
    }

    // Plan: fill every input, then click each quoted target.
    let targets = quoted_targets(t.instruction.as_deref().unwrap_or(""));
    let mut actions: Vec<PlannedAction> = t
        .input
        .iter()
        .flatten()
        .map(|(k, v)| PlannedAction {
            action_type: Some("fill".into()),
            selector: Some(format!("[name=\"{k}\"]")),
            value: Some(v.clone()),
        })
        .collect();
    actions.extend(targets.iter().map(|tg| PlannedAction {
        action_type: Some("click".into()),
        selector: Some(format!("text=\"{tg}\"")),
        value: None,
    }));
    steps += 1;
    emit(
        app,
        id,
        i,
        TaskEventKind::Plan(PlanEvent {
            actions: actions.clone(),
            notes: t
                .instruction
                .clone()
                .or_else(|| Some("Read the page.".into())),
            done: false,
            captcha_detected: false,
        }),
    );
    let max_steps = t.max_steps.unwrap_or(u32::MAX);
    if max_steps < 3 {
        if let Some(a) = actions.first() {
            steps += 1;
            emit(app, id, i, action_event(a, true, "Done."));
        }
        return end(
            TaskStatus::Loop,
            None,
            steps,
            Some(format!(
                "Stopped after {max_steps} steps without reaching the goal."
            )),
        );
    }
    for a in &actions {
        tokio::time::sleep(app.sim(300)).await;
        steps += 1;
        let ok = match a.action_type.as_deref() {
            Some("click") => {
                let tg = a
                    .selector
                    .as_deref()
                    .and_then(|s| s.strip_prefix("text=\""))
                    .and_then(|s| s.strip_suffix('"'))
                    .unwrap_or("");
                lower.contains(&tg.to_lowercase())
            }
            _ => true,
        };
        let msg = if ok {
            "Done."
        } else {
            "Target not found on the page."
        };
        emit(app, id, i, action_event(a, ok, msg));
        if !ok {
            return end(
                TaskStatus::NoTarget,
                None,
                steps,
                Some(format!(
                    "Could not find {} on the page.",
                    a.selector.clone().unwrap_or_default()
                )),
            );
        }
    }
    let data = match &t.output {
        Some(schema) => {
            let (data, missing) = extract(schema, &page, &title);
            let ok = missing.is_empty()
                && jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(&data));
            emit(
                app,
                id,
                i,
                TaskEventKind::Validation(ValidationEvent { ok }),
            );
            if !ok {
                let why = if missing.is_empty() {
                    "The extracted data does not match the output schema.".to_owned()
                } else {
                    format!("Not found on the page: {}.", missing.join(", "))
                };
                return end(TaskStatus::NoTarget, Some(data), steps, Some(why));
            }
            data
        }
        None => {
            let excerpt: String = text.chars().take(500).collect();
            json!({"title": title, "url": page.url, "text": excerpt})
        }
    };
    steps += 1;
    emit(
        app,
        id,
        i,
        TaskEventKind::Plan(PlanEvent {
            actions: Vec::new(),
            notes: Some("Goal reached.".into()),
            done: true,
            captcha_detected: false,
        }),
    );
    end(TaskStatus::Success, Some(data), steps, None)
}

fn action_event(a: &PlannedAction, ok: bool, msg: &str) -> TaskEventKind {
    TaskEventKind::Action(ActionEvent {
        action_type: a.action_type.clone(),
        selector: a.selector.clone(),
        success: ok,
        message: Some(msg.to_owned()),
    })
}

async fn get_batch(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Resp {
    let user = auth::rest_user(&app, &headers)?;
    let params: BTreeMap<String, String> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let include = params.get("includeEvents").is_some_and(|v| v == "true");
    let d = app.data();
    let b = d
        .batches
        .iter()
        .find(|b| b.id == id && user.can_read(&b.owner, b.owner_org.as_deref()))
        .ok_or_else(not_found)?;
    Ok(Json(view(b, include)).into_response())
}

async fn list(State(app): State<App>, headers: HeaderMap, RawQuery(raw): RawQuery) -> Resp {
    let user = auth::rest_user(&app, &headers)?;
    let q = crate::specs::list_query(raw)?;
    let status = match q.params.get("status").map(String::as_str) {
        None => None,
        Some(s @ ("processing" | "completed" | "failed")) => Some(s.to_owned()),
        Some(_) => {
            return Err(errors::invalid(
                "`status` must be `processing` or `completed`.",
            ));
        }
    };
    let d = app.data();
    let mut mine: Vec<&BatchRec> = d
        .batches
        .iter()
        .filter(|b| user.can_read(&b.owner, b.owner_org.as_deref()))
        .filter(|b| status.as_deref().is_none_or(|s| b.status == s))
        .collect();
    mine.reverse();
    let total = mine.len();
    let batches: Vec<Batch> = mine
        .into_iter()
        .skip(q.skip)
        .take(q.limit)
        .map(|b| view(b, false))
        .collect();
    let has_more = q.skip + batches.len() < total;
    Ok(Json(BatchList {
        batches,
        total: total as u64,
        has_more,
    })
    .into_response())
}

async fn capacity(State(app): State<App>, headers: HeaderMap) -> Resp {
    auth::rest_user(&app, &headers)?;
    let d = app.data();
    let now = d.now();
    let mut running = 0u32;
    let mut pending = 0u32;
    let mut failed = 0u32;
    let mut oldest: Option<i64> = None;
    let mut users: BTreeMap<String, u32> = BTreeMap::new();
    for b in &d.batches {
        failed += b
            .results
            .iter()
            .flatten()
            .filter(|r| r.status == TaskStatus::Error)
            .count() as u32;
        let inflight = b.inflight() as u32;
        if inflight == 0 {
            continue;
        }
        let conc = b.request.concurrency.unwrap_or(5).clamp(1, 20);
        running += inflight.min(conc);
        let queued = inflight.saturating_sub(conc);
        pending += queued;
        if queued > 0 {
            oldest = Some(oldest.map_or(b.created, |o| o.min(b.created)));
        }
        *users.entry(b.owner.clone()).or_default() += inflight;
    }
    let mut top: Vec<CapacityUser> = users
        .into_iter()
        .map(|(user_id, inflight)| CapacityUser { user_id, inflight })
        .collect();
    top.sort_by_key(|u| std::cmp::Reverse(u.inflight));
    top.truncate(10);
    Ok(Json(CapacitySnapshot {
        total_active: running + pending,
        max_sandboxes: MAX_SANDBOXES,
        per_user_cap: PER_USER_CAP as u32,
        pending,
        running,
        claimed: running,
        failed,
        utilization: (running as f64 / MAX_SANDBOXES as f64).min(1.0),
        oldest_queued_age_ms: oldest.map_or(0.0, |o| (now - o).max(0) as f64),
        top_users: top,
        workers: vec![CapacityWorker {
            worker_id: "sandbox-worker-1".into(),
            inflight: running,
        }],
    })
    .into_response())
}
