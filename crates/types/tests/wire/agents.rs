//! Browser agents: submission, batches, capacity, the task timeline and the stream frames.

use crate::common::{
    assert_covers, assert_keys, assert_keys_across, canonical, json, roundtrip, roundtrip_each,
};
use pretty_assertions::assert_eq;
use specdesk_types::*;

const BATCH_FIELDS: &[&str] = &[
    "id",
    "total",
    "completed",
    "results",
    "totalCost",
    "totalCreditsUsed",
    "status",
    "createdAt",
];

#[test]
fn batch_request_with_every_task_field() {
    let req: BatchRequest = roundtrip("agents/batch-request.json");
    let v = json("agents/batch-request.json");
    assert_keys(
        &v,
        "",
        &["tasks", "concurrency", "async", "stream", "idempotencyKey"],
    );
    assert_keys(
        &v,
        "/tasks/0",
        &[
            "url",
            "instruction",
            "input",
            "output",
            "successCondition",
            "timeoutMs",
            "maxSteps",
            "maxDurationSeconds",
            "mode",
        ],
    );
    let full = &req.tasks[0];
    assert_eq!(full.input.as_ref().unwrap()["postcode"], "10115");
    assert_eq!(full.output.as_ref().unwrap()["required"][1], "inStock");
    assert_eq!(full.timeout_ms, Some(240_000));
    assert_eq!(full.mode.as_deref(), Some("extract"));
    // A task needs only its url.
    let bare = &req.tasks[1];
    assert_eq!(
        bare,
        &BrowserTask {
            url: "https://example.org/".into(),
            instruction: None,
            input: None,
            output: None,
            success_condition: None,
            timeout_ms: None,
            max_steps: None,
            max_duration_seconds: None,
            mode: None,
        }
    );
    assert_eq!(req.is_async, Some(false));
    assert_eq!(req.stream, Some(true));
}

#[test]
fn accepted_batch_starts_processing_and_empty() {
    let b: Batch = roundtrip("agents/batch-accepted.json");
    assert_eq!(b.status, BatchStatus::Processing);
    assert!(!b.status.is_terminal());
    assert_eq!((b.completed, b.results.len()), (0, 0));
    assert_eq!(b.completed_at, None);
}

#[test]
fn completed_batch_holds_results_in_every_task_status() {
    let b: Batch = roundtrip("agents/batch-completed.json");
    let v = json("agents/batch-completed.json");
    assert_keys(&v, "", BATCH_FIELDS);
    assert_keys(&v, "", &["completedAt"]);
    assert_keys_across(
        &v,
        "/results",
        &[
            "url",
            "instruction",
            "input",
            "status",
            "data",
            "cost",
            "creditsUsed",
            "durationMs",
            "error",
        ],
    );
    assert_eq!(b.status, BatchStatus::Completed);
    assert!(b.status.is_terminal());
    let statuses: Vec<String> = b.results.iter().map(|r| r.status.to_string()).collect();
    assert_covers("task status", TaskStatus::KNOWN, &statuses);
    assert_eq!(b.total as usize, b.results.len());
    // Totals are the sums of the tasks; credits are cost x 10 with a 0.1 minimum.
    let cost: f64 = b.results.iter().map(|r| r.cost).sum();
    let credits: f64 = b.results.iter().map(|r| r.credits_used).sum();
    assert!((cost - b.total_cost).abs() < 1e-9);
    assert!((credits - b.total_credits_used).abs() < 1e-9);
    for r in &b.results {
        assert!(
            (r.credits_used - (r.cost * 10.0).max(0.1)).abs() < 1e-9,
            "{}",
            r.url
        );
    }
    let ok = &b.results[0];
    assert_eq!(ok.data.as_ref().unwrap()["price"], 249.9);
    assert_eq!(ok.error, None);
    assert_eq!(b.results[1].data, None);
    assert!(b.results[1].error.as_deref().unwrap().contains("REFUSED"));
    assert_eq!(b.results[5].duration_ms, 30211.5);
}

