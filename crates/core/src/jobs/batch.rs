//! Following a browser batch. Its first send is made the way the user chose
//! ([`BatchRunMode`]): live (a stream of its events, then polling if the stream drops or stalls),
//! in the background (`async`, then polling) or waiting for the whole result. A batch whose id
//! never arrived (the app stopped, an answer was lost) is sent again in the background with its
//! idempotency key, so the service returns the batch it has instead of making a second one.
//! Every update goes to the batch's feed (its watchers), progress to the ledger; the finished
//! timeline is kept on this computer.

use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{Stream, StreamExt};
use specdesk_client::{BatchOptions, BatchUpdate, Client, Metering, PreparedBatch};
use specdesk_types::{Batch, BatchStatus, TaskStatus};

use super::runner::{Halt, Inner, Step, request_of, to_json, was_refused};
use super::{BatchJobRequest, BatchRunMode};
use super::{batch_busy, batch_key};
use crate::agents::feed::{Feed, FeedWriter, job_key, pace_of};
use crate::agents::timeline;
use crate::events::BatchEvent;
use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobStatus};
use crate::task_inputs;

/// A batch's progress ("N of M tasks finished") is recorded at most this often: each record is a
/// ledger write and a `job-changed` broadcast of the whole job (its request with every task) to
/// the web view, and a busy batch finishes hundreds of tasks a second. The finished batch is
/// always recorded (`finish`).
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// How long a live batch's stream waits for its id to be learnt (`learn_id`).
const LEARN_ID_WITHIN: Duration = Duration::from_secs(5);

/// Why a batch run in the background is read by polling.
const IN_BACKGROUND: &str = "This batch runs in the background, as you chose, so Specdesk reads its progress every few seconds.";
/// Why a batch followed again by its id is read by polling.
const FOLLOWED_AGAIN: &str = "Specdesk picked this batch up again (after a restart or a lost connection) and reads its progress every few seconds. Nothing is lost.";

type Updates = Pin<Box<dyn Stream<Item = Result<BatchUpdate, specdesk_client::Error>> + Send>>;

pub(super) async fn follow_batch(inner: &Arc<Inner>, job: Job) -> Step {
    let feed = inner.feeds.open(&job_key(job.id));
    if let Some(batch_id) = &job.remote_id {
        inner.feeds.alias(batch_id, &feed);
    }
    let mut writer = feed.writer();
    let key = job.idempotency_key.clone();
    let outcome = follow(inner, job, &feed, &mut writer).await;
    // Failing (the runner records it next) or stopped by the user: the batch has ended. (A
    // finished batch forgot them once recorded; held or retried, they stay.)
    // One not known to have reached the service keeps them for its Send again.
    let unconfirmed = matches!(&outcome, Err(Halt::Fail(e)) if e.kind == IpcErrorKind::Unconfirmed);
    if matches!(outcome, Err(Halt::Fail(_) | Halt::Finished)) && !unconfirmed {
        forget_values(inner, key.as_deref()).await;
    }
    let stopped = match &outcome {
        Ok(()) => None,
        Err(Halt::Stop(error) | Halt::Fail(error)) => Some(error.clone()),
        Err(Halt::Finished) => Some(IpcError::new(
            IpcErrorKind::Cancelled,
            "This batch was stopped.",
        )),
        // Followed again soon: its watchers wait for the rest, told why (a batch waiting for
        // room says so on its job instead).
        Err(Halt::Retry(error)) => {
            if error.kind != IpcErrorKind::RateLimited {
                writer.publish(BatchEvent::Reconnecting {
                    reason: error.message.clone(),
                });
            }
            return outcome;
        }
    };
    // Watchers learn why it stopped; following it again opens a new feed.
    if let Some(error) = stopped {
        writer.publish(BatchEvent::Error { error });
    }
    inner.feeds.close(&feed);
    outcome
}

