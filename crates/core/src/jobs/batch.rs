//! Following a browser batch: sent again with its idempotency key when its id never arrived, then
//! followed (stream, then polling) to its results.

use std::sync::Arc;

use futures::StreamExt;
use specdesk_client::{BatchOptions, BatchUpdate, Client, Metering};
use specdesk_types::{Batch, BatchStatus, TaskStatus};

use super::BatchJobRequest;
use super::JobRunner;
use super::runner::{Halt, Inner, Step, request_of, to_json, was_refused};
use crate::agents::feed::{FeedReader, FeedWriter};
use crate::agents::timeline;
use crate::events::BatchEvent;
use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobKind, JobStatus};
use crate::task_inputs;

pub(super) async fn follow_batch(inner: &Arc<Inner>, mut job: Job) -> Step {
    let client = inner.clients.client_for(&job.profile_id).await?;
    let request: BatchJobRequest = request_of(&job)?;
    let total = request.tasks.len();
    let batch_id = match job.remote_id.clone() {
        Some(id) => id,
        None => {
            let Some(key) = job.idempotency_key.clone() else {
                return Err(Halt::Fail(IpcError::failed(
                    "This batch has no idempotency key, so it cannot be sent again safely. Check your batches, then run it again if it is not there.",
                )));
            };
            let mut tasks = request.tasks;
            let vault = if task_inputs::any(&tasks) {
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
                Some(vault)
            } else {
                None
            };
            let prepared = client
                .agents()
                .prepare(
                    tasks,
                    BatchOptions {
                        concurrency: request.concurrency,
                        idempotency_key: Some(key.clone()),
                    },
                )
                .map_err(|e| Halt::Fail(IpcError::from(e)))?;
            // The same key returns the batch already created, if the first send arrived.
            let sent = client.agents().start(&prepared).await;
            if let Some(vault) = &vault
                && sent.as_ref().map_or_else(was_refused, |_| true)
            {
                task_inputs::forget(vault, &key).await;
            }
            let batch = sent?;
            inner.library.set_remote_id(job.id, &batch.id)?;
            job = inner.emit(job.id)?;
            batch.id
        }
    };
    let feed = inner.feeds.open(&batch_id);
    let mut writer = feed.writer();
    let outcome = follow_updates(inner, job, &client, &batch_id, total, &mut writer).await;
    match &outcome {
        Ok(()) => inner.feeds.close(&batch_id, &feed),
        // Watchers learn why it stopped; following it again opens a new feed.
        Err(Halt::Stop(error) | Halt::Fail(error)) => {
            writer.publish(BatchEvent::Error {
                error: error.clone(),
            });
            inner.feeds.close(&batch_id, &feed);
        }
        Err(Halt::Finished) => {
            writer.publish(BatchEvent::Error {
                error: IpcError::new(IpcErrorKind::Cancelled, "This batch was stopped."),
            });
            inner.feeds.close(&batch_id, &feed);
        }
        // Followed again soon: its watchers wait for the rest.
        Err(Halt::Retry(_)) => {}
    }
    outcome
}

/// Follows batch `batch_id` to its end: progress in the ledger, each update published to its
/// feed, the finished timeline kept, the charge recorded.
async fn follow_updates(
    inner: &Arc<Inner>,
    mut job: Job,
    client: &Client,
    batch_id: &str,
    total: usize,
    writer: &mut FeedWriter,
) -> Step {
    let mut updates = std::pin::pin!(client.agents().follow_batch(batch_id));
    let mut finished = 0usize;
    while let Some(update) = updates.next().await {
        let update = update?;
        if !matches!(update, BatchUpdate::Done(_)) {
            writer.publish(BatchEvent::from(update.clone()));
        }
        match update {
            BatchUpdate::Event(_) | BatchUpdate::Polling { .. } => {
                if job.status != JobStatus::Running {
                    let text = format!("0 of {total} tasks finished");
                    inner.progress(&mut job, JobStatus::Running, Some(&text))?;
                }
            }
            BatchUpdate::Result(_) => {
                finished += 1;
                let text = format!("{finished} of {total} tasks finished");
                inner.progress(&mut job, JobStatus::Running, Some(&text))?;
            }
            BatchUpdate::Done(batch) => {
                let succeeded = batch
                    .results
                    .iter()
                    .filter(|r| r.status == TaskStatus::Success)
                    .count();
                let mut result = to_json(&batch)?;
                if let Some(results) = result.get_mut("results").and_then(|r| r.as_array_mut()) {
                    // The timelines (screenshots included) are the service's to keep, and the
                    // input values it echoes are secrets: only their names are kept.
                    for r in results {
                        if let Some(o) = r.as_object_mut() {
                            o.remove("events");
                            task_inputs::blank_values(o.get_mut("input"));
                        }
                    }
                }
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
                keep_timeline(inner, &batch, writer);
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

/// Keeps the finished batch's timeline on this computer (a failure only costs the offline copy).
fn keep_timeline(inner: &Inner, batch: &Batch, writer: &FeedWriter) {
    let dir = inner.config().timelines_dir.clone();
    if let Err(e) = timeline::store(&dir, batch, &writer.events()) {
        tracing::warn!("a batch timeline could not be kept: {}", e.message);
    }
}

/// Ends batch `batch_id`'s feed, if one is open, telling its watchers it was stopped.
pub(super) fn end_feed(inner: &Inner, batch_id: &str) {
    if let Some(feed) = inner.feeds.get(batch_id) {
        feed.end(BatchEvent::Error {
            error: IpcError::new(IpcErrorKind::Cancelled, "This batch was stopped."),
        });
        inner.feeds.close(batch_id, &feed);
    }
}

/// How a batch is watched (see [`JobRunner::watch_batch`]).
pub enum BatchWatch {
    /// Followed by this runner: its feed, read from the start.
    Live(FeedReader),
    /// Finished, its timeline kept on this computer: every event, ending with `done`.
    Kept(Vec<BatchEvent>),
    /// Neither: the caller follows it itself ([`crate::agents::watch_batch`]).
    Unfollowed,
}

impl JobRunner {
    /// Batch `batch_id` as a watcher sees it: the feed of its follower (never a second poll of
    /// the service), else its kept timeline, else nothing known here.
    pub fn watch_batch(&self, batch_id: &str) -> Result<BatchWatch, IpcError> {
        let inner = &self.inner;
        if let Some(feed) = inner.feeds.get(batch_id) {
            return Ok(BatchWatch::Live(feed.reader()));
        }
        if let Some(job) = inner.library.job_by_remote_id(JobKind::Batch, batch_id)?
            && !job.status.is_final()
            && inner.is_followed(job.id)
        {
            // Its follower publishes into this feed (it may be starting or waiting to retry).
            return Ok(BatchWatch::Live(inner.feeds.open(batch_id).reader()));
        }
        let dir = inner.config().timelines_dir.clone();
        Ok(match timeline::load(&dir, batch_id) {
            Some(events) => BatchWatch::Kept(events),
            None => BatchWatch::Unfollowed,
        })
    }

    /// Where finished batches' timelines are kept.
    pub fn timelines_dir(&self) -> std::path::PathBuf {
        self.inner.config().timelines_dir.clone()
    }
}
