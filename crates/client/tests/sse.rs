//! Server-sent events: batch frames split at every byte boundary, keepalive comments, stalls
//! (no byte for three keepalive intervals) under a paused clock, and a served stream that goes
//! silent followed by the polling fallback.

mod common;

use std::convert::Infallible;
use std::time::Duration;

use bytes::Bytes;
use common::*;
use futures::{Stream, StreamExt, TryStreamExt, stream};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use specdesk_client::types::{BrowserTask, StreamFrame};
use specdesk_client::{BatchOptions, BatchUpdate, Error, ErrorKind, batch_frames, sse_events};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

const STALL: Duration = Duration::from_secs(30);

fn batch_done() -> Value {
    fixture("agents/batch-completed")
}

/// The data of every frame of a small batch stream, in order, with names.
fn frames_data() -> Vec<(&'static str, Value)> {
    vec![
        (
            "task_event",
            json!({"taskIndex": 0, "type": "sandbox", "timestamp": 1, "status": "starting"}),
        ),
        (
            "task_event",
            json!({"taskIndex": 0, "type": "navigation", "timestamp": 2, "url": "https://shop.example/caf\u{e9}", "title": "Caf\u{e9} \u{2713} \u{2014} \u{65e5}\u{672c}\u{8a9e} \u{1f600}"}),
        ),
        (
            "task_event",
            json!({"taskIndex": 0, "type": "screenshot", "timestamp": 3, "mimeType": "image/jpeg", "chunkIndex": 0, "chunkCount": 2, "data": "/9j/4AAQSkZJRg=="}),
        ),
        (
            "task_event",
            json!({"taskIndex": 0, "type": "screenshot", "timestamp": 4, "mimeType": "image/jpeg", "chunkIndex": 1, "chunkCount": 2, "data": "AAEC/9k="}),
        ),
        (
            "task_event",
            json!({"taskIndex": 1, "type": "click", "timestamp": 5, "selector": "#buy", "success": true}),
        ),
        (
            "task_result",
            json!({"taskIndex": 1, "status": "BLOCKED", "data": null}),
        ),
        (
            "task_event",
            json!({"taskIndex": 0, "type": "done", "timestamp": 6, "status": "SUCCESS", "data": {"price": 129}, "durationMs": 5230}),
        ),
        (
            "task_result",
            json!({"taskIndex": 0, "status": "SUCCESS", "data": {"price": 129}}),
        ),
        ("done", batch_done()),
    ]
}

fn expected_frames() -> Vec<StreamFrame> {
    frames_data()
        .into_iter()
        .map(|(name, data)| {
            StreamFrame::decode(name, &data.to_string())
                .unwrap()
                .unwrap()
        })
        .collect()
}

/// The wire bytes of the stream, with keepalive comments, a retry field, an id and an unknown
/// frame between the real ones; `eol` is the line ending.
fn wire(eol: &str) -> Vec<u8> {
    let mut out = String::new();
    out.push_str(&format!(":keepalive{eol}{eol}retry: 3000{eol}{eol}"));
    for (i, (name, data)) in frames_data().into_iter().enumerate() {
        if i == 2 {
            out.push_str(&format!(":keepalive{eol}{eol}"));
        }
        if i == 4 {
            out.push_str(&format!(
                "event: future_frame{eol}data: {{\"x\": 1}}{eol}{eol}"
            ));
        }
        out.push_str(&format!(
            "id: {i}{eol}event: {name}{eol}data: {data}{eol}{eol}"
        ));
    }
    out.into_bytes()
}

/// Decodes `chunks` with the client's SSE parser and batch-frame decoder.
async fn decode(chunks: Vec<Vec<u8>>) -> Result<Vec<StreamFrame>, Error> {
    let bytes = stream::iter(
        chunks
            .into_iter()
            .map(|c| Ok::<Bytes, Infallible>(Bytes::from(c))),
    );
    batch_frames(sse_events(bytes, STALL).boxed())
        .try_collect()
        .await
}

#[tokio::test]
async fn frames_split_at_every_byte_boundary() {
    let expected = expected_frames();
    // (A bare CR line ending, which the SSE standard also allows, is not read by
    // eventsource-stream; no server of this service sends one.)
    for eol in ["\n", "\r\n"] {
        let bytes = wire(eol);
        for at in 0..=bytes.len() {
            let (a, b) = bytes.split_at(at);
            let got = decode(vec![a.to_vec(), b.to_vec()])
                .await
                .unwrap_or_else(|e| panic!("split at {at} ({eol:?}): {e}"));
            assert_eq!(got, expected, "split at {at} ({eol:?})");
        }
    }
}

#[tokio::test]
async fn frames_one_byte_at_a_time() {
    let bytes = wire("\r\n");
    let chunks = bytes.iter().map(|b| vec![*b]).collect();
    assert_eq!(decode(chunks).await.unwrap(), expected_frames());
}