#[test]
fn batch_list() {
    let list: BatchList = roundtrip("agents/batch-list.json");
    let v = json("agents/batch-list.json");
    assert_keys(&v, "", &["batches", "total", "hasMore"]);
    assert_eq!((list.total, list.has_more), (23, true));
    let statuses: Vec<String> = list.batches.iter().map(|b| b.status.to_string()).collect();
    assert_covers("batch status", BatchStatus::KNOWN, &statuses);
}

#[test]
fn capacity_snapshot() {
    let c: CapacitySnapshot = roundtrip("agents/capacity.json");
    assert_keys(
        &json("agents/capacity.json"),
        "",
        &[
            "totalActive",
            "maxSandboxes",
            "perUserCap",
            "pending",
            "running",
            "claimed",
            "failed",
            "utilization",
            "oldestQueuedAgeMs",
            "topUsers",
            "workers",
        ],
    );
    assert_eq!(c.max_sandboxes, 2000);
    assert!((0.0..=1.0).contains(&c.utilization));
    assert_eq!(c.top_users[1].user_id, "org_21c0");
    assert_eq!(c.workers[0].worker_id, "worker-eu-1");
    assert_eq!(c.workers[0].inflight, 160);
}

#[test]
fn every_task_event_type() {
    let events: Vec<TaskEvent> = roundtrip_each("agents/task-events.json", None);
    let types: Vec<String> = events
        .iter()
        .map(|e| e.kind.event_type().to_string())
        .collect();
    assert_covers("task event type", TaskEventType::KNOWN, &types);
    assert!(events.iter().all(|e| e.timestamp.is_some()));

    let v = json("agents/task-events.json");
    let first_of = |t: &str| {
        let i = v
            .as_array()
            .unwrap()
            .iter()
            .position(|e| e["type"] == t)
            .unwrap();
        format!("/{i}")
    };
    assert_keys(&v, &first_of("sandbox"), &["status"]);
    assert_keys(&v, &first_of("navigation"), &["url", "title"]);
    assert_keys(
        &v,
        &first_of("screenshot"),
        &["url", "mimeType", "chunkIndex", "chunkCount"],
    );
    assert_keys(
        &v,
        &first_of("plan"),
        &["actions", "notes", "done", "captchaDetected"],
    );
    assert_keys(
        &v,
        &first_of("action"),
        &["actionType", "selector", "success", "message"],
    );
    assert_keys(&v, &first_of("waiting"), &["reason"]);
    assert_keys(&v, &first_of("validation"), &["ok"]);
    assert_keys(&v, &first_of("done"), &["status", "data", "durationMs"]);
    assert_keys(&v, &first_of("error"), &["status", "error", "durationMs"]);

    match &events[0].kind {
        TaskEventKind::Sandbox(s) => assert_eq!(s.status, "starting"),
        other => panic!("{other:?}"),
    }
    assert_eq!(events[0].timestamp, Some(1_763_798_400_000.0));
    match &events[6].kind {
        TaskEventKind::Plan(p) => {
            assert_eq!(p.actions.len(), 2);
            assert_eq!(p.actions[1].action_type.as_deref(), Some("fill"));
            assert_eq!(p.actions[1].value.as_deref(), Some("10115"));
            assert!(!p.done && !p.captcha_detected);
        }
        other => panic!("{other:?}"),
    }
    match &events[8].kind {
        TaskEventKind::Action(a) => {
            assert_eq!(a.action_type.as_deref(), Some("fill"));
            assert!(!a.success);
        }
        other => panic!("{other:?}"),
    }
    match &events[11].kind {
        TaskEventKind::Done(d) => {
            assert_eq!(d.status, TaskStatus::Success);
            assert_eq!(d.duration_ms, Some(18342.0));
            assert!(events[11].kind.is_terminal());
        }
        other => panic!("{other:?}"),
    }
    match &events[12].kind {
        TaskEventKind::Error(e) => {
            assert_eq!(events[12].task_index, 1);
            assert_eq!(e.status, TaskStatus::Error);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn screenshot_chunks_reassemble_in_order() {
    let events: Vec<TaskEvent> = roundtrip_each("agents/task-events.json", None);
    let chunks: Vec<&ScreenshotEvent> = events
        .iter()
        .filter_map(|e| match &e.kind {
            TaskEventKind::Screenshot(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(chunks.len(), 3);
    for (i, c) in chunks.iter().enumerate() {
        assert_eq!((c.chunk_index as usize, c.chunk_count), (i, 3));
        assert_eq!(c.mime_type, "image/jpeg");
    }
    let joined: String = chunks.iter().map(|c| c.data.as_deref().unwrap()).collect();
    assert!(joined.starts_with("/9j/") && joined.ends_with("/9k="));
}

#[test]
fn batch_with_events_carries_each_tasks_timeline() {
    let b: Batch = roundtrip("agents/batch-include-events.json");
    for (i, r) in b.results.iter().enumerate() {
        let events = r.events.as_ref().unwrap();
        assert!(events.iter().all(|e| e.task_index as usize == i));
        assert!(events.last().unwrap().kind.is_terminal());
    }
    assert_eq!(b.results[0].events.as_ref().unwrap().len(), 12);
}

#[test]
fn stream_frames_task_event_task_result_done() {
    let v = json("agents/stream-frames.json");
    let frames = v.as_array().unwrap();
    let mut names = Vec::new();
    for (i, f) in frames.iter().enumerate() {
        let event = f["event"].as_str().unwrap();
        let data = &f["data"];
        let frame = StreamFrame::decode(event, &data.to_string())
            .unwrap_or_else(|e| panic!("frame {i} ({event}): {e}"))
            .unwrap_or_else(|| panic!("frame {i}: {event} not recognised"));
        assert_eq!(frame.event_name(), event);
        assert_eq!(
            canonical(serde_json::to_value(&frame).unwrap()),
            canonical(data.clone()),
            "frame {i} ({event}) re-encoded"
        );
        names.push(event.to_owned());
    }
    assert_covers(
        "stream frame",
        &["task_event", "task_result", "done"],
        &names,
    );
    assert_eq!(names.last().map(String::as_str), Some("done"));

    let result = StreamFrame::decode("task_result", &frames[12]["data"].to_string())
        .unwrap()
        .unwrap();
    match result {
        StreamFrame::TaskResult(r) => {
            assert_eq!((r.task_index, r.status), (0, TaskStatus::Success));
            assert_eq!(r.data.unwrap()["inStock"], true);
        }
        other => panic!("{other:?}"),
    }
    match StreamFrame::decode("done", &frames[15]["data"].to_string())
        .unwrap()
        .unwrap()
    {
        StreamFrame::Done(b) => assert_eq!((b.status, b.completed), (BatchStatus::Completed, 2)),
        other => panic!("{other:?}"),
    }
    // An event name this version does not know is skipped, not an error.
    assert_eq!(StreamFrame::decode("progress", "{}").unwrap(), None);
}

/// The stream's one-pass decoder gives exactly what the general decoder gives, for every event of
/// the fixtures: all nine types, screenshot chunks, an action typed by its kind, an unknown type,
/// and events with fields a newer service added.
#[test]
fn one_pass_event_decoding_agrees_with_the_general_decoder() {
    let mut events: Vec<serde_json::Value> =
        json("agents/task-events.json").as_array().unwrap().clone();
    for path in [
        "unknown/batch-extra-fields.json",
        "unknown/batch-unknown-enums.json",
    ] {
        for r in json(path)["results"].as_array().unwrap() {
            events.extend(r["events"].as_array().unwrap().iter().cloned());
        }
    }
    events.push(json("unknown/task-event-click.json"));
    events.push(json("unknown/task-event-unknown-type.json"));
    events.push(serde_json::json!({"type": "done", "status": "SUCCESS", "data": null}));
    for e in &events {
        let text = e.to_string();
        let general: TaskEvent = serde_json::from_str(&text).unwrap();
        let fast = TaskEvent::from_json_str(&text).unwrap();
        assert_eq!(fast, general, "{text}");
    }
    // Bodies that are not a valid event fail on both paths.
    for bad in [
        r#"{"taskIndex": 0}"#,
        r#"{"type": "navigation"}"#,
        r#"{"type": "screenshot", "mimeType": "image/png", "chunkIndex": 0}"#,
        r#"{"type": "validation", "ok": "yes"}"#,
    ] {
        assert!(serde_json::from_str::<TaskEvent>(bad).is_err(), "{bad}");
        assert!(TaskEvent::from_json_str(bad).is_err(), "{bad}");
    }
}
