//! The runner's browser batches as the app sees them: started (written to the ledger with their
//! key, then sent as the user chose) and watched through the one feed of their follower, or
//! from their kept timeline.

use specdesk_client::BatchOptions;
use specdesk_types::BrowserTask;

use super::batch_busy;
use super::runner::{Inner, Sending, spawn, to_json, was_refused};
use super::{BatchJobRequest, BatchRunMode, JobRunner, RerunOf};
use crate::agents::feed::{FeedReader, job_key};
use crate::agents::timeline;
use crate::events::BatchEvent;
use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobKind};
use crate::task_inputs;

/// Ends job `job_id`'s batch feed, if one is open, telling its watchers it was stopped.
pub(super) fn end_feed(inner: &Inner, job_id: i64) {
    if let Some(feed) = inner.feeds.get(&job_key(job_id)) {
        feed.end(BatchEvent::Error {
            error: IpcError::new(IpcErrorKind::Cancelled, "This batch was stopped."),
        });
        inner.feeds.close(&feed);
    }
}

/// How a batch is watched (see [`JobRunner::watch_batch`]).
pub enum BatchWatch {
    /// Followed by this runner: its feed, read from the start.
    Live(FeedReader),
    /// Finished, its timeline kept on this computer: every event, ending with `done`.
    Kept(Vec<BatchEvent>),
    /// Neither: followed on demand, for every watcher at once ([`JobRunner::follow_elsewhere`]).
    Unfollowed(String),
}

impl JobRunner {
    /// Runs a batch of browser tasks: checked, given its idempotency key, written to the ledger
    /// with the key, then sent as `mode` says. In the background it is sent here (`async: true`,
    /// a refusal returned) and its id stored; live or waiting, its follower sends it (the job is
    /// returned at once, the batch id stored when the service names it).
    pub async fn start_batch(
        &self,
        profile_id: &str,
        tasks: Vec<BrowserTask>,
        options: BatchOptions,
        mode: BatchRunMode,
        rerun_of: Option<RerunOf>,
    ) -> Result<Job, IpcError> {
        let client = self.inner.clients.client_for(profile_id).await?;
        let concurrency = options.concurrency;
        let prepared = client.agents().prepare(tasks, options)?;
        let key = prepared.idempotency_key().to_owned();
        // The ledger gets the input names only; the values wait in the keychain until the batch
        // ends (task_inputs.rs).
        let (stored, values) = task_inputs::strip(prepared.tasks());
        let vault = if task_inputs::any(prepared.tasks()) {
            let vault = self.inner.clients.vault().ok_or_else(|| {
                IpcError::new(
                    IpcErrorKind::KeychainUnavailable,
                    "Specdesk cannot keep this batch's input values safely without a keychain, so it was not sent. Remove the input values, or set up a keychain.",
                )
            })?;
            task_inputs::keep(&vault, &key, &values).await?;
            Some(vault)
        } else {
            None
        };
        let request = to_json(&BatchJobRequest {
            tasks: stored,
            concurrency,
            mode,
            rerun_of,
        })?;
        let job =
            self.inner
                .library
                .insert_job(JobKind::Batch, profile_id, Some(&key), &request)?;
        if mode != BatchRunMode::Background {
            self.inner.give_first_send(job.id, mode);
            self.inner.emit(job.id)?;
            spawn(&self.inner, job.id);
            return self.inner.library.job(job.id);
        }
        let sending = Sending::start(&self.inner, job.id);
        self.inner.emit(job.id)?;
        let sent = client.agents().start(&prepared).await;
        // Refused, the batch ends here and its values go. Sent, they stay until it ends (a
        // relaunch reads them so its steps are scrubbed); a lost answer keeps them for the
        // follower, which sends the batch again with its key; refused for want of room (429), it
        // waits for room, values and all.
        if let (Some(vault), Err(e)) = (&vault, &sent)
            && was_refused(e)
            && !batch_busy::no_room(e)
        {
            task_inputs::forget(vault, &key).await;
        }
        match sent {
            Ok(batch) => self.sent(sending, &batch.id),
            Err(e) if batch_busy::no_room(&e) => {
                let held = batch_busy::no_room_error(&client, &e).await;
                self.held(sending, &held)
            }
            Err(e) => self.not_sent(sending, e),
        }
    }

    /// The user's choice for batch job `job_id`, not known to have reached the service (its key
    /// too old to post again: `batch_key`): `send_again` sends its tasks, input values back from
    /// the keychain, as a new batch under a new key (returned: the new job); otherwise it stays
    /// unsent (returned: the old job, closed). Either way the old job is closed and its values
    /// forgotten.
    pub async fn settle_unconfirmed(&self, job_id: i64, send_again: bool) -> Result<Job, IpcError> {
        let job = self.inner.library.job(job_id)?;
        let progress = if send_again {
            "Being sent again as a new batch."
        } else {
            "Not sent again, as you chose."
        };
        // Claimed first, in one statement: a second click, another window or a crash midway
        // never sends it twice.
        if !self.inner.library.claim_unconfirmed(job_id, progress)? {
            return Err(IpcError::invalid(
                "jobId",
                "Only a batch not known to have reached the service can be sent again this way, once.",
            ));
        }
        let key = job.idempotency_key.clone().unwrap_or_default();
        let vault = self.inner.clients.vault();
        let again = if send_again {
            match self.send_again(&job, &key).await {
                Ok(new) => {
                    let text = format!("Sent again as a new batch (job {}).", new.id);
                    self.inner.library.note_claimed(job_id, &text)?;
                    Some(new)
                }
                Err(e) => {
                    if let Some(error) = &job.error {
                        self.inner.library.unclaim_unconfirmed(job_id, error)?;
                    }
                    self.inner.emit(job_id)?;
                    return Err(e);
                }
            }
        } else {
            None
        };
        if let Some(vault) = &vault {
            task_inputs::forget(vault, &key).await;
        }
        let closed = self.inner.emit(job.id)?;
        Ok(again.unwrap_or(closed))
    }

