//! The feed (every event once across follower restarts, readers that never miss one), frames
//! (coalesced, in order, none lost) and kept timelines (screenshots as files, no input values).

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use specdesk_types::{Batch, TaskEvent, TaskResultFrame};

use super::feed::{BatchFeeds, Feed};
use super::{frames, timeline};
use crate::events::BatchEvent;

fn event(task: u32, n: u32) -> BatchEvent {
    let event: TaskEvent = serde_json::from_value(json!({
        "taskIndex": task, "timestamp": f64::from(n), "type": "navigation",
        "url": format!("https://example.com/{task}/{n}"), "title": format!("Step {n}"),
    }))
    .unwrap();
    BatchEvent::TaskEvent { event }
}

fn result(task: u32) -> BatchEvent {
    let result: TaskResultFrame =
        serde_json::from_value(json!({"taskIndex": task, "status": "SUCCESS", "data": null}))
            .unwrap();
    BatchEvent::TaskResult { result }
}

fn batch(input_value: &str) -> Batch {
    serde_json::from_value(json!({
        "id": "batch_1", "total": 1, "completed": 1, "totalCost": 0.01, "totalCreditsUsed": 0.1,
        "status": "completed", "createdAt": "2026-11-25T10:00:00Z",
        "results": [{
            "url": "https://example.com/login", "input": {"password": input_value},
            "status": "SUCCESS", "cost": 0.01, "creditsUsed": 0.1, "durationMs": 1200.0,
            "events": [{"taskIndex": 0, "type": "sandbox", "status": "starting"}],
        }],
    }))
    .unwrap()
}

/// The finished batch as a feed ends with it: no input values, no timelines in its results.
fn done() -> BatchEvent {
    let mut batch = batch("");
    batch.results[0].events = None;
    BatchEvent::Done {
        batch: Box::new(batch),
    }
}

#[test]
fn a_feed_ended_with_a_finished_batch_holds_none_of_its_input_values_nor_its_timelines() {
    // As a batch run elsewhere ends (`follow_into`): the service echoes each task's input.
    let feed = BatchFeeds::default().open("job-2");
    feed.end(BatchEvent::Done {
        batch: Box::new(batch("hunter2")),
    });
    assert_eq!(feed.events(), [done()]);
}

#[tokio::test]
async fn a_follower_that_starts_again_adds_only_what_the_feed_lacks() {
    let feeds = BatchFeeds::default();
    let feed = feeds.open("job-1");
    feeds.alias("batch_1", &feed);
    let mut first = feed.writer();
    first.publish(event(0, 1));
    first.publish(event(1, 1));
    first.publish(event(0, 2));
    // The first run stops (a network error); the next reads the timeline from its start.
    let mut again = feeds.get("batch_1").unwrap().writer();
    for e in [
        event(0, 1),
        event(1, 1),
        event(0, 2),
        event(0, 3),
        result(0),
    ] {
        again.publish(e);
    }
    again.publish(result(0));
    again.publish(event(1, 2));
    again.publish(done());
    again.publish(event(1, 3));
    assert_eq!(
        feed.events(),
        [
            event(0, 1),
            event(1, 1),
            event(0, 2),
            event(0, 3),
            result(0),
            event(1, 2),
            done()
        ]
    );
    feeds.close(&feed);
    assert!(feeds.get("job-1").is_none() && feeds.get("batch_1").is_none());
}

#[tokio::test]
async fn a_reader_gets_everything_from_the_start_then_what_comes_then_the_end() {
    let feed = Arc::new(Feed::default());
    let mut writer = feed.writer();
    writer.publish(event(0, 1));
    let mut reader = feed.reader();
    assert_eq!(reader.next().await, Some(vec![event(0, 1)]));
    let waiting = tokio::spawn(async move {
        let mut got = Vec::new();
        while let Some(frame) = reader.next().await {
            got.push(frame);
        }
        got
    });
    tokio::task::yield_now().await;
    writer.publish(event(0, 2));
    writer.publish(done());
    let got = waiting.await.unwrap().concat();
    assert_eq!(got, [event(0, 2), done()]);
}

