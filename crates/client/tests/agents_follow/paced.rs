//! A batch followed at a pace (`follow_batch_paced`, `follow_paced`): its status only while
//! nobody watches, its timelines at one poll in three while watched, its timeline once at the end;
//! and a stream whose key is too old is never posted again.

use super::*;
use pretty_assertions::assert_eq;

/// `GET /{id}` without the timelines: the batch's status and its finished results.
fn status_only(status: &str) -> Value {
    let mut batch = polled(status, 99);
    for result in batch["results"].as_array_mut().unwrap() {
        result.as_object_mut().unwrap().remove("events");
    }
    batch
}

/// Follows `batch_7f3a` on `server` at the app's pace (timelines at one poll in three while
/// `watched`), polling without waiting; every update until its end.
async fn follow_at_pace(server: &MockServer, watched: bool) -> Vec<BatchUpdate> {
    let c = client_with(server, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let pace = specdesk_client::Pace::new(move || watched, 3);
    c.agents()
        .follow_batch_paced("batch_7f3a", pace)
        .try_collect()
        .await
        .unwrap()
}

/// Mounts `GET /batch_7f3a` answers: `with_events` (each once, in order, the last for good) for
/// reads with the timelines, `without` likewise for status reads; each expected exactly as often
/// as listed.
async fn mount_reads(server: &MockServer, with_events: Vec<Value>, without: Vec<(Value, u64)>) {
    let n = with_events.len();
    for (i, body) in with_events.into_iter().enumerate() {
        let mock = Mock::given(method("GET"))
            .and(path(format!("{BATCHES}/batch_7f3a")))
            .and(query_param("includeEvents", "true"))
            .respond_with(json(body));
        let mock = if i + 1 < n {
            mock.up_to_n_times(1)
        } else {
            mock
        };
        mock.expect(1).mount(server).await;
    }
    for (body, times) in without {
        Mock::given(method("GET"))
            .and(path(format!("{BATCHES}/batch_7f3a")))
            .and(query_param_is_missing("includeEvents"))
            .respond_with(json(body))
            .up_to_n_times(times)
            .expect(times)
            .mount(server)
            .await;
    }
}

/// Every update that is not a status read's `Progress`.
fn timeline_updates(updates: &[BatchUpdate]) -> Vec<BatchUpdate> {
    updates
        .iter()
        .filter(|u| !matches!(u, BatchUpdate::Progress { .. }))
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_batch_nobody_watches_is_polled_for_its_status_and_its_timeline_read_once_at_its_end() {
    let server = MockServer::start().await;
    mount_reads(
        &server,
        vec![polled("completed", 99)],
        vec![
            (status_only("processing"), 2),
            (status_only("completed"), 1),
        ],
    )
    .await;
    let updates = follow_at_pace(&server, false).await;
    let progress = |completed| BatchUpdate::Progress {
        completed,
        total: 2,
    };
    assert_eq!(updates[..3], [progress(1), progress(1), progress(2)]);
    // Then the whole timeline, from the one read at the end: as a read of the ended batch gives.
    let server2 = MockServer::start().await;
    mount_reads(&server2, vec![polled("completed", 99)], vec![]).await;
    let once = client_with(&server2, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let whole: Vec<BatchUpdate> = once
        .agents()
        .follow_batch("batch_7f3a")
        .try_collect()
        .await
        .unwrap();
    assert_eq!(updates[3..], whole[..]);
}

#[tokio::test]
async fn a_watched_batch_has_its_timelines_read_at_one_poll_in_three() {
    let server = MockServer::start().await;
    // Reads: timelines, status, status, timelines, status, status (ended), then its timeline.
    mount_reads(
        &server,
        vec![
            polled("processing", 2),
            polled("processing", 3),
            polled("completed", 99),
        ],
        vec![
            (status_only("processing"), 3),
            (status_only("completed"), 1),
        ],
    )
    .await;
    let updates = follow_at_pace(&server, true).await;
    let progress: Vec<_> = updates
        .iter()
        .filter(|u| matches!(u, BatchUpdate::Progress { .. }))
        .collect();
    assert_eq!(progress.len(), 4);
    // Every event and result once, as reading the timelines at every poll gives them.
    let server2 = MockServer::start().await;
    mount_polls(&server2, polled("processing", 2)).await;
    let every = client_with(&server2, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let whole: Vec<BatchUpdate> = every
        .agents()
        .follow_batch("batch_7f3a")
        .try_collect()
        .await
        .unwrap();
    assert_eq!(timeline_updates(&updates), whole);
}

#[tokio::test]
async fn a_stream_that_drops_once_its_key_is_too_old_is_never_posted_again() {
    let server = MockServer::start().await;
    let all = timeline();
    // The live stream: two events, then the connection ends without `done` (a day later).
    let body = format!(
        "{}{}",
        frame("task_event", &all[0]),
        frame("task_event", &all[1])
    );
    Mock::given(method("POST"))
        .and(path(BATCHES))
        .respond_with(sse(body))
        .expect(1)
        .mount(&server)
        .await;
    let c = client_with(&server, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let prepared = c
        .agents()
        .prepare(tasks(), options("follow-old"))
        .unwrap()
        .guarded(|| false);
    let updates: Vec<_> = c.agents().follow(&prepared).collect().await;
    // What the stream brought, then an error for the caller to find the batch another way: the
    // key is not posted again to learn the batch's id (one POST in all, checked on drop).
    assert_eq!(updates.len(), 3);
    assert_eq!(
        updates[0].as_ref().unwrap(),
        &BatchUpdate::Event(event(&all[0]))
    );
    assert_eq!(
        updates[1].as_ref().unwrap(),
        &BatchUpdate::Event(event(&all[1]))
    );
    let err = updates[2].as_ref().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Stream);
    assert_eq!(
        err.to_string(),
        "The live connection ended, and this batch was sent too long ago to ask the service for it again by its key."
    );
}

#[tokio::test]
async fn a_dropped_stream_nobody_watches_is_polled_for_its_status_and_its_timeline_read_once() {
    let server = MockServer::start().await;
    let all = timeline();
    let body = format!(
        "{}{}",
        frame("task_event", &all[0]),
        frame("task_event", &all[1])
    );
    mount_dropped_start(&server, "follow-paced", body).await;
    // One status read (ended), then the one read of its timeline.
    mount_reads(
        &server,
        vec![polled("completed", 99)],
        vec![(status_only("completed"), 1)],
    )
    .await;
    let c = client_with(&server, |cfg| cfg.job_poll_interval = Duration::ZERO);
    let prepared = c
        .agents()
        .prepare(tasks(), options("follow-paced"))
        .unwrap();
    let pace = specdesk_client::Pace::new(|| false, 3);
    let updates: Vec<BatchUpdate> = c
        .agents()
        .follow_paced(&prepared, pace)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        updates[..2],
        [
            BatchUpdate::Event(event(&all[0])),
            BatchUpdate::Event(event(&all[1]))
        ]
    );
    assert!(matches!(updates[2], BatchUpdate::Polling { .. }));
    assert_eq!(
        updates[3],
        BatchUpdate::Progress {
            completed: 2,
            total: 2
        }
    );
    // Then the rest of the timeline, each event once (the two streamed are not repeated).
    let events = updates
        .iter()
        .filter(|u| matches!(u, BatchUpdate::Event(_)))
        .count();
    assert_eq!(events, all.len());
    assert!(matches!(updates.last(), Some(BatchUpdate::Done(_))));
}
