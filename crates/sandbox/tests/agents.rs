//! Browser agents over HTTP, with pages served on loopback.

mod common;
use base64::Engine;
use common::*;
use futures::StreamExt;
use serde_json::{Value, json};
use specdesk_sandbox::SandboxConfig;
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::sync::Notify;

const SHOP: &str = r#"<html><head><title>Widget shop</title></head><body>
<h1>Widgets</h1>
<div id="name">Widget Pro</div>
<span class="price big">$1,299.50</span>
<p>In stock: yes</p>
<ul id="tags"><li>metal</li><li>blue</li></ul>
<button>Buy now</button>
</body></html>"#;

/// Pages on loopback; `/gate` answers once `gate` is notified.
async fn pages(gate: Arc<Notify>) -> String {
    use axum::http::StatusCode;
    use axum::response::Html;
    use axum::routing::get;
    let app = axum::Router::new()
        .route("/shop", get(|| async { Html(SHOP) }))
        .route("/login", get(|| async { (StatusCode::UNAUTHORIZED, "login") }))
        .route("/forbidden", get(|| async { (StatusCode::FORBIDDEN, "no") }))
        .route("/missing", get(|| async { (StatusCode::NOT_FOUND, "gone") }))
        .route("/captcha", get(|| async { Html("<html><body>Please solve the CAPTCHA</body></html>") }))
        .route("/cf", get(|| async { Html("<html><head><title>Just a moment...</title></head><body>Checking your browser (Cloudflare). Welcome!</body></html>") }))
        .route("/hang", get(|| async {
            tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
            "late"
        }))
        .route("/gate", get(move || {
            let gate = gate.clone();
            async move {
                gate.notified().await;
                Html(SHOP)
            }
        }));
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    format!("http://{addr}")
}

async fn refused_url() -> String {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    format!("http://{addr}/")
}

const BA: &str = "/api/v1/browser-agents";

