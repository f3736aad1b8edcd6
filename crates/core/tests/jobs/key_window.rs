//! A batch's idempotency key past the service's 24-hour window is never posted again (a post
//! would make and charge a second batch): a relaunch looks for the batch in the batch list and
//! follows it, or ends it "not known to have reached the service"; a live batch whose stream
//! drops after a day is polled to its end instead of going back to the stream with its key.
//! A day passes for the sandbox and the runner alike (`/_sandbox/clock/advance`, `advance_clock`).

use specdesk_sandbox::GatedPage;

use super::watch::{batches_made, health_tasks, task};
use super::*;

const A_DAY_AND_AN_HOUR: Duration = Duration::from_secs(25 * 60 * 60);

/// A day and an hour pass, for the service and for `runner`.
async fn a_day_passes(w: &World, runner: &JobRunner) {
    let ms = A_DAY_AND_AN_HOUR.as_millis() as u64;
    control(
        &w.sb,
        reqwest::Method::POST,
        "/_sandbox/clock/advance",
        serde_json::json!({"ms": ms}),
    )
    .await;
    runner.advance_clock(A_DAY_AND_AN_HOUR);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relaunch_a_day_later_finds_the_batch_it_sent_instead_of_posting_its_key_again() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    // Another batch of other tasks, sent just before: never taken for this one.
    client
        .agents()
        .start(
            &client
                .agents()
                .prepare(health_tasks(&w, 1), BatchOptions::default())
                .unwrap(),
        )
        .await
        .unwrap();
    let (job, prepared) = ledger_batch(&library, &client, health_tasks(&w, 3));
    // Sent; the answer (its id) was lost with the app, which stayed closed for a day.
    let created = client.agents().start(&prepared).await.unwrap();

    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    a_day_passes(&w, &runner).await;
    assert_eq!(runner.resume_all().await.unwrap(), 1);
    let done = next(&mut notified).await;
    assert_eq!(
        (done.id, done.status, done.remote_id.as_deref(), done.error),
        (
            job.id,
            JobStatus::Completed,
            Some(created.id.as_str()),
            None
        )
    );
    assert_eq!(
        batches_made(&client).await,
        2,
        "the two batches sent, no third"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_not_found_a_day_later_is_not_known_to_have_reached_the_service_and_never_sent() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    // Written to the ledger, then the app stopped before the send left (or it never arrived).
    let (job, _) = ledger_batch(&library, &client, health_tasks(&w, 2));

    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    a_day_passes(&w, &runner).await;
    assert_eq!(runner.resume_all().await.unwrap(), 1);
    let done = next(&mut notified).await;
    let error = done.error.clone().expect("it says why");
    assert_eq!(
        (done.id, done.status, done.remote_id, error.kind),
        (job.id, JobStatus::Failed, None, IpcErrorKind::Unconfirmed)
    );
    let saved = job.created_at[..16].replace('T', " ");
    assert_eq!(
        error.message,
        format!(
            "This batch is not known to have reached the service. It was saved on {saved} UTC and the service remembers a batch's key for 24 hours only, so sending it now could run and charge it twice. Check your batch history; if it is not there, choose Send again."
        )
    );
    assert_eq!(batches_made(&client).await, 0, "never posted");

    assert_eq!(
        library
            .unconfirmed_batches("pro")
            .unwrap()
            .iter()
            .map(|j| j.id)
            .collect::<Vec<_>>(),
        [job.id]
    );
    // The user's explicit choice: sent again, as a new batch under a new key; two clicks at once
    // (two windows) send it once.
    let (first, second) = tokio::join!(
        runner.settle_unconfirmed(job.id, true),
        runner.settle_unconfirmed(job.id, true)
    );
    let (again, refused) = match (first, second) {
        (Ok(again), Err(refused)) | (Err(refused), Ok(again)) => (again, refused),
        other => panic!("one send, one refusal: {other:?}"),
    };
    assert_eq!(refused.kind, IpcErrorKind::InvalidInput);
    assert!(library.unconfirmed_batches("pro").unwrap().is_empty());
    assert_ne!(again.id, job.id);
    assert_ne!(again.idempotency_key, job.idempotency_key);
    let finished = next(&mut notified).await;
    assert_eq!(
        (finished.id, finished.status),
        (again.id, JobStatus::Completed)
    );
    assert_eq!(batches_made(&client).await, 1);
    let old = library.job(job.id).unwrap();
    assert_eq!(
        (old.status, old.error, old.progress),
        (
            JobStatus::Cancelled,
            None,
            Some(format!("Sent again as a new batch (job {}).", again.id))
        )
    );
    // Settled once: never sent a third time.
    let twice = runner.settle_unconfirmed(job.id, true).await.unwrap_err();
    assert_eq!(twice.kind, IpcErrorKind::InvalidInput);
    assert_eq!(batches_made(&client).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_batch_whose_stream_drops_after_a_day_is_polled_to_its_end_never_posted_again() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let page =
        GatedPage::start("<html><head><title>Report</title></head><body>Ready</body></html>")
            .await
            .unwrap();
    let mut tasks = health_tasks(&w, 1);
    tasks.push(task(page.url().to_owned(), "Read the report"));
    // The stream drops after its first event; the batch's first reads fail (503, retried by the
    // client), long enough for a day to pass; the next four reads count the polls after it.
    fault(&w.sb, serde_json::json!({"match": {"method": "POST", "path": "/api/v1/browser-agents"}, "times": 1, "dropStreamAfterEvents": 1})).await;
    fault(&w.sb, serde_json::json!({"match": {"method": "GET", "path": "/api/v1/browser-agents/*"}, "times": 2, "respond": {"status": 503}})).await;
    fault(&w.sb, serde_json::json!({"match": {"method": "GET", "path": "/api/v1/browser-agents/*"}, "times": 4, "delayMs": 1})).await;

    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
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
    // The stream dropped and the first read of the batch was refused: a day passes.
    until_faults_left(&w.sb, |left| left == [1, 4]).await;
    a_day_passes(&w, &runner).await;
    // Polled past the point where it would go back to the stream (two polls), then finished.
    until_faults_left(&w.sb, |left| left.is_empty()).await;
    page.open();
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));
    assert_eq!(
        batches_made(&client).await,
        1,
        "its key was never posted after the day"
    );
    let batch: specdesk_types::Batch = serde_json::from_value(done.result.unwrap()).unwrap();
    assert_eq!(done.remote_id.as_deref(), Some(batch.id.as_str()));
    assert_eq!(batch.completed, 2);
}
