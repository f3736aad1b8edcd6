//! The pace of streamed chat replies, for benchmarks: `POST /_sandbox/gateway/pace` with
//! `{"deltaIntervalMs": N}` makes each `/v1/messages` stream started from now on wait N ms before
//! each text delta, and log when it sent each one (wall-clock ms since the Unix epoch, with the
//! reply's characters sent so far). `GET` returns the pace and the log of the latest paced
//! stream; `{"deltaIntervalMs": null}` (or 0) turns pacing off, as it is by default and after a
//! reset. A benchmark compares the log with when the app painted each piece.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::errors::{self, Resp};
use crate::state::App;

/// The longest wait between two deltas.
const MAX_INTERVAL_MS: u64 = 10_000;

pub fn routes() -> Router<App> {
    Router::new().route("/_sandbox/gateway/pace", post(set_pace).get(pace))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PaceBody {
    delta_interval_ms: Option<u64>,
}

async fn set_pace(State(app): State<App>, body: axum::body::Bytes) -> Resp {
    let interval = match serde_json::from_slice::<PaceBody>(&body) {
        Ok(PaceBody {
            delta_interval_ms: None | Some(0),
        }) => None,
        Ok(PaceBody {
            delta_interval_ms: Some(ms),
        }) if ms <= MAX_INTERVAL_MS => Some(Duration::from_millis(ms)),
        _ => {
            return Err(errors::invalid(&format!(
                "Body must be {{\"deltaIntervalMs\": N}}, N from 0 (off) to {MAX_INTERVAL_MS}, or null."
            )));
        }
    };
    {
        let mut rt = app.runtime();
        rt.chat_pace = interval;
        rt.chat_sent.clear();
    }
    Ok(view(&app).into_response())
}

async fn pace(State(app): State<App>) -> Json<Value> {
    view(&app)
}

fn view(app: &App) -> Json<Value> {
    let rt = app.runtime();
    let sent: Vec<Value> = rt
        .chat_sent
        .iter()
        .map(|(at, chars)| json!({"at": at, "chars": chars}))
        .collect();
    Json(json!({
        "deltaIntervalMs": rt.chat_pace.map(|d| d.as_millis() as u64),
        "sent": sent,
    }))
}

/// The pace of a stream starting now (and a fresh log for it), if pacing is on.
pub(super) fn start(app: &App) -> Option<Duration> {
    let mut rt = app.runtime();
    if rt.chat_pace.is_some() {
        rt.chat_sent.clear();
    }
    rt.chat_pace
}

/// Logs a text delta as sent now, `chars` characters of the reply sent in all.
pub(super) fn sent(app: &App, chars: usize) {
    let at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    app.runtime().chat_sent.push((at, chars));
}