#[tokio::test(start_paused = true)]
async fn frames_carry_every_event_once_in_order_at_most_one_per_frame() {
    let feed = Arc::new(Feed::default());
    let mut writer = feed.writer();
    let published: Vec<BatchEvent> = (0..1000).map(|n| event(n % 10, n / 10)).collect();
    let to_publish = published.clone();
    let publisher = tokio::spawn(async move {
        for e in to_publish {
            writer.publish(e);
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        writer.publish(done());
    });
    let start = tokio::time::Instant::now();
    let mut sent: Vec<(Duration, Vec<BatchEvent>)> = Vec::new();
    let outcome = frames::in_frames(feed.reader(), frames::FRAME, |frame| {
        sent.push((start.elapsed(), frame));
    })
    .await;
    publisher.await.unwrap();
    assert_eq!(outcome.unwrap().id, "batch_1");
    let all: Vec<BatchEvent> = sent.iter().flat_map(|(_, f)| f.clone()).collect();
    assert_eq!(
        all, published,
        "every event once, in order; the done is the caller's"
    );
    for pair in sent.windows(2) {
        assert!(
            pair[1].0 - pair[0].0 >= frames::FRAME,
            "{:?}",
            (pair[0].0, pair[1].0)
        );
    }
    // 1000 events over about a second: about 60 messages, never one per event.
    assert!(sent.len() <= 1000 / 16 + 2, "{} messages", sent.len());
}

#[tokio::test(start_paused = true)]
async fn a_watcher_that_joins_late_gets_the_timeline_in_pages_a_frame_apart() {
    let feed = Arc::new(Feed::default());
    let mut writer = feed.writer();
    let published: Vec<BatchEvent> = (0..1200).map(|n| event(n % 10, n / 10)).collect();
    for e in &published {
        writer.publish(e.clone());
    }
    writer.publish(done());
    let start = tokio::time::Instant::now();
    let mut sent: Vec<(Duration, usize)> = Vec::new();
    let mut all = Vec::new();
    frames::in_frames(feed.reader(), frames::FRAME, |page| {
        sent.push((start.elapsed(), page.len()));
        all.extend(page);
    })
    .await
    .unwrap();
    assert_eq!(all, published, "every event once, in order");
    assert_eq!(
        sent.iter().map(|(_, n)| *n).collect::<Vec<_>>(),
        [frames::REPLAY_CHUNK, frames::REPLAY_CHUNK, 200]
    );
    for pair in sent.windows(2) {
        assert!(pair[1].0 - pair[0].0 >= frames::FRAME, "{pair:?}");
    }
}

#[test]
fn a_kept_timeline_holds_screenshots_as_files_and_no_input_value() {
    let dir = tempfile::tempdir().unwrap();
    let png = [0x89u8, b'P', b'N', b'G', 1, 2, 3, 4, 5, 6, 7, 8];
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(png);
    let (a, b) = b64.split_at(6);
    let chunk = |i: u32, data: &str| {
        let event: TaskEvent = serde_json::from_value(json!({
            "taskIndex": 0, "timestamp": 5.0, "type": "screenshot", "url": "https://example.com/login",
            "mimeType": "image/png", "chunkIndex": i, "chunkCount": 2, "data": data,
        }))
        .unwrap();
        BatchEvent::TaskEvent { event }
    };
    let plan: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "type": "plan", "notes": "Sign in",
        "actions": [{"type": "fill", "selector": "#password", "value": "hunter2-secret"}],
    }))
    .unwrap();
    let events = vec![
        event(0, 1),
        chunk(0, a),
        event(1, 1),
        chunk(1, b),
        BatchEvent::TaskEvent { event: plan },
        result(0),
        done(),
    ];
    let kept = batch("hunter2-secret");
    let path = timeline::store(dir.path(), &kept, &events).unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("hunter2-secret"), "{text}");
    assert!(!text.contains(&b64), "the screenshot is a file, not base64");
    assert_eq!(
        std::fs::read(dir.path().join("batch_1").join("shot-0-1.png")).unwrap(),
        png
    );

    let back = timeline::load(dir.path(), "batch_1").unwrap();
    let whole: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "timestamp": 5.0, "type": "screenshot", "url": "https://example.com/login",
        "mimeType": "image/png", "chunkIndex": 0, "chunkCount": 1, "data": b64,
    }))
    .unwrap();
    let blanked: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "type": "plan", "notes": "Sign in",
        "actions": [{"type": "fill", "selector": "#password", "value": ""}],
    }))
    .unwrap();
    let mut slim = batch("");
    slim.results[0].events = None;
    assert_eq!(
        back,
        [
            event(0, 1),
            BatchEvent::TaskEvent { event: whole },
            event(1, 1),
            BatchEvent::TaskEvent { event: blanked },
            result(0),
            BatchEvent::Done {
                batch: Box::new(slim)
            },
        ]
    );
    assert_eq!(timeline::load(dir.path(), "../batch_1"), None);
    assert_eq!(timeline::load(dir.path(), "batch_2"), None);
}

