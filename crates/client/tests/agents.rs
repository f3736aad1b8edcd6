//! Browser agents: submissions (wait, async, stream) with their idempotency key in header and
//! body, reads, list, capacity. Following a batch is in `agents_follow/`.

mod common;

use common::batches::*;
use common::*;
use futures::TryStreamExt;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use specdesk_client::BatchOptions;
use specdesk_client::types::{
    Batch, BatchList, BatchStatus, CapacitySnapshot, StreamFrame, TaskResultFrame, TaskStatus,
};
use wiremock::matchers::{body_json, body_partial_json, header, method, path};
use wiremock::{Mock, MockServer};

#[tokio::test]
async fn run_waits_with_key_in_header_and_body() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .and(header("idempotency-key", "job-42"))
        .and(header("content-type", "application/json"))
        .and(body_json(json!({
            "tasks": tasks_json(),
            "concurrency": 3,
            "idempotencyKey": "job-42"
        })))
        .respond_with(json(fixture("agents/batch-completed")))
        .expect(1)
        .mount(&server)
        .await;

    let c = client(&server);
    let prepared = c.agents().prepare(tasks(), options("job-42")).unwrap();
    assert_eq!(prepared.idempotency_key(), "job-42");
    let batch = c.agents().run(&prepared).await.unwrap();
    assert_eq!(batch, fixture_as::<Batch>("agents/batch-completed"));
    assert_eq!(batch.results[1].status, TaskStatus::Blocked);
    assert_eq!(batch.status, BatchStatus::Completed);
}

#[tokio::test]
async fn start_is_async_and_a_generated_key_is_reused_on_every_send() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .and(body_partial_json(json!({"async": true})))
        .respond_with(json(fixture("agents/batch-accepted")))
        .expect(2)
        .mount(&server)
        .await;

    let c = client(&server);
    let prepared = c
        .agents()
        .prepare(tasks(), BatchOptions::default())
        .unwrap();
    let key = prepared.idempotency_key().to_owned();
    assert_eq!(key.len(), 36, "a UUID: {key}");
    let first = c.agents().start(&prepared).await.unwrap();
    assert_eq!(first.status, BatchStatus::Processing);
    assert_eq!(first.completed, 0);
    assert!(first.results.is_empty());
    c.agents().start(&prepared).await.unwrap();

    let reqs = received(&server).await;
    for req in &reqs {
        assert_eq!(common::header(req, "idempotency-key"), Some(key.as_str()));
        assert_eq!(
            req.body_json::<Value>().unwrap(),
            json!({"tasks": tasks_json(), "async": true, "idempotencyKey": key})
        );
    }
    // Two preparations never share a key.
    let other = c
        .agents()
        .prepare(tasks(), BatchOptions::default())
        .unwrap();
    assert_ne!(other.idempotency_key(), key);
}

#[tokio::test]
async fn stream_posts_stream_true_and_yields_frames_until_done() {
    let server = MockServer::start().await;
    let events = timeline();
    let mut body = String::from(":keepalive\n\n");
    for e in &events[..3] {
        body.push_str(&frame("task_event", e));
    }
    body.push_str(":keepalive\n\n");
    body.push_str(&frame(
        "task_result",
        &json!({"taskIndex": 1, "status": "BLOCKED", "data": null}),
    ));
    body.push_str(&frame("some_future_frame", &json!({"x": 1})));
    body.push_str(&frame("done", &fixture("agents/batch-completed")));
    body.push_str(&frame("task_event", &events[3]));
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .and(header("idempotency-key", "s-1"))
        .and(body_json(json!({"tasks": tasks_json(), "concurrency": 3, "stream": true, "idempotencyKey": "s-1"})))
        .respond_with(sse(body))
        .expect(1)
        .mount(&server)
        .await;

    let c = client(&server);
    let prepared = c.agents().prepare(tasks(), options("s-1")).unwrap();
    let frames: Vec<StreamFrame> = c
        .agents()
        .stream(&prepared)
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let mut expected: Vec<StreamFrame> = events[..3]
        .iter()
        .map(|e| StreamFrame::TaskEvent(event(e)))
        .collect();
    expected.push(StreamFrame::TaskResult(TaskResultFrame {
        task_index: 1,
        status: TaskStatus::Blocked,
        data: None,
    }));
    expected.push(StreamFrame::Done(Box::new(fixture_as(
        "agents/batch-completed",
    ))));
    assert_eq!(
        frames, expected,
        "nothing after done, unknown frames skipped"
    );
}

#[tokio::test]
async fn get_list_and_capacity() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(format!("{BATCHES}/batch_7f3a")))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(fixture("agents/batch-completed")))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(BATCHES))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(fixture("agents/batch-list")))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("{BATCHES}/_system/capacity")))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(fixture("agents/capacity")))
        .expect(1)
        .mount(&server)
        .await;

    let c = client(&server);
    let agents = c.agents();
    assert_eq!(
        agents.get("batch_7f3a", false).await.unwrap(),
        fixture_as::<Batch>("agents/batch-completed")
    );
    agents.get("batch_7f3a", true).await.unwrap();
    let list = agents
        .list(Some(5), Some(10), Some(BatchStatus::Completed))
        .await
        .unwrap();
    assert_eq!(list, fixture_as::<BatchList>("agents/batch-list"));
    agents.list(None, None, None).await.unwrap();
    let capacity = agents.capacity().await.unwrap();
    assert_eq!(capacity, fixture_as::<CapacitySnapshot>("agents/capacity"));
    assert_eq!(capacity.top_users[0].inflight, 7);

    let queries: Vec<(String, Option<String>)> = received(&server)
        .await
        .iter()
        .map(|r| (r.url.path().to_owned(), r.url.query().map(str::to_owned)))
        .collect();
    assert_eq!(
        queries,
        vec![
            (format!("{BATCHES}/batch_7f3a"), None),
            (
                format!("{BATCHES}/batch_7f3a"),
                Some("includeEvents=true".into())
            ),
            (
                BATCHES.to_owned(),
                Some("limit=5&skip=10&status=completed".into())
            ),
            (BATCHES.to_owned(), None),
            (format!("{BATCHES}/_system/capacity"), None),
        ]
    );
}
