//! Following a browser batch (`follow`, `follow_batch`): a dropped stream resumed by polling,
//! then the live stream again, skipping what its replay repeats; every event and result once.

#[path = "../common/mod.rs"]
mod common;
mod paced;

use std::time::Duration;

use common::batches::*;
use common::*;
use futures::{StreamExt, TryStreamExt};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use specdesk_client::types::{TaskEvent, TaskResultFrame, TaskStatus};
use specdesk_client::{BatchUpdate, ErrorKind};
use wiremock::matchers::{body_json, header, method, path, query_param, query_param_is_missing};
use wiremock::{Mock, MockServer};

fn events_of(task: u64, upto: usize) -> Vec<Value> {
    timeline()
        .into_iter()
        .filter(|e| e["taskIndex"] == task)
        .take(upto)
        .collect()
}

/// `GET /{id}?includeEvents=true` with `task0` events of task 0 (all of task 1).
fn polled(status: &str, task0: usize) -> Value {
    let done = status == "completed";
    json!({
        "id": "batch_7f3a",
        "total": 2,
        "completed": if done { 2 } else { 1 },
        "results": [
            {
                "url": "https://shop.example/grinder",
                "status": if done { "SUCCESS" } else { "RUNNING" },
                "data": if done { json!({"price": 129.0}) } else { Value::Null },
                "cost": 0.042, "creditsUsed": 0.42, "durationMs": 600,
                "events": events_of(0, task0)
            },
            {
                "url": "https://shop.example/login",
                "status": "BLOCKED", "data": null, "cost": 0.004, "creditsUsed": 0.1, "durationMs": 200,
                "error": "HTTP 403",
                "events": events_of(1, 99)
            }
        ],
        "totalCost": 0.046,
        "totalCreditsUsed": 0.52,
        "status": status,
        "createdAt": "2026-11-22T08:00:00.000Z"
    })
}

/// The `stream: true` submission of the two tasks with idempotency key `key`.
fn stream_request(key: &str) -> Value {
    json!({"tasks": tasks_json(), "concurrency": 3, "stream": true, "idempotencyKey": key})
}

/// A live send with key `key` answered once by the stream `first` (which drops before `done`),
/// then the fallback: the same submission, async, same key, answered with the batch.
async fn mount_dropped_start(server: &MockServer, key: &str, first: String) {
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .and(header("idempotency-key", key))
        .and(body_json(stream_request(key)))
        .respond_with(sse(first))
        .up_to_n_times(1)
        .expect(1)
        .mount(server)
        .await;
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .and(header("idempotency-key", key))
        .and(body_json(
            json!({"tasks": tasks_json(), "concurrency": 3, "async": true, "idempotencyKey": key}),
        ))
        .respond_with(json(fixture("agents/batch-accepted")))
        .expect(1)
        .mount(server)
        .await;
}

/// Two polls of batch_7f3a with its events, each answered once: `first`, then the batch completed.
async fn mount_polls(server: &MockServer, first: Value) {
    Mock::given(method("GET"))
        .and(path(format!("{BATCHES}/batch_7f3a")))
        .and(query_param("includeEvents", "true"))
        .respond_with(json(first))
        .up_to_n_times(1)
        .expect(1)
        .mount(server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("{BATCHES}/batch_7f3a")))
        .and(query_param("includeEvents", "true"))
        .respond_with(json(polled("completed", 99)))
        .expect(1)
        .mount(server)
        .await;
}