#[test]
fn data_is_checked_against_its_schema_with_the_failing_paths() {
    let schema = json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {
            "type": "object", "required": ["name", "price"],
            "properties": {"name": {"type": "string"}, "price": {"type": "number"}},
        }}},
        "required": ["items"],
    });
    let good = json!({"items": [{"name": "Kettle", "price": 24.5}]});
    assert_eq!(super::data_problems(&schema, &good).unwrap(), []);
    let bad = json!({"items": [{"name": "Kettle", "price": "24.50"}, {"price": 3}]});
    let problems = super::data_problems(&schema, &bad).unwrap();
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["/items/0/price", "/items/1"]);
    assert_eq!(problems[0].message, r#""24.50" is not of type "number""#);
    assert_eq!(problems[1].message, r#""name" is a required property"#);
    let missing = super::data_problems(&schema, &json!({})).unwrap();
    assert_eq!(missing[0].path, "");
    let refused = super::data_problems(&json!({"type": "money"}), &good).unwrap_err();
    assert_eq!(refused.field.as_deref(), Some("schema"));
}

#[test]
fn no_input_value_enters_the_feed() {
    let feed = Arc::new(Feed::default());
    let mut writer = feed.writer();
    let plan: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "type": "plan",
        "actions": [{"type": "fill", "selector": "#password", "value": "hunter2-secret"}],
    }))
    .unwrap();
    writer.publish(BatchEvent::TaskEvent { event: plan });
    writer.publish(BatchEvent::Done {
        batch: Box::new(batch("hunter2-secret")),
    });
    let text = serde_json::to_string(&feed.events()).unwrap();
    assert!(!text.contains("hunter2-secret"), "{text}");
    assert!(
        text.contains(r#""password":"""#),
        "input names stay: {text}"
    );
}

#[test]
fn a_step_that_echoes_a_value_this_app_sent_leaves_rust_without_it() {
    crate::logs::redactor().add("tomato-soup-1987");
    let event: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "timestamp": 1.0, "type": "navigation",
        "url": "https://shop.example/search?q=tomato-soup-1987", "title": "Results for tomato-soup-1987",
    }))
    .unwrap();
    let typed: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "timestamp": 2.0, "type": "action", "type_": "fill",
        "selector": "#q", "success": true, "message": "Typed tomato-soup-1987 into the search box",
    }))
    .unwrap();
    let shot: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "timestamp": 3.0, "type": "screenshot", "mimeType": "image/png",
        "url": "https://shop.example/search?q=tomato-soup-1987", "chunkIndex": 0, "chunkCount": 1, "data": "iVBORw0KGgo=",
    }))
    .unwrap();
    // A wait, a plan's selector and a kind this version does not know may echo it too.
    let waiting: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "timestamp": 4.0, "type": "waiting", "reason": "Waiting for tomato-soup-1987 results",
    }))
    .unwrap();
    let plan: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "timestamp": 5.0, "type": "plan",
        "actions": [{"type": "click", "selector": "a[title='tomato-soup-1987']"}],
    }))
    .unwrap();
    let unknown: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "timestamp": 6.0, "type": "reflection",
        "detail": {"texts": ["near tomato-soup-1987"]},
    }))
    .unwrap();
    let feed = BatchFeeds::default().open("job-3");
    let mut writer = feed.writer();
    for event in [event, typed, shot, waiting, plan, unknown] {
        writer.publish(BatchEvent::TaskEvent { event });
    }
    let out = serde_json::to_string(&feed.events()).unwrap();
    assert!(!out.contains("tomato-soup-1987"), "{out}");
    assert!(
        out.contains("https://shop.example/search?q=[redacted]"),
        "{out}"
    );
    assert!(
        out.contains("Typed [redacted] into the search box"),
        "{out}"
    );
}

#[test]
fn a_feed_is_watched_while_a_reader_of_it_lives_and_its_follower_polls_accordingly() {
    let feed = Arc::new(Feed::default());
    let pace = super::feed::pace_of(&feed);
    assert!(!feed.watched());
    let first = feed.reader();
    let second = feed.reader();
    assert!(feed.watched());
    drop(first);
    assert!(feed.watched(), "one reader left");
    drop(second);
    assert!(!feed.watched(), "the view closed");
    assert_eq!(pace.events_every, super::feed::EVENTS_EVERY_POLLS);
}
