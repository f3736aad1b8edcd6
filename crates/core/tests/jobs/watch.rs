//! Watching a batch through its one follower: the watcher gets the service's whole timeline in
//! frames, every event and result once and in order, whether it joined before the follower
//! started, while it ran, or after a relaunch; once finished the batch opens from its kept
//! timeline with no request to the service.

use std::collections::BTreeMap;

use specdesk_core::BatchRunMode;
use specdesk_core::agents::frames;
use specdesk_core::jobs::BatchWatch;
use specdesk_types::{Batch, TaskEvent};

use super::*;

pub(crate) fn task(url: String, instruction: &str) -> BrowserTask {
    serde_json::from_value(serde_json::json!({"url": url, "instruction": instruction})).unwrap()
}

/// `n` tasks reading the sandbox's own health page ("Read 0", "Read 1"...).
pub(crate) fn health_tasks(w: &World, n: usize) -> Vec<BrowserTask> {
    (0..n)
        .map(|i| {
            task(
                format!("{}/_sandbox/health", w.sb.base_url()),
                &format!("Read {i}"),
            )
        })
        .collect()
}

/// What a watcher of job `job_id` receives, to its end: every event, and the finished batch.
async fn watch_job_to_end(runner: &JobRunner, job_id: i64) -> (Vec<BatchEvent>, Batch) {
    let mut events = Vec::new();
    let batch = match runner.watch_job(job_id).unwrap() {
        BatchWatch::Live(reader) => frames::in_frames(reader, frames::FRAME, |f| events.extend(f))
            .await
            .unwrap(),
        _ => panic!("a batch of this runner is watched through its follower"),
    };
    (events, batch)
}

/// Every batch poll hangs until the faults are cleared.
async fn hang_batch_polls(sb: &SandboxHandle) {
    fault(sb, serde_json::json!({"match": {"method": "GET", "path": "/api/v1/browser-agents/*"}, "times": 1000, "delayMs": 600000})).await;
}

/// What a watcher of `batch_id` receives: the frames' events and the ending.
async fn watch(runner: &JobRunner, batch_id: &str) -> (Vec<BatchEvent>, usize, Batch) {
    let mut events = Vec::new();
    let mut messages = 0;
    let batch = match runner.watch_batch(batch_id).unwrap() {
        BatchWatch::Live(reader) => frames::in_frames(reader, frames::FRAME, |f| {
            messages += 1;
            events.extend(f)
        })
        .await
        .unwrap(),
        BatchWatch::Kept(kept) => frames::replay(kept, |f| {
            messages += 1;
            events.extend(f)
        })
        .unwrap(),
        BatchWatch::Unfollowed(_) => panic!("batch {batch_id} is followed by nobody"),
    };
    (events, messages, batch)
}

/// The service's timeline of `batch_id`, per task.
async fn service_timeline(client: &Client, batch_id: &str) -> BTreeMap<u32, Vec<TaskEvent>> {
    let full = client.agents().get(batch_id, true).await.unwrap();
    let mut per_task: BTreeMap<u32, Vec<TaskEvent>> = BTreeMap::new();
    for e in full
        .results
        .iter()
        .flat_map(|r| r.events.clone().unwrap_or_default())
    {
        per_task.entry(e.task_index).or_default().push(e);
    }
    per_task
}

