//! `/_sandbox/*` control endpoints (no key, loopback only) and the fault injector.

use crate::errors::{self, Resp};
use crate::state::{App, Data, Fault, KeyEntry, ROTATION_GRACE_MS};
use crate::util;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

/// Routes under `/_sandbox`.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/_sandbox/health", get(health))
        .route("/_sandbox/reset", post(reset))
        .route("/_sandbox/clock/advance", post(advance_clock))
        .route("/_sandbox/keys/rotate", post(rotate_key))
        .route("/_sandbox/credits", post(set_credits))
        .route(
            "/_sandbox/faults",
            post(add_fault).delete(clear_faults).get(list_faults),
        )
        .route("/_sandbox/projects/{id}/advance", post(advance_project))
        .route("/_sandbox/agents/pace", post(set_pace).get(pace))
}

/// Refuses `/_sandbox` requests that do not come from loopback.
pub async fn loopback_only(req: Request, next: Next) -> Response {
    if req.uri().path().starts_with("/_sandbox") {
        let remote = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        if let Some(ip) = remote
            && !ip.is_loopback()
        {
            return errors::rest(
                StatusCode::FORBIDDEN,
                "Forbidden",
                "Sandbox control endpoints answer loopback only.",
            );
        }
    }
    next.run(req).await
}

async fn health(State(app): State<App>) -> Json<Value> {
    let now = app.now();
    Json(json!({"ok": true, "now": util::iso(now), "nowMs": now}))
}

async fn reset(State(app): State<App>) -> Json<Value> {
    {
        let mut d = app.data();
        let offset = d.clock_offset_ms;
        *d = Data::initial(offset);
    }
    {
        let mut rt = app.runtime();
        rt.rate.clear();
        rt.agents_pace = None;
        rt.chat_pace = None;
        rt.chat_sent.clear();
        rt.chat_reply_chars = None;
    }
    app.touch();
    Json(json!({"ok": true}))
}

#[derive(Deserialize)]
struct AdvanceBody {
    ms: i64,
}

async fn advance_clock(State(app): State<App>, body: Option<Json<AdvanceBody>>) -> Resp {
    let Some(Json(body)) = body else {
        return Err(errors::invalid("Body must be {\"ms\": N}."));
    };
    if body.ms < 0 {
        return Err(errors::invalid(
            "`ms` must be >= 0: the clock never goes back.",
        ));
    }
    let now = {
        let mut d = app.data();
        d.clock_offset_ms += body.ms;
        d.now()
    };
    app.touch();
    Ok(Json(json!({"ok": true, "now": util::iso(now), "nowMs": now})).into_response())
}

#[derive(Deserialize)]
struct KeyBody {
    key: String,
}

async fn rotate_key(State(app): State<App>, body: Option<Json<KeyBody>>) -> Resp {
    let Some(Json(body)) = body else {
        return Err(errors::invalid("Body must be {\"key\": K}."));
    };
    let new_key = {
        let mut d = app.data();
        let now = d.now();
        let Some(user) = d.user_for_key(&body.key).map(|u| u.id.clone()) else {
            return Err(errors::rest(
                StatusCode::NOT_FOUND,
                "Not found",
                "That key is unknown or already expired.",
            ));
        };
        let base = body.key.split("_r").next().unwrap_or(&body.key).to_owned();
        let new_key = format!("{base}_r{}", util::random_hex(12));
        if let Some(old) = d.keys.get_mut(&body.key) {
            let exp = now + ROTATION_GRACE_MS;
            old.expires_at = Some(old.expires_at.map_or(exp, |e| e.min(exp)));
        }
        d.keys.insert(
            new_key.clone(),
            KeyEntry {
                user,
                expires_at: None,
            },
        );
        new_key
    };
    app.touch();
    Ok(Json(json!({"key": new_key})).into_response())
}

#[derive(Deserialize)]
struct CreditsBody {
    key: String,
    credits: f64,
}

async fn set_credits(State(app): State<App>, body: Option<Json<CreditsBody>>) -> Resp {
    let Some(Json(body)) = body else {
        return Err(errors::invalid(
            "Body must be {\"key\": K, \"credits\": N}.",
        ));
    };
    if !body.credits.is_finite() || body.credits < 0.0 {
        return Err(errors::invalid("`credits` must be a number >= 0."));
    }
    {
        let mut d = app.data();
        let Some(uid) = d.user_for_key(&body.key).map(|u| u.id.clone()) else {
            return Err(errors::rest(
                StatusCode::NOT_FOUND,
                "Not found",
                "That key is unknown or expired.",
            ));
        };
        if let Some(u) = d.user_mut(&uid) {
            u.credits = body.credits;
        }
    }
    app.touch();
    Ok(Json(json!({"key": body.key, "credits": body.credits})).into_response())
}

