//! Browser agents against the real sandbox: every outcome of its fixed rule, the alias paths,
//! and a dropped stream followed by polling and back to live, every event once.

mod common;

use std::time::Duration;

use common::sandbox::*;
use futures::StreamExt;
use specdesk_client::types::*;
use specdesk_client::{BatchOptions, BatchUpdate};
use specdesk_sandbox::{GatedPage, keys};
use std::collections::BTreeMap;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const PRODUCT: &str = r#"<!doctype html><html><head><title>Widget</title></head><body>
    <h1>Widget</h1><p>The best widget.</p><span id="price">9.99</span>
    <button>"Buy now"</button></body></html>"#;

/// Pages the browser tasks visit, on loopback.
async fn site() -> MockServer {
    let site = MockServer::start().await;
    let html = |body: &str| {
        ResponseTemplate::new(200)
            .insert_header("content-type", "text/html; charset=utf-8")
            .set_body_string(body.to_owned())
    };
    Mock::given(method("GET"))
        .and(path("/product"))
        .respond_with(html(PRODUCT))
        .mount(&site)
        .await;
    Mock::given(method("GET"))
        .and(path("/captcha"))
        .respond_with(html(
            "<html><body>Please solve this CAPTCHA to continue</body></html>",
        ))
        .mount(&site)
        .await;
    Mock::given(method("GET"))
        .and(path("/private"))
        .respond_with(ResponseTemplate::new(403).set_body_string("forbidden"))
        .mount(&site)
        .await;
    site
}

fn task(url: String, instruction: &str) -> BrowserTask {
    BrowserTask {
        instruction: Some(instruction.to_owned()),
        ..common::batches::task(&url)
    }
}

#[tokio::test]
async fn every_outcome_follows_the_documented_rule() {
    let sb = sandbox().await;
    let site = site().await;
    let c = client(&sb, keys::PRO);
    let mut price = task(format!("{}/product", site.uri()), "Read the price");
    price.output = Some(serde_json::json!({
        "type": "object",
        "required": ["price"],
        "properties": {"price": {"type": "number"}}
    }));
    let mut looping = task(format!("{}/product", site.uri()), "Click around");
    looping.max_steps = Some(2);
    let tasks = vec![
        price,
        task(format!("{}/private", site.uri()), "Open the dashboard"),
        task(format!("{}/captcha", site.uri()), "Read the page"),
        task("http://127.0.0.1:1/".to_owned(), "Open it"),
        looping,
        task(format!("{}/product", site.uri()), "Click \"Add to basket\""),
    ];
    let prepared = c.agents().prepare(tasks, BatchOptions::default()).unwrap();
    let batch = c.agents().run(&prepared).await.unwrap();
    assert_eq!(batch.status, BatchStatus::Completed);
    assert_eq!((batch.total, batch.completed), (6, 6));
    let statuses: Vec<TaskStatus> = batch.results.iter().map(|r| r.status.clone()).collect();
    assert_eq!(
        statuses,
        vec![
            TaskStatus::Success,
            TaskStatus::Blocked,
            TaskStatus::CaptchaFailed,
            TaskStatus::Error,
            TaskStatus::Loop,
            TaskStatus::NoTarget,
        ]
    );
    assert_eq!(
        batch.results[0].data,
        Some(serde_json::json!({"price": 9.99}))
    );
    for r in &batch.results {
        assert!(r.credits_used >= 0.1, "{r:?}");
    }
    let sum: f64 = batch.results.iter().map(|r| r.credits_used).sum();
    assert!((batch.total_credits_used - sum).abs() < 1e-9);

    // The same key again returns the same batch and creates none.
    let again = c.agents().start(&prepared).await.unwrap();
    assert_eq!(again.id, batch.id);
    let list = c.agents().list(None, None, None).await.unwrap();
    assert_eq!(list.total, 1);
    sb.shutdown().await;
}

#[tokio::test]
async fn the_alias_paths_reach_the_same_batches() {
    let sb = sandbox().await;
    let site = site().await;
    let c = client(&sb, keys::ORG);
    let tasks = vec![task(format!("{}/product", site.uri()), "Look")];
    let legacy = c.agents_at(specdesk_client::AgentsRoute::LegacySubmission);
    let prepared = legacy.prepare(tasks, BatchOptions::default()).unwrap();
    let batch = legacy.run(&prepared).await.unwrap();
    assert_eq!(batch.status, BatchStatus::Completed);
    let tasks_alias = c.agents_at(specdesk_client::AgentsRoute::BrowserTasks);
    assert_eq!(
        tasks_alias.get(&batch.id, false).await.unwrap().id,
        batch.id
    );
    assert_eq!(
        tasks_alias
            .list(Some(10), Some(0), None)
            .await
            .unwrap()
            .total,
        1
    );
    let cap = tasks_alias.capacity().await.unwrap();
    assert!((0.0..=1.0).contains(&cap.utilization), "{cap:?}");
    sb.shutdown().await;
}