#[tokio::test]
async fn a_stream_of_only_keepalives_then_end_is_an_early_end() {
    let err = decode(vec![b":keepalive\n\n:keepalive\n\n".to_vec()])
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Stream);
    assert_eq!(
        err.to_string(),
        "The live connection ended before the batch finished."
    );
}

#[tokio::test]
async fn nothing_after_done_is_read() {
    let mut bytes = wire("\n");
    bytes.extend_from_slice(b"event: task_event\ndata: {not json\n\n");
    assert_eq!(decode(vec![bytes]).await.unwrap(), expected_frames());
}

#[tokio::test]
async fn an_unreadable_frame_is_a_stream_error() {
    let err = decode(vec![
        b"event: task_result\ndata: {\"taskIndex\": \"x\"}\n\n".to_vec(),
    ])
    .await
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Stream);
    assert!(
        err.to_string()
            .starts_with("The live connection sent a task_result frame Specdesk could not read: "),
        "{err}"
    );
}

#[tokio::test]
async fn a_transport_error_mid_stream_ends_it() {
    #[derive(Debug)]
    struct Reset;
    impl std::fmt::Display for Reset {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("connection reset")
        }
    }
    let first = frame("task_event", &frames_data()[0].1).into_bytes();
    let bytes = stream::iter(vec![Ok(Bytes::from(first)), Err(Reset)]);
    let items: Vec<_> = batch_frames(sse_events(bytes, STALL).boxed())
        .collect()
        .await;
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    let err = items[1].as_ref().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Stream);
    assert_eq!(
        err.to_string(),
        "The live connection broke: connection reset."
    );
}

// ---- stalls, with a paused clock ----

#[tokio::test(start_paused = true)]
async fn a_silent_stream_stalls_after_three_keepalive_intervals() {
    let started = Instant::now();
    let bytes = stream::pending::<Result<Bytes, Infallible>>();
    let items: Vec<_> = sse_events(bytes, STALL).collect().await;
    assert_eq!(started.elapsed(), STALL);
    assert_eq!(items.len(), 1);
    let err = items[0].as_ref().unwrap_err();
    assert!(matches!(err, Error::Stream { .. }));
    assert_eq!(
        err.to_string(),
        "The live connection went silent for 30 seconds."
    );
}

/// `n` keepalives `every` apart, then silence.
fn keepalives_then_silence(
    n: usize,
    every: Duration,
) -> impl Stream<Item = Result<Bytes, Infallible>> + Send + 'static {
    stream::unfold(0, move |i| async move {
        if i == n {
            return None;
        }
        tokio::time::sleep(every).await;
        Some((Ok(Bytes::from_static(b":keepalive\n\n")), i + 1))
    })
    .chain(stream::pending())
}

#[tokio::test(start_paused = true)]
async fn keepalives_hold_the_stream_open_and_the_stall_counts_from_the_last_byte() {
    let started = Instant::now();
    let first = frame("task_event", &frames_data()[0].1).into_bytes();
    let bytes = stream::iter(vec![Ok(Bytes::from(first))])
        .chain(keepalives_then_silence(5, Duration::from_secs(10)));
    let mut frames = std::pin::pin!(batch_frames(sse_events(bytes, STALL).boxed()));
    let one = frames.next().await.unwrap().unwrap();
    assert_eq!(one, expected_frames()[0]);
    assert_eq!(started.elapsed(), Duration::ZERO);
    let err = frames.next().await.unwrap().unwrap_err();
    // Five keepalives 10 s apart, then 30 s of silence.
    assert_eq!(started.elapsed(), Duration::from_secs(80));
    assert_eq!(err.kind(), ErrorKind::Stream);
    assert!(frames.next().await.is_none());
}

#[tokio::test(start_paused = true)]
async fn a_keepalive_just_inside_the_window_keeps_the_stream_alive() {
    let started = Instant::now();
    let bytes = keepalives_then_silence(3, STALL - Duration::from_millis(1));
    let items: Vec<_> = sse_events(bytes, STALL).collect().await;
    assert_eq!(items.len(), 1, "no event, one stall error");
    assert_eq!(
        started.elapsed(),
        (STALL - Duration::from_millis(1)) * 3 + STALL
    );
}

// ---- served streams ----

/// The task every batch here runs.
fn grinder() -> BrowserTask {
    common::batches::task("https://shop.example/grinder")
}

#[tokio::test]
async fn a_served_stream_decodes_like_the_in_memory_one() {
    for eol in ["\n", "\r\n"] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/api/v1/browser-agents"))
            .respond_with(sse(String::from_utf8(wire(eol)).unwrap()))
            .expect(1)
            .mount(&server)
            .await;
        let c = client(&server);
        let batch = c
            .agents()
            .prepare(vec![grinder()], BatchOptions::default())
            .unwrap();
        let frames: Vec<StreamFrame> = c
            .agents()
            .stream(&batch)
            .await
            .unwrap()
            .try_collect()
            .await
            .unwrap();
        assert_eq!(frames, expected_frames());
    }
}