/// The watched events per task, and the tasks whose result came (each once).
fn per_task(events: &[BatchEvent]) -> (BTreeMap<u32, Vec<TaskEvent>>, Vec<u32>) {
    let mut timeline: BTreeMap<u32, Vec<TaskEvent>> = BTreeMap::new();
    let mut results = Vec::new();
    for e in events {
        match e {
            BatchEvent::TaskEvent { event } => timeline
                .entry(event.task_index)
                .or_default()
                .push(event.clone()),
            BatchEvent::TaskResult { result } => results.push(result.task_index),
            BatchEvent::Polling { .. } | BatchEvent::Live { .. } => {}
            BatchEvent::Reconnecting { .. } => {}
            other => panic!("an ending inside the frames: {other:?}"),
        }
    }
    results.sort_unstable();
    (timeline, results)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_relaunched_mid_batch_sees_every_event_once_then_the_kept_timeline() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let tasks = health_tasks(&w, 3);

    // The first run sends the batch; its follower's polls hang, and the app is killed.
    hang_batch_polls(&w.sb).await;
    let (notifier, _) = told();
    let first = w.runner(&library, notifier);
    let job = first
        .start_batch(
            "pro",
            tasks,
            BatchOptions::default(),
            BatchRunMode::Background,
            None,
        )
        .await
        .unwrap();
    let batch_id = job.remote_id.clone().expect("the batch id is stored");
    assert!(matches!(
        first.watch_batch(&batch_id).unwrap(),
        BatchWatch::Live(_)
    ));
    drop(first);
    clear_faults(&w.sb).await;

    // Relaunched: a watcher joins the new follower and gets the whole timeline once.
    let (notifier, mut notified) = told();
    let second = w.runner(&library, notifier);
    assert_eq!(second.resume_all().await.unwrap(), 1);
    let (events, messages, batch) = watch(&second, &batch_id).await;
    assert_eq!(batch.id, batch_id);
    assert_eq!(next(&mut notified).await.status, JobStatus::Completed);
    let (timeline, results) = per_task(&events);
    assert_eq!(timeline, service_timeline(&client, &batch_id).await);
    assert_eq!(results, [0, 1, 2]);
    assert!(
        messages < events.len(),
        "{messages} messages for {} events",
        events.len()
    );

    // Finished: it opens from this computer, the same timeline, screenshots included.
    hang_batch_polls(&w.sb).await;
    let (kept, _, kept_batch) = watch(&second, &batch_id).await;
    assert_eq!(kept_batch.id, batch_id);
    assert_eq!(per_task(&kept).0, timeline);
    assert!(
        kept.iter().any(|e| matches!(e, BatchEvent::TaskEvent { event } if event.kind.event_type() == specdesk_types::TaskEventType::Screenshot)),
        "the sandbox's screenshots are kept"
    );
    clear_faults(&w.sb).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_that_loses_the_service_says_so_then_reads_the_batch_by_polling_to_its_end() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    // Every read of the batch fails until the faults are cleared.
    fault(&w.sb, serde_json::json!({"match": {"method": "GET", "path": "/api/v1/browser-agents/*"}, "times": 100000, "respond": {"status": 503}})).await;
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    let job = runner
        .start_batch(
            "pro",
            health_tasks(&w, 2),
            BatchOptions::default(),
            BatchRunMode::Background,
            None,
        )
        .await
        .unwrap();
    let batch_id = job.remote_id.clone().expect("the batch id is stored");
    let BatchWatch::Live(mut reader) = runner.watch_batch(&batch_id).unwrap() else {
        panic!("a batch of this runner is watched through its follower");
    };
    // Watchers hear that the service was lost, once, however often the follower tries again.
    let mut events = reader.next().await.expect("the feed is open");
    // Three more reads failed after it.
    until_faults_left(&w.sb, |left| {
        left.first().is_some_and(|&n| n <= 100_000 - 4)
    })
    .await;
    events.extend(reader.ready());
    assert_eq!(
        events,
        [BatchEvent::Reconnecting {
            reason: "The service had a problem (HTTP 503). Try again in a moment; if it keeps happening, contact support.".to_owned()
        }]
    );
    clear_faults(&w.sb).await;
    let batch = frames::in_frames(reader, frames::FRAME, |f| events.extend(f))
        .await
        .unwrap();
    assert_eq!(next(&mut notified).await.status, JobStatus::Completed);
    // Polling once the service answers, and every event and result came once.
    assert_eq!(
        events[1],
        BatchEvent::Polling {
            batch_id: batch_id.clone(),
            reason: "This batch runs in the background, as you chose, so Specdesk reads its progress every few seconds.".to_owned(),
        }
    );
    let (timeline, results) = per_task(&events);
    assert_eq!(timeline, service_timeline(&client, &batch.id).await);
    assert_eq!(results, [0, 1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_batch_killed_after_its_first_events_is_followed_again_with_every_event_once() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    // The second task's page answers only when the test says: the batch is mid-run, its first
    // events delivered to a watcher, when the app is killed.
    let page = specdesk_sandbox::GatedPage::start(
        "<html><head><title>Gated</title></head><body>Open</body></html>",
    )
    .await
    .unwrap();
    let mut tasks = health_tasks(&w, 2);
    tasks[1].url = page.url().to_owned();
    let (notifier, _) = told();
    let first = w.runner(&library, notifier);
    let job = first
        .start_batch(
            "pro",
            tasks,
            BatchOptions::default(),
            BatchRunMode::Live,
            None,
        )
        .await
        .unwrap();
    let BatchWatch::Live(mut reader) = first.watch_job(job.id).unwrap() else {
        panic!("a batch of this runner is watched through its follower");
    };
    let mut before = Vec::new();
    while !before
        .iter()
        .any(|e| matches!(e, BatchEvent::TaskResult { .. }))
    {
        before.extend(reader.next().await.expect("the feed is open"));
    }
    drop(reader);
    drop(first);

    // Relaunched: the batch is followed again by its id, and a new watcher gets it whole, once.
    let (notifier, mut notified) = told();
    let second = w.runner(&library, notifier);
    assert_eq!(second.resume_all().await.unwrap(), 1);
    page.open();
    let (events, batch) = watch_job_to_end(&second, job.id).await;
    assert_eq!(next(&mut notified).await.status, JobStatus::Completed);
    let (timeline, results) = per_task(&events);
    assert_eq!(timeline, service_timeline(&client, &batch.id).await);
    assert_eq!(results, [0, 1]);
    // What the first run delivered is the start of the same timeline.
    let (early, _) = per_task(&before);
    for (task, seen) in early {
        assert_eq!(seen[..], timeline[&task][..seen.len()], "task {task}");
    }
    assert_eq!(batches_made(&client).await, 1);
}

/// The service's batches (each created once, whatever was sent again).
pub(crate) async fn batches_made(client: &Client) -> u64 {
    client.agents().list(None, None, None).await.unwrap().total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_batch_whose_stream_drops_is_finished_by_polling_with_every_event_once() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    for after in [1, 4, 9] {
        fault(&w.sb, serde_json::json!({"match": {"method": "POST", "path": "/api/v1/browser-agents"}, "times": 1, "dropStreamAfterEvents": after})).await;
        let (notifier, mut notified) = told();
        let runner = w.runner(&library, notifier);
        let tasks = health_tasks(&w, 3);
        let job = runner
            .start_batch(
                "pro",
                tasks,
                BatchOptions::default(),
                BatchRunMode::Live,
                None,
            )
            .await
            .unwrap();
        // Watched by its job: the service names the batch only when the stream drops.
        let (events, batch) = watch_job_to_end(&runner, job.id).await;
        let done = next(&mut notified).await;
        assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));
        assert_eq!(done.remote_id.as_deref(), Some(batch.id.as_str()));
        let polling = events
            .iter()
            .filter(|e| matches!(e, BatchEvent::Polling { .. }))
            .count();
        assert_eq!(
            polling, 1,
            "dropped after {after} events: one switch to polling"
        );
        let (timeline, results) = per_task(&events);
        assert_eq!(
            timeline,
            service_timeline(&client, &batch.id).await,
            "dropped after {after}"
        );
        assert_eq!(results, [0, 1, 2]);
    }
    assert_eq!(
        batches_made(&client).await,
        3,
        "one batch per run, never two"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_run_to_its_end_in_one_request_gives_its_whole_timeline_and_keeps_it() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    let tasks = health_tasks(&w, 2);
    let job = runner
        .start_batch(
            "pro",
            tasks,
            BatchOptions::default(),
            BatchRunMode::Wait,
            None,
        )
        .await
        .unwrap();
    let (events, batch) = watch_job_to_end(&runner, job.id).await;
    assert_eq!(next(&mut notified).await.status, JobStatus::Completed);
    let (timeline, results) = per_task(&events);
    assert_eq!(results, [0, 1]);
    assert_eq!((batch.total, batch.completed), (2, 2));
    // The whole answer carries no steps: the watcher still gets every one, once, in order.
    let service = service_timeline(&client, &batch.id).await;
    assert_eq!(service.len(), 2);
    assert_eq!(timeline, service);
    let kept = match runner.watch_batch(&batch.id).unwrap() {
        BatchWatch::Kept(kept) => kept,
        _ => panic!("a finished batch opens from its kept timeline"),
    };
    let kept: Vec<BatchEvent> = kept
        .into_iter()
        .filter(|e| !matches!(e, BatchEvent::Done { .. }))
        .collect();
    assert_eq!(per_task(&kept), (service, vec![0, 1]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_batch_killed_before_its_id_arrived_is_created_once_after_a_relaunch() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    // The live send hangs; the app is killed meanwhile.
    fault(&w.sb, serde_json::json!({"match": {"method": "POST", "path": "/api/v1/browser-agents"}, "times": 1, "delayMs": 600000})).await;
    let (notifier, _) = told();
    let first = w.runner(&library, notifier);
    let tasks = vec![task(
        format!("{}/_sandbox/health", w.sb.base_url()),
        "Read it",
    )];
    let job = first
        .start_batch(
            "pro",
            tasks,
            BatchOptions::default(),
            BatchRunMode::Live,
            None,
        )
        .await
        .unwrap();
    // The send reached the service (the delay fault is used up) before the app is killed.
    until_faults_left(&w.sb, <[u64]>::is_empty).await;
    drop(first);
    clear_faults(&w.sb).await;

    let (notifier, mut notified) = told();
    let second = w.runner(&library, notifier);
    assert_eq!(second.resume_all().await.unwrap(), 1);
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));
    assert_eq!(
        batches_made(&client).await,
        1,
        "sent again with its key: one batch"
    );
}

/// The next `n` submissions of a batch are refused for want of room (`429`).
async fn refuse_submissions(sb: &SandboxHandle, n: u32) {
    fault(sb, serde_json::json!({"match": {"method": "POST", "path": "/api/v1/browser-agents"}, "times": n, "respond": {"status": 429, "message": "Too many requests"}})).await;
}

async fn live_batch(w: &World, runner: &JobRunner) -> Job {
    let tasks = health_tasks(w, 2);
    runner
        .start_batch(
            "pro",
            tasks,
            BatchOptions::default(),
            BatchRunMode::Live,
            None,
        )
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_batch_refused_a_stream_runs_in_the_background_and_says_so() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    refuse_submissions(&w.sb, 1).await;
    let job = live_batch(&w, &runner).await;
    let (events, batch) = watch_job_to_end(&runner, job.id).await;
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));
    let reasons: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            BatchEvent::Polling { reason, .. } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        reasons,
        [
            "The service has no live stream free for you right now, so this batch runs in the background and Specdesk reads its progress every few seconds instead. Nothing is lost."
        ]
    );
    let (_, results) = per_task(&events);
    assert_eq!(results, [0, 1]);
    assert_eq!(done.remote_id.as_deref(), Some(batch.id.as_str()));
    assert_eq!(batches_made(&client).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_refused_for_tasks_in_flight_waits_for_room_saying_how_many_run_then_is_sent_once()
{
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    let mut changes = runner.subscribe();
    // The live send and the background one are refused: no room at all, for one attempt.
    refuse_submissions(&w.sb, 2).await;
    let job = live_batch(&w, &runner).await;
    let held = loop {
        let changed = tokio::time::timeout(Duration::from_secs(60), changes.recv())
            .await
            .expect("the job was never held")
            .unwrap();
        if changed.id == job.id && changed.error.is_some() {
            break changed;
        }
    };
    let error = held.error.unwrap();
    assert_eq!(error.kind, IpcErrorKind::RateLimited);
    assert_eq!(
        error.message,
        "The service is already running 0 of your tasks and takes at most 5,000 at once. Specdesk sends this batch by itself as soon as there is room, even after a restart. You can also stop it and send fewer tasks."
    );
    assert_eq!(held.status, JobStatus::Queued);
    // Room again: the runner's next attempt sends it, once.
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));
    assert_eq!(batches_made(&client).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_batch_refused_for_tasks_in_flight_is_held_saying_how_many_run_then_sent_once()
{
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    refuse_submissions(&w.sb, 1).await;
    let held = runner
        .start_batch(
            "pro",
            health_tasks(&w, 1),
            BatchOptions::default(),
            BatchRunMode::Background,
            None,
        )
        .await
        .expect("a batch with no room yet is held, not refused");
    assert_eq!(
        (held.status, held.remote_id.as_deref()),
        (JobStatus::Queued, None)
    );
    let error = held.error.expect("held with the reason");
    assert_eq!(
        (error.kind, error.status),
        (IpcErrorKind::RateLimited, Some(429))
    );
    assert_eq!(
        error.message,
        "The service is already running 0 of your tasks and takes at most 5,000 at once. Specdesk sends this batch by itself as soon as there is room, even after a restart. You can also stop it and send fewer tasks."
    );
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (held.id, JobStatus::Completed));
    assert_eq!(batches_made(&client).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_run_elsewhere_is_followed_once_for_every_watcher_then_kept() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let (notifier, _notified) = told();
    let runner = w.runner(&library, notifier);
    // Started by another client: no job of this runner follows it.
    let tasks = health_tasks(&w, 3);
    let prepared = client
        .agents()
        .prepare(tasks, BatchOptions::default())
        .unwrap();
    let started = client.agents().start(&prepared).await.unwrap();
    // Its first poll waits a moment, so both watchers join while the one follower runs.
    fault(&w.sb, serde_json::json!({"match": {"method": "GET", "path": "/api/v1/browser-agents/*"}, "times": 1, "delayMs": 1500})).await;
    let BatchWatch::Unfollowed(id) = runner.watch_batch(&started.id).unwrap() else {
        panic!("nobody follows a batch run elsewhere yet");
    };
    let first = runner.follow_elsewhere(w.client("pro").await, &id);
    // A second watcher is handed the follower's feed, not a follower of its own.
    let BatchWatch::Live(second) = runner.watch_batch(&started.id).unwrap() else {
        panic!("the second watcher joins the running follower");
    };
    let mut a = Vec::new();
    let mut b = Vec::new();
    let (one, two) = tokio::join!(
        frames::in_frames(first, frames::FRAME, |f| a.extend(f)),
        frames::in_frames(second, frames::FRAME, |f| b.extend(f)),
    );
    let (one, two) = (one.unwrap(), two.unwrap());
    assert_eq!(one.id, started.id);
    assert_eq!(one, two);
    assert_eq!(a, b, "both watchers saw the same timeline");
    let (timeline, results) = per_task(&a);
    assert_eq!(timeline, service_timeline(&client, &started.id).await);
    assert_eq!(results, [0, 1, 2]);
    // Finished: kept on this computer, and the follower is gone.
    assert!(matches!(
        runner.watch_batch(&started.id).unwrap(),
        BatchWatch::Kept(_)
    ));
}