async fn add_fault(State(app): State<App>, body: Option<Json<Fault>>) -> Resp {
    let Some(Json(fault)) = body else {
        return Err(errors::invalid(
            "Body must be {\"match\": {\"method\", \"path\"}, \"times\": N, and one of \"respond\", \"dropStreamAfterEvents\", \"delayMs\"}.",
        ));
    };
    if fault.respond.is_none()
        && fault.drop_stream_after_events.is_none()
        && fault.delay_ms.is_none()
    {
        return Err(errors::invalid(
            "A fault needs one of `respond`, `dropStreamAfterEvents` or `delayMs`.",
        ));
    }
    let n = {
        let mut d = app.data();
        d.faults.push(fault);
        d.faults.len()
    };
    app.touch();
    Ok(Json(json!({"ok": true, "faults": n})).into_response())
}

/// The faults still set, each with the times it has left (a fault used up is gone): a test
/// waits on it to know its requests reached the sandbox.
async fn list_faults(State(app): State<App>) -> Json<Value> {
    Json(json!({"faults": app.data().faults.clone()}))
}

async fn clear_faults(State(app): State<App>) -> Json<Value> {
    app.data().faults.clear();
    app.touch();
    Json(json!({"ok": true}))
}

async fn advance_project(State(app): State<App>, Path(id): Path<String>) -> Resp {
    crate::plans::advance(&app, &id)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PaceBody {
    events_per_second: Option<f64>,
    events_per_task: Option<u32>,
}

/// The pace of new browser-agent batches (benchmarks): `{"eventsPerSecond": N, "eventsPerTask":
/// M}` makes batches submitted from now on emit synthetic events at N a second in all, M per task
/// (default 20), without fetching their pages; running paced batches follow a new rate.
/// `{"eventsPerSecond": null}` (or 0) turns it off, as it is by default and after a reset.
async fn set_pace(State(app): State<App>, body: axum::body::Bytes) -> Resp {
    use crate::agents::{
        DEFAULT_EVENTS_PER_TASK, MAX_EVENTS_PER_SECOND, MAX_EVENTS_PER_TASK, MIN_EVENTS_PER_TASK,
        Pace,
    };
    let Ok(body) = serde_json::from_slice::<PaceBody>(&body) else {
        return Err(errors::invalid(
            "Body must be {\"eventsPerSecond\": N (null or 0 turns pacing off), \"eventsPerTask\": M}.",
        ));
    };
    let pace = match body.events_per_second {
        None => None,
        Some(0.0) => None,
        Some(r) if !r.is_finite() || !(0.0..=MAX_EVENTS_PER_SECOND).contains(&r) => {
            return Err(errors::invalid(&format!(
                "`eventsPerSecond` must be a number from 0 (off) to {MAX_EVENTS_PER_SECOND}."
            )));
        }
        Some(r) => {
            let per_task = body.events_per_task.unwrap_or(DEFAULT_EVENTS_PER_TASK);
            if !(MIN_EVENTS_PER_TASK..=MAX_EVENTS_PER_TASK).contains(&per_task) {
                return Err(errors::invalid(&format!(
                    "`eventsPerTask` must be an integer from {MIN_EVENTS_PER_TASK} to {MAX_EVENTS_PER_TASK}."
                )));
            }
            Some(Pace {
                events_per_second: r,
                events_per_task: per_task,
            })
        }
    };
    app.runtime().agents_pace = pace;
    Ok(pace_view(&app).into_response())
}

async fn pace(State(app): State<App>) -> Json<Value> {
    pace_view(&app)
}

/// The pace in use (nulls when off) and the task events and results paced batches emitted so far.
fn pace_view(app: &App) -> Json<Value> {
    let rt = app.runtime();
    let pace = rt.agents_pace;
    Json(json!({
        "eventsPerSecond": pace.map(|p| p.events_per_second),
        "eventsPerTask": pace.map(|p| p.events_per_task),
        "emitted": rt.paced_emitted,
    }))
}

/// Marker put in a request's extensions: end the response stream after this many events.
#[derive(Debug, Clone, Copy)]
pub struct DropStreamAfter(pub u32);

/// Whether `pattern` (with `*` wildcards) matches `path`.
pub fn path_matches(pattern: &str, path: &str) -> bool {
    if !pattern.contains('*') {
        return pattern == path;
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut rest = path;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(part) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(pos) => rest = &rest[pos + part.len()..],
                None => return false,
            }
        }
    }
    true
}