#[tokio::test]
async fn submission_errors() {
    let env = Env::new().await;
    let e = env.post_json(BA, Some(PRO), json!({}), 400).await;
    assert_eq!(e["error"], "Invalid request");
    let many: Vec<Value> = (0..1001)
        .map(|_| json!({"url": "http://127.0.0.1:1/"}))
        .collect();
    env.post_json(BA, Some(PRO), json!({"tasks": many}), 400)
        .await;
    env.post_json(BA, Some(PRO), json!({"tasks": [{"instruction": "x"}]}), 400)
        .await;
    env.post_json(
        BA,
        Some(PRO),
        json!({"tasks": [{"url": "http://a/"}], "concurrency": 0}),
        400,
    )
    .await;
    env.post_json(
        BA,
        Some(PRO),
        json!({"tasks": [{"url": "http://a/"}], "concurrency": 21}),
        400,
    )
    .await;
    let e = env
        .post_json(BA, None, json!({"tasks": [{"url": "http://a/"}]}), 401)
        .await;
    assert_eq!(e["error"], "Missing API key");
    let e = env
        .post_json(
            BA,
            Some("sk_bad"),
            json!({"tasks": [{"url": "http://a/"}]}),
            401,
        )
        .await;
    assert_eq!(e["error"], "Authentication failed");
    let r = env
        .http
        .post(env.url(BA))
        .header("x-api-key", PRO)
        .json(&json!({"tasks": [{"url": "http://a/"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    let e = env
        .post_json(
            BA,
            Some(BROKE),
            json!({"tasks": [{"url": "http://a/"}]}),
            402,
        )
        .await;
    assert_eq!(e["error"], "Insufficient credits");
    assert!(e["actionUrl"].is_string());
}

#[tokio::test]
async fn outcome_rule_events_and_costs() {
    let env = Env::new().await;
    let base = pages(Arc::new(Notify::new())).await;
    let schema = json!({
        "type": "object",
        "required": ["name", "price"],
        "properties": {
            "name": {"type": "string"},
            "price": {"type": "number"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "title": {"type": "string"}
        }
    });
    let tasks = json!([
        {"url": format!("{base}/shop"), "instruction": "Open the product and click \"Buy now\"", "output": schema, "input": {"q": "widgets"}},
        {"url": refused_url().await},
        {"url": format!("{base}/login")},
        {"url": format!("{base}/captcha")},
        {"url": format!("{base}/hang"), "timeoutMs": 200},
        {"url": format!("{base}/shop"), "maxSteps": 2},
        {"url": format!("{base}/shop"), "instruction": "Click “Checkout”"},
        {"url": format!("{base}/shop"), "output": {"type": "object", "required": ["sku"], "properties": {"sku": {"type": "string"}}}},
        {"url": format!("{base}/missing")},
        {"url": format!("{base}/forbidden")},
        {"url": "http://256.0.0.1/"},
        {"url": format!("{base}/cf")},
    ]);
    let b = env
        .post_json(
            BA,
            Some(PRO),
            json!({"tasks": tasks, "concurrency": 4}),
            200,
        )
        .await;
    assert_eq!(b["status"], "completed");
    assert_eq!(b["total"], 12);
    assert_eq!(b["completed"], 12);
    let statuses: Vec<&str> = b["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        [
            "SUCCESS",
            "ERROR",
            "BLOCKED",
            "CAPTCHA_FAILED",
            "TIMEOUT",
            "LOOP",
            "NO_TARGET",
            "NO_TARGET",
            "ERROR",
            "BLOCKED",
            "ERROR",
            "SUCCESS"
        ]
    );
    let ok = &b["results"][0];
    assert_eq!(
        ok["data"],
        json!({"name": "Widget Pro", "price": 1299.5, "tags": ["metal", "blue"], "title": "Widget shop"})
    );
    assert!(b["results"][8]["error"].as_str().unwrap().contains("404"));
    let mut credits = 0.0;
    for r in b["results"].as_array().unwrap() {
        let c = r["creditsUsed"].as_f64().unwrap();
        assert!(c >= 0.1);
        assert!((c - (r["cost"].as_f64().unwrap() * 10.0).max(0.1)).abs() < 1e-9);
        credits += c;
    }
    assert!((b["totalCreditsUsed"].as_f64().unwrap() - credits).abs() < 1e-9);
    assert!((env.credits(PRO).await - (1000.0 - credits)).abs() < 1e-6);

    // The timeline.
    let id = b["id"].as_str().unwrap();
    let full = env
        .get_json(&format!("{BA}/{id}?includeEvents=true"), Some(PRO), 200)
        .await;
    let mut types = BTreeSet::new();
    for (i, r) in full["results"].as_array().unwrap().iter().enumerate() {
        let evs = r["events"].as_array().unwrap();
        assert_eq!(evs[0]["type"], "sandbox");
        let last = evs.last().unwrap();
        assert!(last["type"] == "done" || last["type"] == "error");
        assert_eq!(last["status"], r["status"]);
        for e in evs {
            assert!(e["timestamp"].as_i64().unwrap() > 0);
            types.insert(e["type"].as_str().unwrap().to_owned());
        }
        // All events of a result are its own.
        let idx: BTreeSet<u64> = evs
            .iter()
            .map(|e| e["taskIndex"].as_u64().unwrap())
            .collect();
        assert_eq!(idx.len(), 1, "task {i}");
    }
    for t in [
        "sandbox",
        "navigation",
        "screenshot",
        "plan",
        "action",
        "waiting",
        "validation",
        "done",
        "error",
    ] {
        assert!(types.contains(t), "{t} in {types:?}");
    }
    let evs = full["results"][0]["events"].as_array().unwrap();
    let shots: Vec<&Value> = evs.iter().filter(|e| e["type"] == "screenshot").collect();
    let count = shots[0]["chunkCount"].as_u64().unwrap() as usize;
    assert_eq!(shots.len(), count);
    let b64: String = shots.iter().map(|s| s["data"].as_str().unwrap()).collect();
    let png = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(shots[0]["mimeType"], "image/png");
    let actions: Vec<&Value> = evs.iter().filter(|e| e["type"] == "action").collect();
    assert_eq!(actions[0]["actionType"], "fill");
    assert_eq!(actions[1]["actionType"], "click");
    assert_eq!(actions[1]["success"], true);
    // Without includeEvents there is no timeline.
    let plain = env.get_json(&format!("{BA}/{id}"), Some(PRO), 200).await;
    assert!(plain["results"][0].get("events").is_none());
}

#[tokio::test]
async fn async_then_poll_and_other_users_get_404() {
    let env = Env::new().await;
    let gate = Arc::new(Notify::new());
    let base = pages(gate.clone()).await;
    let b = env
        .post_json(
            BA,
            Some(PRO),
            json!({"tasks": [{"url": format!("{base}/gate")}], "async": true}),
            200,
        )
        .await;
    assert_eq!(b["status"], "processing");
    assert_eq!(b["completed"], 0);
    assert_eq!(b["results"], json!([]));
    let id = b["id"].as_str().unwrap().to_owned();
    env.get_json(&format!("{BA}/{id}"), Some(ORG), 404).await;
    let cap = env
        .get_json(&format!("{BA}/_system/capacity"), Some(PRO), 200)
        .await;
    assert_eq!(cap["totalActive"], 1);
    assert_eq!(cap["topUsers"][0]["inflight"], 1);
    for k in [
        "maxSandboxes",
        "perUserCap",
        "pending",
        "running",
        "claimed",
        "failed",
        "utilization",
        "oldestQueuedAgeMs",
    ] {
        assert!(cap[k].is_number(), "{k}");
    }
    let l = env
        .get_json(&format!("{BA}?status=processing"), Some(PRO), 200)
        .await;
    assert_eq!(l["total"], 1);
    gate.notify_one();
    let done = poll_done(&env, &id).await;
    assert_eq!(done["results"][0]["status"], "SUCCESS");
    assert!(done["completedAt"].is_string());
}

async fn poll_done(env: &Env, id: &str) -> Value {
    for _ in 0..400 {
        let v = env
            .get_json(&format!("{BA}/{id}?includeEvents=true"), Some(PRO), 200)
            .await;
        if v["status"] == "completed" {
            return v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("batch {id} did not complete");
}

/// Reads SSE frames `(event, data)` and comments until `stop` says so.
async fn read_sse(
    resp: reqwest::Response,
    mut stop: impl FnMut(&str, &str) -> bool,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut buf = String::new();
    let mut body = resp.bytes_stream();
    while let Some(chunk) = body.next().await {
        buf.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
        while let Some(pos) = buf.find("\n\n") {
            let frame = buf[..pos].to_owned();
            buf = buf[pos + 2..].to_owned();
            let mut event = String::new();
            let mut data = String::new();
            for line in frame.lines() {
                if let Some(c) = line.strip_prefix(':') {
                    event = format!(":{c}");
                } else if let Some(e) = line
                    .strip_prefix("event: ")
                    .or_else(|| line.strip_prefix("event:"))
                {
                    event = e.to_owned();
                } else if let Some(d) = line
                    .strip_prefix("data: ")
                    .or_else(|| line.strip_prefix("data:"))
                {
                    data.push_str(d);
                }
            }
            let end = stop(&event, &data);
            out.push((event, data));
            if end {
                return out;
            }
        }
    }
    out
}

#[tokio::test]
async fn stream_with_keepalive_and_done() {
    let env = Env::with(SandboxConfig {
        keepalive_ms: 20,
        ..SandboxConfig::ephemeral()
    })
    .await;
    let gate = Arc::new(Notify::new());
    let base = pages(gate.clone()).await;
    let resp = env.post(BA, Some(PRO), json!({"tasks": [{"url": format!("{base}/gate")}, {"url": format!("{base}/shop")}], "stream": true})).await;
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let g = gate.clone();
    let frames = read_sse(resp, move |event, _| {
        if event == ":keepalive" {
            g.notify_one();
        }
        event == "done"
    })
    .await;
    assert!(frames.iter().any(|(e, _)| e == ":keepalive"));
    let names: BTreeSet<&str> = frames.iter().map(|(e, _)| e.as_str()).collect();
    assert!(names.contains("task_event") && names.contains("task_result"));
    let (last, data) = frames.last().unwrap();
    assert_eq!(last, "done");
    let batch: Value = serde_json::from_str(data).unwrap();
    assert_eq!(batch["status"], "completed");
    assert_eq!(batch["completed"], 2);
    let results: Vec<Value> = frames
        .iter()
        .filter(|(e, _)| e == "task_result")
        .map(|(_, d)| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(results.len(), 2);
    for r in &results {
        assert_eq!(r["status"], "SUCCESS");
        assert!(r["taskIndex"].is_u64());
    }
    let ev: Value =
        serde_json::from_str(&frames.iter().find(|(e, _)| e == "task_event").unwrap().1).unwrap();
    assert!(ev["taskIndex"].is_u64() && ev["type"].is_string() && ev["timestamp"].is_i64());
}

#[tokio::test]
async fn dropped_stream_is_resumed_from_the_timeline() {
    let env = Env::new().await;
    let gate = Arc::new(Notify::new());
    let base = pages(gate.clone()).await;
    env.control(
        "/_sandbox/faults",
        json!({"match": {"method": "POST", "path": BA}, "times": 1, "dropStreamAfterEvents": 1}),
    )
    .await;
    let resp = env.post(BA, Some(PRO), json!({"tasks": [{"url": format!("{base}/gate")}], "stream": true, "idempotencyKey": "resume-1"})).await;
    let frames = read_sse(resp, |_, _| false).await;
    let events: Vec<&(String, String)> =
        frames.iter().filter(|(e, _)| !e.starts_with(':')).collect();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, "task_event");
    assert!(events.iter().all(|(e, _)| e != "done"));
    let first: Value = serde_json::from_str(&events[0].1).unwrap();
    // The batch keeps running: find it by the idempotency key (same batch, no duplicate).
    let again = env.post_json(BA, Some(PRO), json!({"tasks": [{"url": format!("{base}/gate")}], "async": true, "idempotencyKey": "resume-1"}), 200).await;
    let id = again["id"].as_str().unwrap().to_owned();
    gate.notify_one();
    let done = poll_done(&env, &id).await;
    let evs = done["results"][0]["events"].as_array().unwrap();
    assert_eq!(evs[0], first);
    assert_eq!(evs.last().unwrap()["type"], "done");
    let l = env.get_json(BA, Some(PRO), 200).await;
    assert_eq!(l["total"], 1);
}

#[tokio::test]
async fn client_disconnect_leaves_the_batch_running() {
    let env = Env::new().await;
    let gate = Arc::new(Notify::new());
    let base = pages(gate.clone()).await;
    let resp = env
        .post(
            BA,
            Some(PRO),
            json!({"tasks": [{"url": format!("{base}/gate")}], "stream": true}),
        )
        .await;
    let mut body = resp.bytes_stream();
    let _first = body.next().await.unwrap().unwrap();
    drop(body);
    let l = env.get_json(BA, Some(PRO), 200).await;
    let id = l["batches"][0]["id"].as_str().unwrap().to_owned();
    gate.notify_one();
    let done = poll_done(&env, &id).await;
    assert_eq!(done["results"][0]["status"], "SUCCESS");
}

#[tokio::test]
async fn idempotency_window_by_header_and_body() {
    let env = Env::new().await;
    let base = pages(Arc::new(Notify::new())).await;
    let body = json!({"tasks": [{"url": format!("{base}/shop")}]});
    let r1: Value = env
        .http
        .post(env.url(BA))
        .bearer_auth(PRO)
        .header("Idempotency-Key", "k1")
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let r2: Value = env
        .http
        .post(env.url(BA))
        .bearer_auth(PRO)
        .header("Idempotency-Key", "k1")
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r1["id"], r2["id"]);
    let credits = env.credits(PRO).await;
    let mut with_key = body.clone();
    with_key["idempotencyKey"] = json!("k1");
    let r3 = env.post_json(BA, Some(PRO), with_key.clone(), 200).await;
    assert_eq!(r3["id"], r1["id"]);
    assert_eq!(
        env.credits(PRO).await,
        credits,
        "a replay is not charged again"
    );
    // Another user's identical key is a different batch.
    let other = env.post_json(BA, Some(ORG), with_key.clone(), 200).await;
    assert_ne!(other["id"], r1["id"]);
    env.control("/_sandbox/clock/advance", json!({"ms": 23 * 3600 * 1000}))
        .await;
    assert_eq!(
        env.post_json(BA, Some(PRO), with_key.clone(), 200).await["id"],
        r1["id"]
    );
    env.control("/_sandbox/clock/advance", json!({"ms": 3600 * 1000}))
        .await;
    assert_ne!(
        env.post_json(BA, Some(PRO), with_key, 200).await["id"],
        r1["id"]
    );
    assert_eq!(env.get_json(BA, Some(PRO), 200).await["total"], 2);
}

#[tokio::test]
async fn list_filters_limits_and_aliases() {
    let env = Env::new().await;
    let base = pages(Arc::new(Notify::new())).await;
    let task = json!({"tasks": [{"url": format!("{base}/shop")}]});
    let a = env.post_json(BA, Some(PRO), task.clone(), 200).await;
    let b = env
        .post_json("/api/v1/browser-tasks", Some(PRO), task.clone(), 200)
        .await;
    let c = env
        .post_json("/browser-agent", Some(PRO), task.clone(), 200)
        .await;
    let l = env.get_json(&format!("{BA}?limit=2"), Some(PRO), 200).await;
    assert_eq!(l["total"], 3);
    assert_eq!(l["hasMore"], true);
    assert_eq!(l["batches"][0]["id"], c["id"]);
    assert_eq!(l["batches"][1]["id"], b["id"]);
    let l = env
        .get_json("/api/v1/browser-tasks?skip=2", Some(PRO), 200)
        .await;
    assert_eq!(l["batches"][0]["id"], a["id"]);
    assert_eq!(l["hasMore"], false);
    env.get_json(
        &format!("/api/v1/browser-tasks/{}", a["id"].as_str().unwrap()),
        Some(PRO),
        200,
    )
    .await;
    assert_eq!(
        env.get_json(&format!("{BA}?status=completed"), Some(PRO), 200)
            .await["total"],
        3
    );
    assert_eq!(env.get_json(BA, Some(ORG), 200).await["total"], 0);
    for bad in ["?limit=0", "?limit=101", "?skip=-1", "?status=weird"] {
        let e = env.get_json(&format!("{BA}{bad}"), Some(PRO), 400).await;
        assert_eq!(e["error"], "Invalid request");
    }
}

#[tokio::test]
async fn too_many_in_flight_tasks_is_429() {
    let env = Env::new().await;
    let base = pages(Arc::new(Notify::new())).await;
    let tasks: Vec<Value> = (0..1000)
        .map(|_| json!({"url": format!("{base}/gate")}))
        .collect();
    for _ in 0..5 {
        env.post_json(BA, Some(ORG), json!({"tasks": tasks, "async": true}), 200)
            .await;
    }
    let e = env
        .post_json(
            BA,
            Some(ORG),
            json!({"tasks": [{"url": format!("{base}/gate")}], "async": true}),
            429,
        )
        .await;
    assert_eq!(e["error"], "Too many tasks in flight");
    // Another user is not affected.
    env.post_json(
        BA,
        Some(PRO),
        json!({"tasks": [{"url": format!("{base}/shop")}]}),
        200,
    )
    .await;
}