/// Sends the batch if the service does not have it yet, then follows it to its end.
async fn follow(inner: &Arc<Inner>, job: Job, feed: &Arc<Feed>, writer: &mut FeedWriter) -> Step {
    let client = inner.clients.client_for(&job.profile_id).await?;
    let request: BatchJobRequest = request_of(&job)?;
    let total = request.tasks.len();
    let remote_id = match job.remote_id.clone() {
        Some(id) => Some(id),
        // Sent again (a relaunch, a hold, a retry) after the service may have forgotten its key:
        // never posted again, looked for instead, then followed by its id (batch_key).
        None if !inner.has_first_send(job.id)
            && !batch_key::may_post(&job.created_at, inner.config().clock.now()) =>
        {
            let found =
                batch_key::find_and_name(&client, &inner.library, &job, &request.tasks, |id| {
                    named(inner, &job, id, feed)
                })
                .await?;
            let Some(id) = found else {
                return Err(Halt::Fail(batch_key::unconfirmed(&job)));
            };
            Some(id)
        }
        None => None,
    };
    let updates: Updates = match remote_id {
        Some(id) => {
            // The service has the batch (a relaunch, or a lost connection): its input values,
            // kept until it ends, are read so the redactor scrubs them from the steps and
            // results that echo them (a page showing the email it was signed in with). Not
            // followed without them: a locked keychain holds the batch, saying so, until it is
            // followed again (opened, the next start, a key saved).
            if task_inputs::any(&request.tasks)
                && let (Some(vault), Some(key)) =
                    (inner.clients.vault(), job.idempotency_key.as_deref())
            {
                match task_inputs::read(&vault, key).await {
                    Err(e) if e.kind.is_keychain() => return Err(e.into()),
                    // Kept values that cannot be read (damaged) would hold it for good.
                    Err(e) => tracing::warn!("a batch's kept input values: {}", e.message),
                    Ok(_) => {}
                }
            }
            // Run in the background, or followed again (after a relaunch or a lost connection):
            // by polling to its end.
            let reason = match request.mode {
                BatchRunMode::Background => IN_BACKGROUND,
                BatchRunMode::Live | BatchRunMode::Wait => FOLLOWED_AGAIN,
            };
            let polling = BatchUpdate::Polling {
                batch_id: id.clone(),
                reason: reason.to_owned(),
            };
            announced(
                polling,
                client.agents().follow_batch_paced(&id, pace_of(feed)),
            )
        }
        None => {
            let first = inner.take_first_send(job.id);
            let prepared = prepare(inner, &job, &client, request).await?;
            match first {
                Some(BatchRunMode::Live) => {
                    let mut live = Box::pin(
                        client
                            .agents()
                            .follow_paced(&prepared, pace_of(feed))
                            .peekable(),
                    );
                    let first_frame = live.as_mut().peek().await;
                    // Refused at the first answer: nothing was made.
                    if let Some(Err(e)) = first_frame
                        && refused_for_good(e)
                    {
                        return Err(refused(e));
                    }
                    let refused = matches!(first_frame, Some(Err(e)) if batch_busy::no_room(e));
                    let unnamed = matches!(
                        first_frame,
                        Some(Ok(BatchUpdate::Event(_) | BatchUpdate::Result(_)))
                    );
                    if unnamed {
                        learn_id(inner, &job, &client, &prepared, feed).await;
                    }
                    if refused {
                        // No stream free (or no room at all, which the background send tells).
                        let (batch_id, updates) =
                            in_background(inner, &job, &client, &prepared, feed).await?;
                        writer.publish(BatchEvent::Polling {
                            batch_id,
                            reason: batch_busy::NO_STREAM_FREE.to_owned(),
                        });
                        updates
                    } else {
                        live
                    }
                }
                Some(BatchRunMode::Wait) => {
                    let agents = client.agents();
                    let outcome = agents.run(&prepared).await;
                    // Named at once: a relaunch follows it by its id.
                    if let Ok(batch) = &outcome {
                        named(inner, &job, &batch.id, feed)?;
                    }
                    let batch = match outcome {
                        Err(e) if batch_busy::no_room(&e) => {
                            return Err(batch_busy::wait_for_room(&client, &e).await);
                        }
                        Err(e) if refused_for_good(&e) => return Err(refused(&e)),
                        other => other?,
                    };
                    // The whole answer has no timelines: one read of the finished batch with its
                    // events gives every step, then each result and the batch, as polling does.
                    Box::pin(client.agents().follow_batch_paced(&batch.id, pace_of(feed)))
                }
                // In the background, or sent again: the same key returns the batch made already.
                Some(BatchRunMode::Background) | None => {
                    let (batch_id, updates) =
                        in_background(inner, &job, &client, &prepared, feed).await?;
                    let reason = match first {
                        Some(_) => IN_BACKGROUND,
                        None => FOLLOWED_AGAIN,
                    };
                    let polling = BatchUpdate::Polling {
                        batch_id,
                        reason: reason.to_owned(),
                    };
                    announced(polling, updates)
                }
            }
        }
    };
    let job = inner.library.job(job.id)?;
    follow_updates(inner, job, feed, updates, total, writer).await
}