/// Applies the first matching fault (if any) to a request.
pub async fn faults(State(app): State<App>, mut req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    if path.starts_with("/_sandbox") {
        return next.run(req).await;
    }
    let method = req.method().as_str().to_owned();
    let fault = {
        let mut d = app.data();
        let pos = d.faults.iter().position(|f| {
            f.times > 0
                && f.matcher
                    .method
                    .as_deref()
                    .is_none_or(|m| m.eq_ignore_ascii_case(&method))
                && path_matches(&f.matcher.path, &path)
        });
        pos.map(|i| {
            let f = d.faults[i].clone();
            d.faults[i].times -= 1;
            if d.faults[i].times == 0 {
                d.faults.remove(i);
            }
            f
        })
    };
    let Some(fault) = fault else {
        return next.run(req).await;
    };
    app.touch();
    if let Some(ms) = fault.delay_ms {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    if let Some(respond) = &fault.respond {
        if fault.after_handling {
            // The work is done; only its answer is lost.
            let done = next.run(req).await;
            let _ = axum::body::to_bytes(done.into_body(), usize::MAX).await;
        }
        return fault_response(&path, respond);
    }
    if let Some(n) = fault.drop_stream_after_events {
        req.extensions_mut().insert(DropStreamAfter(n));
    }
    next.run(req).await
}

fn fault_response(path: &str, r: &crate::state::FaultRespond) -> Response {
    let gateway = path.starts_with("/v1/") || path == "/v1";
    let resp = if gateway {
        let status = r
            .status
            .and_then(|s| StatusCode::from_u16(s).ok())
            .or_else(|| r.code.as_deref().map(errors::gateway_status))
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let code = r
            .code
            .clone()
            .unwrap_or_else(|| errors::gateway_code_for(status).to_owned());
        let message = r
            .message
            .clone()
            .unwrap_or_else(|| format!("Sandbox fault: {code}."));
        errors::gateway(status, &code, &message, json!({}))
    } else {
        let status = r
            .status
            .and_then(|s| StatusCode::from_u16(s).ok())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let error = r
            .code
            .clone()
            .unwrap_or_else(|| default_rest_error(path, status).to_owned());
        let message = r
            .message
            .clone()
            .unwrap_or_else(|| "Sandbox fault injected by /_sandbox/faults.".to_owned());
        errors::rest(status, &error, &message)
    };
    match r.retry_after {
        Some(s) => errors::with_retry_after(resp, s),
        None if resp.status() == StatusCode::TOO_MANY_REQUESTS
            || resp.status() == StatusCode::SERVICE_UNAVAILABLE =>
        {
            errors::with_retry_after(resp, 1)
        }
        None => resp,
    }
}

/// The `error` a REST endpoint answers for a status, per the spec's tables.
fn default_rest_error(path: &str, status: StatusCode) -> &'static str {
    match (path, status.as_u16()) {
        ("/get-plan", 500) => "Failed to fetch plan",
        ("/get-plan", 404) => "Not available",
        ("/credits-balance", 500) => "Failed to retrieve credits balance",
        ("/credits-balance", 401) => "Missing context",
        (_, 400) => "Invalid request",
        (_, 401) => "Authentication failed",
        (_, 402) => "Insufficient credits",
        (_, 404) => "Not found",
        (_, 429) => "Too many requests",
        _ => "Internal error",
    }
}

#[cfg(test)]
mod tests {
    use super::path_matches;

    #[test]
    fn globs() {
        assert!(path_matches("/v1/rerank", "/v1/rerank"));
        assert!(!path_matches("/v1/rerank", "/v1/rerankx"));
        assert!(path_matches("/v1/*", "/v1/messages"));
        assert!(path_matches("/api/v1/*/x", "/api/v1/a/b/x"));
        assert!(!path_matches("/api/*/x", "/api/v1/y"));
    }
}