/// Follows a live batch of a task on each of `pages` (one at a time) whose stream the sandbox
/// drops after five events, showing `seen` each update as it comes; checks every event and
/// result came exactly once, in order, and returns the updates.
async fn follow_with_a_dropped_stream(
    pages: [String; 3],
    mut seen: impl FnMut(&BatchUpdate),
) -> Vec<BatchUpdate> {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    control(
        &sb,
        "/_sandbox/faults",
        serde_json::json!({
            "match": {"method": "POST", "path": "/api/v1/browser-agents"},
            "times": 1,
            "dropStreamAfterEvents": 5
        }),
    )
    .await;
    let tasks = pages
        .into_iter()
        .enumerate()
        .map(|(i, page)| task(page, &format!("Look at it {i}")))
        .collect();
    let prepared = c
        .agents()
        .prepare(
            tasks,
            BatchOptions {
                concurrency: Some(1),
                ..Default::default()
            },
        )
        .unwrap();
    let mut follow = std::pin::pin!(c.agents().follow(&prepared));
    let mut updates = Vec::new();
    // A guard against a follower that never ends, not a measure: the batch takes well under it.
    let all = tokio::time::timeout(Duration::from_secs(120), async {
        while let Some(update) = follow.next().await {
            let update = update.expect("update");
            seen(&update);
            updates.push(update);
        }
    });
    all.await.expect("the follower ends with the batch");
    let Some(BatchUpdate::Done(done)) = updates.last() else {
        panic!("ends with Done: {:?}", updates.last());
    };
    let full = c.agents().get(&done.id, true).await.unwrap();
    let mut expected: BTreeMap<u32, Vec<TaskEvent>> = BTreeMap::new();
    for r in &full.results {
        for e in r.events.as_deref().unwrap_or_default() {
            expected.entry(e.task_index).or_default().push(e.clone());
        }
    }
    let mut got: BTreeMap<u32, Vec<TaskEvent>> = BTreeMap::new();
    let mut results = Vec::new();
    for u in &updates {
        match u {
            BatchUpdate::Event(e) => got.entry(e.task_index).or_default().push(e.clone()),
            BatchUpdate::Result(r) => results.push(r.task_index),
            _ => {}
        }
    }
    assert_eq!(got, expected, "every event exactly once, in order");
    results.sort();
    assert_eq!(results, vec![0, 1, 2], "every result exactly once");
    sb.shutdown().await;
    updates
}

fn count(updates: &[BatchUpdate], f: impl Fn(&BatchUpdate) -> bool) -> usize {
    updates.iter().filter(|u| f(u)).count()
}

#[tokio::test]
async fn a_dropped_stream_is_resumed_by_polling_without_loss_or_duplicates() {
    let site = site().await;
    let page = format!("{}/product", site.uri());
    let updates = follow_with_a_dropped_stream([page.clone(), page.clone(), page], |_| {}).await;
    assert_eq!(
        count(&updates, |u| matches!(u, BatchUpdate::Polling { .. })),
        1,
        "one switch to polling"
    );
}

#[tokio::test]
async fn after_a_drop_the_follower_goes_back_live_and_the_replay_repeats_nothing() {
    // The first task's page answers at once (its events pass the drop); the next two wait until
    // the follower is live again, so the batch runs through the polls and the retry, however
    // long they take.
    let site = site().await;
    let gated = GatedPage::start(PRODUCT).await.unwrap();
    let pages = [
        format!("{}/product", site.uri()),
        gated.url().to_owned(),
        gated.url().to_owned(),
    ];
    let updates = follow_with_a_dropped_stream(pages, |u| {
        if matches!(u, BatchUpdate::Live { .. }) {
            gated.open();
        }
    })
    .await;
    let switches: Vec<&str> = updates
        .iter()
        .filter_map(|u| match u {
            BatchUpdate::Polling { .. } => Some("polling"),
            BatchUpdate::Live { .. } => Some("live"),
            _ => None,
        })
        .collect();
    assert_eq!(switches, ["polling", "live"]);
}