/// Deletes the input values of a batch that has ended: they are needed no more, neither to send
/// it again nor to scrub what it echoes (task_inputs.rs).
async fn forget_values(inner: &Inner, idempotency_key: Option<&str>) {
    if let (Some(vault), Some(key)) = (inner.clients.vault(), idempotency_key) {
        task_inputs::forget(&vault, key).await;
    }
}

/// `updates` with `first` before the first update that comes: said once the service answers,
/// never over a failure (a follower that cannot reach it is reconnecting, not polling).
fn announced(
    first: BatchUpdate,
    updates: impl Stream<Item = Result<BatchUpdate, specdesk_client::Error>> + Send + 'static,
) -> Updates {
    let mut first = Some(first);
    Box::pin(updates.flat_map(move |update| {
        let head = update.is_ok().then(|| first.take()).flatten();
        futures::stream::iter(head.map(Ok).into_iter().chain([update]))
    }))
}

/// Sends the batch to run in the background (`async`) and follows it by polling; returns the
/// batch's id with its updates. Refused for want of room, the batch waits for it
/// (`batch_busy::wait_for_room`).
async fn in_background(
    inner: &Inner,
    job: &Job,
    client: &Client,
    prepared: &PreparedBatch,
    feed: &Arc<Feed>,
) -> Result<(String, Updates), Halt> {
    let outcome = client.agents().start(prepared).await;
    // Named at once: a relaunch follows it by its id.
    if let Ok(batch) = &outcome {
        named(inner, job, &batch.id, feed)?;
    }
    let batch = match outcome {
        Err(e) if batch_busy::no_room(&e) => {
            return Err(batch_busy::wait_for_room(client, &e).await);
        }
        Err(e) if refused_for_good(&e) => return Err(refused(&e)),
        other => other?,
    };
    let updates: Updates = Box::pin(client.agents().follow_batch_paced(&batch.id, pace_of(feed)));
    Ok((batch.id, updates))
}

/// The end of a batch the service refused at its first send (a `400`, `401` or `402`): nothing
/// was made, so it fails with the service's reason instead of waiting to be sent again; the
/// builder that sent it takes its tasks back to fix them.
fn refused(e: &specdesk_client::Error) -> Halt {
    Halt::Fail(IpcError::from(e))
}

/// The live stream names its batch only in its last frame: once it is open, the same submission
/// sent again in the background (same idempotency key) answers with the batch made, whose id is
/// stored at once. Then watchers and the history know the batch while it runs, and a relaunch
/// follows it by its id. Failing that, the id comes with the stream's end, as before.
async fn learn_id(
    inner: &Inner,
    job: &Job,
    client: &Client,
    prepared: &PreparedBatch,
    feed: &Arc<Feed>,
) {
    // Bounded: the open stream waits meanwhile (a slow answer only leaves the id to the end).
    let answer = tokio::time::timeout(LEARN_ID_WITHIN, client.agents().start(prepared)).await;
    match answer {
        Err(_) => tracing::info!("a live batch's id is learnt at its end: no answer in time"),
        Ok(Ok(batch)) => {
            if named(inner, job, &batch.id, feed).is_err() {
                tracing::warn!("a live batch's id could not be stored yet");
            }
        }
        Ok(Err(e)) => tracing::info!("a live batch's id is learnt at its end: {e}"),
    }
}