/// A one-route HTTP/1.1 server that answers a streaming submission with response headers and
/// `frames`, then keeps the connection open without sending another byte; the async
/// re-submission and the batch read are answered from `batch` (the full timeline).
async fn silent_stream_server(frames: String, accepted: Value, batch: Value) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // Read the head, then the body by Content-Length.
            let (head, body) = loop {
                let n = sock.read(&mut chunk).await.unwrap();
                assert!(n > 0, "client closed early");
                buf.extend_from_slice(&chunk[..n]);
                if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8(buf[..at].to_vec()).unwrap();
                    let len = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length: ")
                                .map(|v| v.trim().parse::<usize>().unwrap())
                        })
                        .unwrap_or(0);
                    while buf.len() < at + 4 + len {
                        let n = sock.read(&mut chunk).await.unwrap();
                        buf.extend_from_slice(&chunk[..n]);
                    }
                    break (head, String::from_utf8(buf[at + 4..].to_vec()).unwrap());
                }
            };
            let json_answer = |v: &Value| {
                let body = v.to_string();
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                )
            };
            if head.starts_with("POST ") && body.contains("\"stream\":true") {
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\r\n{frames}"
                );
                sock.write_all(answer.as_bytes()).await.unwrap();
                held.push(sock); // silent from now on
            } else if head.starts_with("POST ") {
                sock.write_all(json_answer(&accepted).as_bytes())
                    .await
                    .unwrap();
            } else {
                assert!(
                    head.starts_with("GET /api/v1/browser-agents/batch_7f3a?includeEvents=true "),
                    "{head}"
                );
                sock.write_all(json_answer(&batch).as_bytes())
                    .await
                    .unwrap();
            }
        }
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn follow_falls_back_to_polling_when_a_served_stream_goes_silent() {
    let events: Vec<Value> = vec![
        json!({"taskIndex": 0, "type": "sandbox", "timestamp": 1, "status": "starting"}),
        json!({"taskIndex": 0, "type": "navigation", "timestamp": 2, "url": "https://shop.example/grinder", "title": "Grinder"}),
        json!({"taskIndex": 0, "type": "done", "timestamp": 3, "status": "SUCCESS", "data": {"price": 129}, "durationMs": 30}),
    ];
    let mut sent = String::from(":keepalive\n\n");
    sent.push_str(&frame("task_event", &events[0]));
    let batch = json!({
        "id": "batch_7f3a", "total": 1, "completed": 1,
        "results": [{
            "url": "https://shop.example/grinder", "status": "SUCCESS", "data": {"price": 129},
            "cost": 0.01, "creditsUsed": 0.1, "durationMs": 30, "events": events
        }],
        "totalCost": 0.01, "totalCreditsUsed": 0.1, "status": "completed",
        "createdAt": "2026-11-22T08:00:00.000Z", "completedAt": "2026-11-22T08:00:01.000Z"
    });
    let base = silent_stream_server(sent, fixture("agents/batch-accepted"), batch.clone()).await;

    // Real time, a short keepalive: the stream stalls after 3 x 100 ms without a byte.
    let mut cfg = specdesk_client::ClientConfig::new(&base)
        .unwrap()
        .with_api_key(KEY.to_owned());
    cfg.keepalive = Duration::from_millis(100);
    cfg.job_poll_interval = Duration::ZERO;
    let c = specdesk_client::Client::new(cfg).unwrap();
    let prepared = c
        .agents()
        .prepare(vec![grinder()], BatchOptions::default())
        .unwrap();
    let updates: Vec<BatchUpdate> = c.agents().follow(&prepared).try_collect().await.unwrap();

    let ev = |v: &Value| BatchUpdate::Event(serde_json::from_value(v.clone()).unwrap());
    let Some(BatchUpdate::Polling { reason, .. }) = updates.get(1) else {
        panic!("{updates:?}")
    };
    assert!(
        reason.starts_with("The live connection went silent for "),
        "{reason}"
    );
    let reason = reason.clone();
    assert_eq!(
        updates,
        vec![
            ev(&events[0]),
            BatchUpdate::Polling {
                batch_id: "batch_7f3a".into(),
                reason,
            },
            ev(&events[1]),
            ev(&events[2]),
            BatchUpdate::Result(specdesk_client::types::TaskResultFrame {
                task_index: 0,
                status: specdesk_client::types::TaskStatus::Success,
                data: Some(json!({"price": 129})),
            }),
            BatchUpdate::Done(Box::new(serde_json::from_value(batch).unwrap())),
        ]
    );
}
