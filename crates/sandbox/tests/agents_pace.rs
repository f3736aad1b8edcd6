//! Paced browser-agent batches (`/_sandbox/agents/pace`, for benchmarks): off by default, a pace
//! makes new batches emit synthetic events (nothing fetched), every task its events in order then
//! its result, and turning it off brings the normal runs back. Nothing here measures time.

mod common;
use common::*;
use futures::StreamExt;
use serde_json::{Value, json};

const BA: &str = "/api/v1/browser-agents";
const PACE: &str = "/_sandbox/agents/pace";

/// The frames `(event, data)` of a batch stream, up to its `done`.
async fn stream_frames(resp: reqwest::Response) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut buf = String::new();
    let mut body = resp.bytes_stream();
    while let Some(chunk) = body.next().await {
        buf.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
        while let Some(pos) = buf.find("\n\n") {
            let frame = buf[..pos].to_owned();
            buf.drain(..pos + 2);
            let event = frame.lines().find_map(|l| l.strip_prefix("event: "));
            let data = frame.lines().find_map(|l| l.strip_prefix("data: "));
            if let (Some(event), Some(data)) = (event, data) {
                let done = event == "done";
                out.push((event.to_owned(), serde_json::from_str(data).unwrap()));
                if done {
                    return out;
                }
            }
        }
    }
    out
}

#[tokio::test]
async fn pace_is_off_by_default_and_checked() {
    let env = Env::new().await;
    let v = env.get_json(PACE, None, 200).await;
    assert_eq!(
        v,
        json!({"eventsPerSecond": null, "eventsPerTask": null, "emitted": 0})
    );
    for bad in [
        json!({"eventsPerSecond": -1}),
        json!({"eventsPerSecond": 2e6}),
        json!({"eventsPerSecond": 100, "eventsPerTask": 3}),
        json!({"eventsPerSecond": 100, "eventsPerTask": 100_001}),
        json!({"eventsPerSecond": 100, "rate": 1}),
    ] {
        env.post_json(PACE, None, bad.clone(), 400).await;
    }
    let v = env.control(PACE, json!({"eventsPerSecond": 2500})).await;
    assert_eq!(v["eventsPerSecond"], 2500.0);
    assert_eq!(v["eventsPerTask"], 20);
    let v = env.control(PACE, json!({"eventsPerSecond": 0})).await;
    assert_eq!(v["eventsPerSecond"], Value::Null);
    env.control(PACE, json!({"eventsPerSecond": 2500})).await;
    env.control("/_sandbox/reset", json!({})).await;
    assert_eq!(
        env.get_json(PACE, None, 200).await["eventsPerSecond"],
        Value::Null
    );
}

#[tokio::test]
async fn a_paced_batch_streams_every_task_in_order_then_the_normal_run_returns() {
    let env = Env::new().await;
    let set = json!({"eventsPerSecond": 20_000, "eventsPerTask": 7});
    env.control(PACE, set).await;
    // Nothing listens on port 9: a normal run would end every task with ERROR.
    let tasks: Vec<Value> = (0..30)
        .map(|i| json!({"url": format!("http://127.0.0.1:9/item/{i}")}))
        .collect();
    let resp = env
        .post(
            BA,
            Some(PRO),
            json!({"tasks": tasks, "stream": true, "concurrency": 4}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let frames = stream_frames(resp).await;

    let mut per_task: Vec<Vec<String>> = vec![Vec::new(); 30];
    let mut results = Vec::new();
    for (event, data) in &frames {
        let i = data["taskIndex"].as_u64().map(|i| i as usize);
        match event.as_str() {
            "task_event" => {
                let i = i.unwrap();
                assert!(
                    results.iter().all(|&r| r != i),
                    "an event after task {i}'s result"
                );
                per_task[i].push(data["type"].as_str().unwrap().to_owned());
            }
            "task_result" => {
                assert_eq!(data["status"], "SUCCESS");
                results.push(i.unwrap());
            }
            _ => {}
        }
    }
    let expected = [
        "sandbox",
        "navigation",
        "screenshot",
        "plan",
        "action",
        "action",
        "done",
    ];
    for (i, types) in per_task.iter().enumerate() {
        assert_eq!(types, &expected, "task {i}");
    }
    results.sort_unstable();
    assert_eq!(results, (0..30).collect::<Vec<_>>());
    let (last, batch) = frames.last().unwrap();
    assert_eq!(last, "done");
    assert_eq!(batch["status"], "completed");
    assert_eq!(batch["completed"], 30);
    assert_eq!(
        batch["results"][0]["data"],
        json!({"title": "Paced page 1", "url": "http://127.0.0.1:9/item/0"})
    );
    assert_eq!(env.get_json(PACE, None, 200).await["emitted"], 30 * 8);

    // The timeline is kept as for any batch; the screenshot is a whole PNG in one chunk.
    let id = batch["id"].as_str().unwrap();
    let kept = env
        .get_json(&format!("{BA}/{id}?includeEvents=true"), Some(PRO), 200)
        .await;
    let shot = &kept["results"][3]["events"][2];
    assert_eq!(
        (shot["type"].as_str(), shot["chunkCount"].as_u64()),
        (Some("screenshot"), Some(1))
    );

    // Off again: a batch fetches its page, which is refused.
    env.control(PACE, json!({"eventsPerSecond": null})).await;
    let tasks = json!([{"url": "http://127.0.0.1:9/"}]);
    let v = env
        .post_json(BA, Some(PRO), json!({"tasks": tasks}), 200)
        .await;
    assert_eq!(v["results"][0]["status"], "ERROR");
    assert_eq!(env.get_json(PACE, None, 200).await["emitted"], 30 * 8);
}