    /// Sends job `job`'s tasks (values back from the keychain under `key`) as a new batch.
    async fn send_again(&self, job: &Job, key: &str) -> Result<Job, IpcError> {
        let request: BatchJobRequest = serde_json::from_value(job.request.clone())
            .map_err(|e| IpcError::storage(format!("the batch's tasks could not be read: {e}")))?;
        let mut tasks = request.tasks;
        if task_inputs::any(&tasks) {
            let values = match self.inner.clients.vault() {
                Some(vault) => task_inputs::read(&vault, key).await?,
                None => None,
            };
            let values = values.ok_or_else(|| {
                IpcError::failed("This batch's input values are no longer in your keychain. Run its tasks again from the builder and enter them.")
            })?;
            task_inputs::fill(&mut tasks, values)?;
        }
        let options = BatchOptions {
            concurrency: request.concurrency,
            idempotency_key: None,
        };
        self.start_batch(
            &job.profile_id,
            tasks,
            options,
            request.mode,
            request.rerun_of,
        )
        .await
    }

    /// Batch `batch_id` as a watcher sees it: the feed of its follower (never a second poll of
    /// the service), else its kept timeline, else nothing known here.
    pub fn watch_batch(&self, batch_id: &str) -> Result<BatchWatch, IpcError> {
        if let Some(feed) = self.inner.feeds.get(batch_id) {
            return Ok(BatchWatch::Live(feed.reader()));
        }
        match self
            .inner
            .library
            .job_by_remote_id(JobKind::Batch, batch_id)?
        {
            Some(job) => self.watch(&job),
            None => Ok(self.kept_or_unfollowed(batch_id)),
        }
    }

    /// The batch of job `job_id` as a watcher sees it (a live batch has no id until the service
    /// names it: it is watched by its job).
    pub fn watch_job(&self, job_id: i64) -> Result<BatchWatch, IpcError> {
        let job = self.inner.library.job(job_id)?;
        if job.kind != JobKind::Batch {
            return Err(IpcError::not_found("That job is not a browser batch."));
        }
        self.watch(&job)
    }

    fn watch(&self, job: &Job) -> Result<BatchWatch, IpcError> {
        let key = job_key(job.id);
        if let Some(feed) = self.inner.feeds.get(&key) {
            return Ok(BatchWatch::Live(feed.reader()));
        }
        if !job.status.is_final() {
            // Its own follower publishes into this feed: the one it has (starting, or waiting to
            // retry), or one started now if it was held (a locked keychain, a missing key), which
            // reads its input values first so what the batch echoes is scrubbed, or says why it
            // cannot. Never a follower that does not know its values. The feed is opened first,
            // so a follower that ends at once still ends it for this watcher.
            let reader = self.inner.feeds.open(&key).reader();
            spawn(&self.inner, job.id);
            return Ok(BatchWatch::Live(reader));
        }
        match &job.remote_id {
            Some(batch_id) => Ok(self.kept_or_unfollowed(batch_id)),
            None => Err(IpcError::new(
                IpcErrorKind::Failed,
                "This batch never reached the service, so it has no timeline. Run it again.",
            )),
        }
    }

    fn kept_or_unfollowed(&self, batch_id: &str) -> BatchWatch {
        let dir = self.inner.config().timelines_dir.clone();
        match timeline::load(&dir, batch_id) {
            Some(events) => BatchWatch::Kept(events),
            None => BatchWatch::Unfollowed(batch_id.to_owned()),
        }
    }

    /// The feed of batch `batch_id`, which no job follows (run elsewhere, or before this
    /// library), read from its start: one follower polls the service for every watcher (a
    /// second watcher joins the first's feed, and `watch_batch` answers `Live` meanwhile). The
    /// follower goes on to the batch's end, keeps its timeline and closes the feed.
    pub fn follow_elsewhere(&self, client: specdesk_client::Client, batch_id: &str) -> FeedReader {
        let (feed, started) = self.inner.feeds.open_new(batch_id);
        if started {
            let inner = self.inner.clone();
            let dir = self.timelines_dir();
            let id = batch_id.to_owned();
            let followed = feed.clone();
            tokio::spawn(async move {
                crate::agents::follow_into(&client, &dir, &id, &followed).await;
                inner.feeds.close(&followed);
            });
        }
        feed.reader()
    }

    /// Where finished batches' timelines are kept.
    pub fn timelines_dir(&self) -> std::path::PathBuf {
        self.inner.config().timelines_dir.clone()
    }
}
