//! Submissions: validation, idempotent replays, admission (in-flight cap, credits, open streams),
//! and the answer in the mode asked for (wait, async or stream).

use super::events::sse;
use super::run::run_batch;
use super::{IDEMPOTENCY_MS, PER_USER_CAP, STREAMS_PER_USER, not_found, view};
use crate::auth;
use crate::control::DropStreamAfter;
use crate::errors::{self, Resp};
use crate::state::{App, BatchRec};
use crate::util;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{Value, json};
use specdesk_types::BatchRequest;
use tokio::sync::broadcast;

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

pub(super) async fn submit(
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
    admit(&app, &user.id, n, stream)?;

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

/// Whether a user may start `n` more tasks (in-flight cap, credits) and, for a stream, open one
/// more stream.
fn admit(app: &App, user: &str, n: usize, stream: bool) -> Result<(), Response> {
    {
        let d = app.data();
        let inflight: usize = d
            .batches
            .iter()
            .filter(|b| b.owner == user)
            .map(BatchRec::inflight)
            .sum();
        if inflight + n > PER_USER_CAP {
            return Err(errors::rest(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many tasks in flight",
                &format!("At most {PER_USER_CAP} tasks may run at once; {inflight} are running."),
            ));
        }
        let credits = d.users.get(user).map(|u| u.credits).unwrap_or(0.0);
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
    if stream && app.runtime().streams.get(user).copied().unwrap_or(0) >= STREAMS_PER_USER {
        return Err(errors::rest(
            StatusCode::TOO_MANY_REQUESTS,
            "Stream capacity reached",
            "Too many open streams: close one, or submit with `async: true` and poll.",
        ));
    }
    Ok(())
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
