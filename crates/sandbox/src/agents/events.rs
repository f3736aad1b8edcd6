//! The event timeline of a batch: recording events and results, broadcasting them, and the
//! `text/event-stream` answer that replays and follows them.

use super::view;
use crate::state::{App, BatchRec};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use specdesk_types::{TaskEvent, TaskEventKind, TaskResult, TaskResultFrame};
use std::convert::Infallible;
use std::time::Duration;

/// One SSE frame of a batch stream.
#[derive(Debug, Clone)]
pub struct Frame {
    pub event: &'static str,
    pub data: String,
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

pub(super) fn event_frame(e: &TaskEvent) -> Frame {
    Frame {
        event: "task_event",
        data: serde_json::to_string(e).unwrap_or_default(),
    }
}

pub(super) fn result_frame(i: usize, r: &TaskResult) -> Frame {
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

pub(super) fn done_frame(b: &BatchRec) -> Frame {
    Frame {
        event: "done",
        data: serde_json::to_string(&view(b, false)).unwrap_or_default(),
    }
}

/// The batch as `text/event-stream`: what happened so far, then live frames, with a `:keepalive`
/// comment line after every `keepalive_ms` of silence.
pub(super) fn sse(app: &App, user: &str, id: &str, drop_after: Option<u32>) -> Response {
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

/// Records an event of task `i` and sends it to live streams.
pub(super) fn emit(app: &App, id: &str, i: usize, kind: TaskEventKind) {
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

/// Records events `(task, kind)` of batch `id` in order and sends them to live streams, under
/// one lock (a paced batch emits many at a time).
pub(super) fn emit_many(app: &App, id: &str, events: Vec<(usize, TaskEventKind)>) {
    if events.is_empty() {
        return;
    }
    let mut d = app.data();
    let now = d.now();
    let Some(b) = d.batches.iter_mut().find(|b| b.id == id) else {
        return;
    };
    let rt = app.runtime();
    let tx = rt.batch_tx.get(id);
    for (i, kind) in events {
        let e = TaskEvent {
            task_index: i as u32,
            timestamp: Some(now as f64),
            kind,
        };
        if let Some(tx) = tx {
            let _ = tx.send(event_frame(&e));
        }
        b.events[i].push(e);
    }
}

/// Records the result of task `i`, charges it, and sends it to live streams.
pub(super) fn finish(app: &App, id: &str, i: usize, r: TaskResult) {
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
