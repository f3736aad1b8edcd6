//! Batch-stream ingestion: events per second through the client's decoder (SSE parsing with
//! stall detection, then typed frames) side by side with eventsource-stream alone on the same
//! bytes. Budget (DESIGN.md): the client keeps at least 0.8x the baseline's events/s.
//!
//! Input: a 1000-task batch, each task with the nine-type timeline and a screenshot in four
//! base64 chunks, then its `task_result`, then one `done` frame; `:keepalive` comments between
//! tasks; delivered in 16 KiB reads as a socket would.

use std::time::Duration;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use eventsource_stream::Eventsource;
use futures::StreamExt;
use serde_json::json;

const TASKS: usize = 1000;
const READ: usize = 16 * 1024;

fn frame(out: &mut String, event: &str, data: serde_json::Value) {
    out.push_str("event: ");
    out.push_str(event);
    out.push_str("\ndata: ");
    out.push_str(&data.to_string());
    out.push_str("\n\n");
}

/// The stream's bytes and the number of frames in it.
fn batch_stream() -> (Vec<Bytes>, u64) {
    let mut s = String::new();
    let mut frames = 0u64;
    let chunk = "iVBORw0KGgoAAAANSUhEUgAA".repeat(64); // ~1.5 KiB of base64 per chunk
    let mut results = Vec::with_capacity(TASKS);
    for i in 0..TASKS {
        let t = 1_700_000_000_000u64 + i as u64 * 100;
        let url = format!("http://127.0.0.1:9/page/{i}");
        let mut ev = |data: serde_json::Value| {
            frame(&mut s, "task_event", data);
            frames += 1;
        };
        ev(json!({"taskIndex": i, "type": "sandbox", "timestamp": t, "status": "starting"}));
        ev(
            json!({"taskIndex": i, "type": "navigation", "timestamp": t + 1, "url": url, "title": "Pricing"}),
        );
        for c in 0..4 {
            ev(
                json!({"taskIndex": i, "type": "screenshot", "timestamp": t + 2, "url": url,
                "mimeType": "image/png", "chunkIndex": c, "chunkCount": 4, "data": chunk}),
            );
        }
        ev(
            json!({"taskIndex": i, "type": "plan", "timestamp": t + 3, "actions": [{"type": "click", "selector": "#buy"}],
            "notes": "Click the buy button", "done": false, "captchaDetected": false}),
        );
        ev(
            json!({"taskIndex": i, "type": "action", "timestamp": t + 4, "actionType": "click", "selector": "#buy", "success": true, "message": "clicked"}),
        );
        ev(json!({"taskIndex": i, "type": "validation", "timestamp": t + 5, "ok": true}));
        ev(
            json!({"taskIndex": i, "type": "done", "timestamp": t + 6, "status": "SUCCESS", "data": {"price": "9.99"}, "durationMs": 1234}),
        );
        frame(
            &mut s,
            "task_result",
            json!({"taskIndex": i, "status": "SUCCESS", "data": {"price": "9.99"}}),
        );
        frames += 1;
        s.push_str(":keepalive\n\n");
        results.push(json!({"url": url, "status": "SUCCESS", "data": {"price": "9.99"}, "cost": 0.01, "creditsUsed": 0.1, "durationMs": 1234}));
    }
    frame(
        &mut s,
        "done",
        json!({"id": "b1", "total": TASKS, "completed": TASKS, "results": results,
        "totalCost": 10.0, "totalCreditsUsed": 100.0, "status": "completed", "createdAt": "2026-11-22T00:00:00Z"}),
    );
    frames += 1;
    let bytes = s.into_bytes();
    let chunks = bytes.chunks(READ).map(Bytes::copy_from_slice).collect();
    (chunks, frames)
}

fn bench(c: &mut Criterion) {
    let (chunks, frames) = batch_stream();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("batch_stream_ingest");
    group.throughput(Throughput::Elements(frames));
    group.sample_size(20);

    group.bench_function("eventsource_stream_alone", |b| {
        b.to_async(&rt).iter(|| {
            let chunks = chunks.clone();
            async move {
                let stream = futures::stream::iter(
                    chunks.into_iter().map(Ok::<_, std::convert::Infallible>),
                );
                let mut events = std::pin::pin!(stream.eventsource());
                let mut n = 0u64;
                while let Some(ev) = events.next().await {
                    std::hint::black_box(ev.expect("event"));
                    n += 1;
                }
                assert_eq!(n, frames);
            }
        })
    });

    group.bench_function("specdesk_client_decoder", |b| {
        b.to_async(&rt).iter(|| {
            let chunks = chunks.clone();
            async move {
                let stream = futures::stream::iter(
                    chunks.into_iter().map(Ok::<_, std::convert::Infallible>),
                );
                let events = specdesk_client::sse_events(stream, Duration::from_secs(30)).boxed();
                let mut decoded = std::pin::pin!(specdesk_client::batch_frames(events));
                let mut n = 0u64;
                while let Some(frame) = decoded.next().await {
                    std::hint::black_box(frame.expect("frame"));
                    n += 1;
                }
                assert_eq!(n, frames);
            }
        })
    });

    group.bench_function("client_sse_layer_only", |b| {
        b.to_async(&rt).iter(|| {
            let chunks = chunks.clone();
            async move {
                let stream = futures::stream::iter(
                    chunks.into_iter().map(Ok::<_, std::convert::Infallible>),
                );
                let mut events =
                    std::pin::pin!(specdesk_client::sse_events(stream, Duration::from_secs(30)));
                let mut n = 0u64;
                while let Some(ev) = events.next().await {
                    std::hint::black_box(ev.expect("event"));
                    n += 1;
                }
                assert_eq!(n, frames);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