#[tokio::test]
async fn follow_resumes_a_dropped_stream_by_polling_without_loss_or_duplicates() {
    let server = MockServer::start().await;
    let all = timeline();
    // The stream: five events, task 1's result, one more event, then the connection ends
    // without `done`.
    let mut body = String::new();
    for e in &all[..5] {
        body.push_str(&frame("task_event", e));
    }
    body.push_str(":keepalive\n\n");
    body.push_str(&frame(
        "task_result",
        &json!({"taskIndex": 1, "status": "BLOCKED", "data": null}),
    ));
    body.push_str(&frame("task_event", &all[5]));
    body.push_str("event: task_event\ndata: {\"taskIndex\": 0, \"ty"); // cut mid-frame
    mount_dropped_start(&server, "follow-1", body).await;
    mount_polls(&server, polled("processing", 4)).await;

    let c = client_with(&server, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let prepared = c.agents().prepare(tasks(), options("follow-1")).unwrap();
    let updates: Vec<BatchUpdate> = c.agents().follow(&prepared).try_collect().await.unwrap();

    let ev = |i: usize| BatchUpdate::Event(event(&all[i]));
    let (polling_at, reason) = updates
        .iter()
        .enumerate()
        .find_map(|(i, u)| match u {
            BatchUpdate::Polling { batch_id, reason } => {
                assert_eq!(batch_id, "batch_7f3a");
                Some((i, reason.clone()))
            }
            _ => None,
        })
        .expect("one Polling update");
    assert!(!reason.is_empty());
    let expected = vec![
        ev(0),
        ev(1),
        ev(2),
        ev(3),
        ev(4),
        BatchUpdate::Result(TaskResultFrame {
            task_index: 1,
            status: TaskStatus::Blocked,
            data: None,
        }),
        ev(5),
        BatchUpdate::Polling {
            batch_id: "batch_7f3a".into(),
            reason,
        },
        ev(6),
        ev(7),
        ev(8),
        ev(9),
        BatchUpdate::Result(TaskResultFrame {
            task_index: 0,
            status: TaskStatus::Success,
            data: Some(json!({"price": 129.0})),
        }),
        BatchUpdate::Done(Box::new(
            serde_json::from_value(polled("completed", 99)).unwrap(),
        )),
    ];
    assert_eq!(polling_at, 7);
    assert_eq!(updates, expected);

    // Every event of the timeline exactly once.
    let delivered: Vec<TaskEvent> = updates
        .iter()
        .filter_map(|u| match u {
            BatchUpdate::Event(e) => Some(e.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(delivered, all.iter().map(event).collect::<Vec<_>>());
}

/// A live batch whose first stream ends after five events, task 1's result and one more event;
/// polled twice (task 0 at four events), then sent again with `stream: true`, answered with
/// `again`; polled once more, finished, if that stream is left. The updates `follow` yields.
async fn follow_then_stream_again(again: String) -> Vec<BatchUpdate> {
    let server = MockServer::start().await;
    let all = timeline();
    let mut first = String::new();
    for e in &all[..5] {
        first.push_str(&frame("task_event", e));
    }
    first.push_str(&frame(
        "task_result",
        &json!({"taskIndex": 1, "status": "BLOCKED", "data": null}),
    ));
    first.push_str(&frame("task_event", &all[5]));
    mount_dropped_start(&server, "live-again", first).await;
    Mock::given(method("GET"))
        .and(path(format!("{BATCHES}/batch_7f3a")))
        .and(query_param("includeEvents", "true"))
        .respond_with(json(polled("processing", 4)))
        .up_to_n_times(2)
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("{BATCHES}/batch_7f3a")))
        .and(query_param("includeEvents", "true"))
        .respond_with(json(polled("completed", 99)))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .and(body_json(stream_request("live-again")))
        .respond_with(sse(again))
        .expect(1)
        .mount(&server)
        .await;
    let c = client_with(&server, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let prepared = c.agents().prepare(tasks(), options("live-again")).unwrap();
    c.agents().follow(&prepared).try_collect().await.unwrap()
}

/// What `follow_then_stream_again` yields before its second stream, then `rest`.
fn dropped_then(rest: Vec<BatchUpdate>) -> Vec<BatchUpdate> {
    let all = timeline();
    let ev = |i: usize| BatchUpdate::Event(event(&all[i]));
    let mut out = vec![
        ev(0),
        ev(1),
        ev(2),
        ev(3),
        ev(4),
        BatchUpdate::Result(TaskResultFrame {
            task_index: 1,
            status: TaskStatus::Blocked,
            data: None,
        }),
        ev(5),
        BatchUpdate::Polling {
            batch_id: "batch_7f3a".into(),
            reason: "The live connection ended before the batch finished.".into(),
        },
        ev(6),
    ];
    out.extend(rest);
    out
}

/// Task 0's last events, its result and the finished batch.
fn task0_to_the_end() -> Vec<BatchUpdate> {
    let all = timeline();
    let mut out: Vec<BatchUpdate> = all[7..]
        .iter()
        .map(|e| BatchUpdate::Event(event(e)))
        .collect();
    out.push(BatchUpdate::Result(TaskResultFrame {
        task_index: 0,
        status: TaskStatus::Success,
        data: Some(json!({"price": 129.0})),
    }));
    out.push(BatchUpdate::Done(Box::new(
        serde_json::from_value(polled("completed", 99)).unwrap(),
    )));
    out
}

#[tokio::test]
async fn follow_goes_back_to_the_live_stream_after_polling_and_skips_what_it_replays() {
    let all = timeline();
    // The service replays the batch task by task (task 0's four events, task 1's events and
    // result), then goes on live to `done`.
    let mut again = String::new();
    for e in events_of(0, 4).iter().chain(&events_of(1, 99)) {
        again.push_str(&frame("task_event", e));
    }
    again.push_str(&frame(
        "task_result",
        &json!({"taskIndex": 1, "status": "BLOCKED", "data": null}),
    ));
    for e in &all[7..] {
        again.push_str(&frame("task_event", e));
    }
    again.push_str(&frame(
        "task_result",
        &json!({"taskIndex": 0, "status": "SUCCESS", "data": {"price": 129.0}}),
    ));
    again.push_str(&frame("done", &polled("completed", 99)));
    let mut rest = vec![BatchUpdate::Live {
        batch_id: "batch_7f3a".into(),
    }];
    rest.extend(task0_to_the_end());
    assert_eq!(follow_then_stream_again(again).await, dropped_then(rest));
}

#[tokio::test]
async fn a_stream_opened_again_that_does_not_replay_is_left_for_polling_and_loses_nothing() {
    let all = timeline();
    // Only what came since: its events cannot be told from replayed ones, and its `done` comes
    // before task 0's four delivered events were repeated, so the stream is left (never "live")
    // and the poll reads the rest.
    let mut again = String::new();
    for e in &all[7..] {
        again.push_str(&frame("task_event", e));
    }
    again.push_str(&frame("done", &polled("completed", 99)));
    assert_eq!(
        follow_then_stream_again(again).await,
        dropped_then(task0_to_the_end())
    );
}

#[tokio::test]
async fn follow_with_a_complete_stream_never_polls() {
    let server = MockServer::start().await;
    let all = timeline();
    let mut body = String::new();
    for e in &all {
        body.push_str(&frame("task_event", e));
    }
    body.push_str(&frame("done", &fixture("agents/batch-completed")));
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .respond_with(sse(body))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(&server);
    let prepared = c.agents().prepare(tasks(), options("k")).unwrap();
    let updates: Vec<BatchUpdate> = c.agents().follow(&prepared).try_collect().await.unwrap();
    assert_eq!(updates.len(), all.len() + 1);
    assert!(matches!(updates.last(), Some(BatchUpdate::Done(_))));
    assert!(
        !updates
            .iter()
            .any(|u| matches!(u, BatchUpdate::Polling { .. }))
    );
}

#[tokio::test]
async fn follow_surfaces_a_refused_submission() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .respond_with(json_status(
            402,
            json!({"error": "Insufficient credits", "message": "This batch needs 2 credits", "actionUrl": "https://svc.example/billing"}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(&server);
    let prepared = c.agents().prepare(tasks(), options("k")).unwrap();
    let updates: Vec<_> = c.agents().follow(&prepared).collect().await;
    assert_eq!(updates.len(), 1);
    let err = updates[0].as_ref().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InsufficientCredits);
    assert_eq!(err.action_url(), Some("https://svc.example/billing"));
}

#[tokio::test]
async fn follow_batch_polls_an_existing_batch_from_the_start() {
    let server = MockServer::start().await;
    mount_polls(&server, polled("processing", 2)).await;
    let c = client_with(&server, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let updates: Vec<BatchUpdate> = c
        .agents()
        .follow_batch("batch_7f3a")
        .try_collect()
        .await
        .unwrap();

    let t0: Vec<BatchUpdate> = events_of(0, 99)
        .iter()
        .map(|e| BatchUpdate::Event(event(e)))
        .collect();
    let t1: Vec<BatchUpdate> = events_of(1, 99)
        .iter()
        .map(|e| BatchUpdate::Event(event(e)))
        .collect();
    let mut expected = Vec::new();
    // First poll: task 0's first two events, task 1's whole timeline and its result.
    expected.extend_from_slice(&t0[..2]);
    expected.extend_from_slice(&t1);
    expected.push(BatchUpdate::Result(TaskResultFrame {
        task_index: 1,
        status: TaskStatus::Blocked,
        data: None,
    }));
    // Second poll: the rest of task 0, its result, done.
    expected.extend_from_slice(&t0[2..]);
    expected.push(BatchUpdate::Result(TaskResultFrame {
        task_index: 0,
        status: TaskStatus::Success,
        data: Some(json!({"price": 129.0})),
    }));
    expected.push(BatchUpdate::Done(Box::new(
        serde_json::from_value(polled("completed", 99)).unwrap(),
    )));
    assert_eq!(updates, expected);
}
