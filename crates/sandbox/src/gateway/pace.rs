//! The pace of streamed chat replies, for benchmarks: `POST /_sandbox/gateway/pace` with
//! `{"deltaIntervalMs": N}` makes each `/v1/messages` stream started from now on wait N ms before
//! each text delta, and log when it sent each one (wall-clock ms since the Unix epoch, with the
//! reply's characters sent so far). `GET` returns the pace and the log of the latest paced
//! stream; `{"deltaIntervalMs": null}` (or 0) turns pacing off, as it is by default and after a
//! reset. `"replyChars": N` (with a pace) lengthens every chat reply to at least N characters of
//! plain sentences (its text on screen is then its markdown, so a benchmark can tell from the
//! page's text which delta is shown). A benchmark compares the log with when the app painted each
//! piece.

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
/// The longest reply `replyChars` may ask for.
const MAX_REPLY_CHARS: usize = 1_000_000;

pub fn routes() -> Router<App> {
    Router::new().route("/_sandbox/gateway/pace", post(set_pace).get(pace))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PaceBody {
    delta_interval_ms: Option<u64>,
    #[serde(default)]
    reply_chars: Option<usize>,
}

async fn set_pace(State(app): State<App>, body: axum::body::Bytes) -> Resp {
    let refused = || {
        errors::invalid(&format!(
            "Body must be {{\"deltaIntervalMs\": N}}, N from 0 (off) to {MAX_INTERVAL_MS}, or null, with an optional \"replyChars\" from 1 to {MAX_REPLY_CHARS}."
        ))
    };
    let Ok(body) = serde_json::from_slice::<PaceBody>(&body) else {
        return Err(refused());
    };
    let interval = match body.delta_interval_ms {
        None | Some(0) => None,
        Some(ms) if ms <= MAX_INTERVAL_MS => Some(Duration::from_millis(ms)),
        Some(_) => return Err(refused()),
    };
    if body
        .reply_chars
        .is_some_and(|n| n == 0 || n > MAX_REPLY_CHARS)
    {
        return Err(refused());
    }
    {
        let mut rt = app.runtime();
        rt.chat_pace = interval;
        rt.chat_sent.clear();
        rt.chat_reply_chars = interval.and(body.reply_chars);
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
        "replyChars": rt.chat_reply_chars,
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

/// The length chat replies are made up to, when a benchmark asked for long ones.
pub(super) fn reply_chars(app: &App) -> Option<usize> {
    app.runtime().chat_reply_chars
}

/// `reply` followed by numbered plain sentences until it holds at least `chars` characters: the
/// same text for the same length every time.
pub(super) fn lengthened(reply: String, chars: usize) -> String {
    let mut count = reply.chars().count();
    let mut out = reply;
    let mut n = 1;
    while count < chars {
        let sentence =
            format!(" Sentence {n} of this long reply goes on with a few plain words to read.");
        count += sentence.chars().count();
        out.push_str(&sentence);
        n += 1;
    }
    out
}