/// Records the id the service gave the batch of `job` (a relaunch follows it by that id).
fn named(inner: &Inner, job: &Job, batch_id: &str, feed: &Arc<Feed>) -> Result<(), Halt> {
    inner.library.set_remote_id(job.id, batch_id)?;
    inner.feeds.alias(batch_id, feed);
    inner.emit(job.id)?;
    Ok(())
}

/// The batch's tasks with their input values back from the keychain, ready to send with its
/// idempotency key.
async fn prepare(
    inner: &Inner,
    job: &Job,
    client: &Client,
    request: BatchJobRequest,
) -> Result<PreparedBatch, Halt> {
    let Some(key) = job.idempotency_key.clone() else {
        return Err(Halt::Fail(IpcError::failed(
            "This batch has no idempotency key, so it cannot be sent again safely. Check your batches, then run it again if it is not there.",
        )));
    };
    let mut tasks = request.tasks;
    if task_inputs::any(&tasks) {
        let vault = inner.clients.vault().ok_or_else(|| {
            Halt::Fail(IpcError::new(
                IpcErrorKind::KeychainUnavailable,
                "This batch's input values could not be read back without a keychain, so it was not sent again.",
            ))
        })?;
        match task_inputs::read(&vault, &key).await? {
            Some(values) => task_inputs::fill(&mut tasks, values).map_err(Halt::Fail)?,
            None => {
                return Err(Halt::Fail(IpcError::failed(
                    "This batch's input values are no longer in your keychain, so it was not sent again. Check your batches, then run it again if it is not there.",
                )));
            }
        }
    }
    let clock = inner.config().clock.clone();
    let born = job.created_at.clone();
    let prepared = client
        .agents()
        .prepare(
            tasks,
            BatchOptions {
                concurrency: request.concurrency,
                idempotency_key: Some(key),
            },
        )
        .map_err(|e| Halt::Fail(IpcError::from(e)))?;
    // The client posts it again (back to the live stream) only while the service keeps its key.
    Ok(prepared.guarded(move || batch_key::may_post(&born, clock.now())))
}

/// Whether this send's refusal is final, so the values are needed no more. A refusal the job
/// runner retries (a rate limit: too many tasks in flight or streams open; the service busy) is
/// "not now": the follower sends the batch again after the wait, with its values, so they stay in
/// the keychain.
fn refused_for_good(e: &specdesk_client::Error) -> bool {
    was_refused(e) && !IpcErrorKind::from(e.kind()).is_transient()
}

