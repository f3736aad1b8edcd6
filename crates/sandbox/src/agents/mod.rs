//! Browser agents: submissions (wait, async, stream), real fetches of each start URL, the outcome
//! rule, the event timeline, idempotency, listing and the capacity snapshot.

mod events;
mod extract;
mod paced;
mod run;
mod status;
mod submit;

pub use events::Frame;
pub use paced::{
    DEFAULT_EVENTS_PER_TASK, MAX_EVENTS_PER_SECOND, MAX_EVENTS_PER_TASK, MIN_EVENTS_PER_TASK, Pace,
};

use crate::errors;
use crate::state::{App, BatchRec, Data};
use crate::util::{self, iso};
use axum::Router;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::Value;
use specdesk_types::{Batch, BatchStatus, BrowserTask, TaskResult, TaskStatus};

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

pub fn routes() -> Router<App> {
    let mut r = Router::new().route("/browser-agent", post(submit::submit));
    for base in ["/api/v1/browser-agents", "/api/v1/browser-tasks"] {
        r = r
            .route(base, post(submit::submit).get(status::list))
            .route(&format!("{base}/_system/capacity"), get(status::capacity))
            .route(&format!("{base}/{{id}}"), get(status::get_batch));
    }
    r
}

/// Marks batch `id` completed and ends its live streams with the `done` frame.
fn complete_batch(app: &App, id: &str) {
    {
        let mut d = app.data();
        let now = d.now();
        if let Some(b) = d.batches.iter_mut().find(|b| b.id == id) {
            b.status = "completed".into();
            b.completed_at = Some(now);
            let f = events::done_frame(b);
            if let Some(tx) = app.runtime().batch_tx.get(id) {
                let _ = tx.send(f);
            }
        }
    }
    app.runtime().batch_tx.remove(id);
    app.touch();
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