/// Follows `updates` to the batch's end: progress in the ledger, each update published to the
/// feed, the batch id stored as soon as the service names it, the finished timeline kept, the
/// charge recorded.
async fn follow_updates(
    inner: &Arc<Inner>,
    mut job: Job,
    feed: &Arc<Feed>,
    mut updates: Updates,
    total: usize,
    writer: &mut FeedWriter,
) -> Step {
    // Tasks finished: results read, or the service's count from a status read (the larger).
    let (mut results, mut completed) = (0usize, 0usize);
    let mut last_progress: Option<Instant> = None;
    while let Some(update) = updates.next().await {
        let update = match update {
            Ok(update) => update,
            Err(e) => return Err(e.into()),
        };
        let named = match &update {
            BatchUpdate::Polling { batch_id, .. } | BatchUpdate::Live { batch_id } => {
                Some(batch_id.as_str())
            }
            BatchUpdate::Done(batch) => Some(batch.id.as_str()),
            _ => None,
        };
        if let (None, Some(batch_id)) = (&job.remote_id, named) {
            inner.library.set_remote_id(job.id, batch_id)?;
            inner.feeds.alias(batch_id, feed);
            job = inner.emit(job.id)?;
        }
        if !matches!(update, BatchUpdate::Done(_))
            && let Some(event) = BatchEvent::of(update.clone())
        {
            writer.publish(event);
        }
        match update {
            BatchUpdate::Event(_) | BatchUpdate::Polling { .. } | BatchUpdate::Live { .. } => {
                if job.status != JobStatus::Running {
                    let text = format!("0 of {total} tasks finished");
                    inner.progress(&mut job, JobStatus::Running, Some(&text))?;
                }
            }
            BatchUpdate::Result(_) | BatchUpdate::Progress { .. } => {
                match update {
                    BatchUpdate::Progress { completed: n, .. } => completed = n as usize,
                    _ => results += 1,
                }
                if last_progress.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) {
                    let text = format!("{} of {total} tasks finished", results.max(completed));
                    inner.progress(&mut job, JobStatus::Running, Some(&text))?;
                    last_progress = Some(Instant::now());
                }
            }
            BatchUpdate::Done(batch) => {
                finish(inner, &job, &batch)?;
                keep_timeline(inner, &batch, writer);
                // Recorded and kept, scrubbed: the values go before its watchers learn the end.
                forget_values(inner, job.idempotency_key.as_deref()).await;
                writer.publish(BatchEvent::Done { batch });
                return Ok(());
            }
        }
    }
    Err(Halt::Retry(IpcError::new(
        IpcErrorKind::Network,
        "The batch's progress could not be read. Specdesk will try again.",
    )))
}

/// Records the finished batch: its result (without timelines or input values) in the ledger,
/// its charge in the credit ledger.
fn finish(inner: &Inner, job: &Job, batch: &Batch) -> Step {
    let succeeded = batch
        .results
        .iter()
        .filter(|r| r.status == TaskStatus::Success)
        .count();
    // Without the input values the service echoes (only their names) and without the
    // timelines, kept apart (`keep_timeline`).
    let mut slim = crate::agents::without_values(batch.clone());
    slim.results.iter_mut().for_each(|r| r.events = None);
    let result = to_json(&slim)?;
    inner.library.record_metering(
        &job.profile_id,
        "browser-agents",
        &Metering {
            request_id: None,
            credits_charged: Some(batch.total_credits_used),
            credits_remaining: None,
        },
    )?;
    let text = format!(
        "{} of {} tasks finished, {succeeded} succeeded",
        batch.completed, batch.total
    );
    let (status, error) = if batch.status == BatchStatus::Failed {
        (
            JobStatus::Failed,
            Some(IpcError::failed("The batch failed on the service.")),
        )
    } else {
        (JobStatus::Completed, None)
    };
    inner.finish(job.id, status, Some(&text), Some(&result), error.as_ref())?;
    Ok(())
}

/// Keeps the finished batch's timeline on this computer (a failure only costs the offline copy).
fn keep_timeline(inner: &Inner, batch: &Batch, writer: &FeedWriter) {
    let dir = inner.config().timelines_dir.clone();
    if let Err(e) = timeline::store(&dir, batch, &writer.events()) {
        tracing::warn!("a batch timeline could not be kept: {}", e.message);
    }
}

#[cfg(test)]
mod tests {
    use super::refused_for_good;
    use specdesk_client::{ApiError, Error};

    fn api(status: u16, body: &str) -> Error {
        Error::Api(Box::new(ApiError::from_parts(
            status,
            body.as_bytes(),
            None,
            None,
        )))
    }

    #[test]
    fn only_a_final_refusal_lets_the_values_go() {
        let limited = r#"{"statusCode":429,"error":"Too Many Requests","message":"Too many tasks in flight."}"#;
        let invalid =
            r#"{"statusCode":400,"error":"Bad Request","message":"tasks[0].url is not a URL."}"#;
        assert!(!refused_for_good(&api(429, limited)));
        assert!(refused_for_good(&api(400, invalid)));
    }
}
