//! The runner: the ledger's unfinished jobs each followed by one task, their sending guarded,
//! their changes broadcast, and why a follower stopped sorted into retry, hold and fail.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use specdesk_client::SpecSubmission;
use specdesk_types::VideoRequest;
use tokio::sync::broadcast;

use super::batch::follow_batch;
use super::spec::follow_spec;
use super::video::follow_video;
use super::{BatchRunMode, ClientFactory, JobRunnerConfig, Notifier, SpecJobRequest};
use crate::agents::feed::BatchFeeds;
use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobKind, JobStatus, Library};
use crate::task_inputs;

/// Why following a job stopped short of its end.
pub(super) enum Halt {
    /// A network or server hiccup: wait, then follow again.
    Retry(IpcError),
    /// Needs the user (a key, an unlocked keychain, credits): the job stays unfinished with the
    /// reason, and is followed again on the next start or `resume_all`.
    Stop(IpcError),
    /// The job cannot end well: it fails with this error.
    Fail(IpcError),
    /// The job was finished meanwhile (cancelled): nothing more to do.
    Finished,
}

impl From<IpcError> for Halt {
    fn from(e: IpcError) -> Self {
        match e.kind {
            ref k if k.is_transient() => Halt::Retry(e),
            IpcErrorKind::NotFound => Halt::Fail(IpcError {
                message: format!(
                    "The service no longer knows this job, so Specdesk stopped following it. ({})",
                    e.message
                ),
                ..e
            }),
            _ => Halt::Stop(e),
        }
    }
}

impl From<specdesk_client::Error> for Halt {
    fn from(e: specdesk_client::Error) -> Self {
        Halt::from(IpcError::from(&e))
    }
}

pub(super) type Step = Result<(), Halt>;

pub(super) struct Inner {
    pub(super) library: Arc<Library>,
    /// The timeline of each batch being followed, shared with its watchers.
    pub(super) feeds: BatchFeeds,
    pub(super) clients: Arc<dyn ClientFactory>,
    pub(super) notifier: Arc<dyn Notifier>,
    config: Mutex<JobRunnerConfig>,
    events: broadcast::Sender<Job>,
    active: Mutex<Active>,
}

/// The followers running, and the jobs asked to be followed again while theirs was running (a
/// follower that stops for want of a key must not miss the `resume_all` made once it was set).
#[derive(Default)]
pub(super) struct Active {
    handles: HashMap<i64, tokio::task::AbortHandle>,
    again: HashSet<i64>,
    /// Jobs whose request this runner is sending now. Nothing else follows them until the send
    /// ends (their sender starts the follower then): a follower started meanwhile would find no
    /// id yet, look for the spec on the service before it exists, and fail a job that runs.
    sending: HashSet<i64>,
    /// Batches whose first send their follower makes, and how (live, waiting).
    first_sends: HashMap<i64, BatchRunMode>,
}

/// Marks a job as being sent for as long as it lives (see `Active::sending`).
pub(super) struct Sending<'a> {
    inner: &'a Inner,
    job_id: i64,
}

impl<'a> Sending<'a> {
    pub(super) fn start(inner: &'a Inner, job_id: i64) -> Self {
        inner.active_map().sending.insert(job_id);
        Sending { inner, job_id }
    }
}

impl Drop for Sending<'_> {
    fn drop(&mut self) {
        self.inner.active_map().sending.remove(&self.job_id);
    }
}

/// Follows long jobs in the background (see the module). Dropping it stops following (the jobs
/// stay in the ledger and are resumed by the next runner).
pub struct JobRunner {
    pub(super) inner: Arc<Inner>,
}

impl std::fmt::Debug for JobRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobRunner")
            .field("following", &self.following())
            .finish_non_exhaustive()
    }
}

impl Drop for JobRunner {
    fn drop(&mut self) {
        for (_, handle) in self.inner.active_map().handles.drain() {
            handle.abort();
        }
    }
}

impl JobRunner {
    pub fn new(
        library: Arc<Library>,
        clients: Arc<dyn ClientFactory>,
        notifier: Arc<dyn Notifier>,
        config: JobRunnerConfig,
    ) -> Self {
        let (events, _) = broadcast::channel(1024);
        JobRunner {
            inner: Arc::new(Inner {
                library,
                feeds: BatchFeeds::default(),
                clients,
                notifier,
                config: Mutex::new(config),
                events,
                active: Mutex::new(Active::default()),
            }),
        }
    }

    /// Every change of a job this runner makes (the job as it is now in the ledger). A slow
    /// receiver skips old changes (`RecvError::Lagged`) and can reread the ledger.
    pub fn subscribe(&self) -> broadcast::Receiver<Job> {
        self.inner.events.subscribe()
    }

    /// Moves the runner's clock on by `by` (tests: as the sandbox's clock is advanced, so a day
    /// passes for both).
    pub fn advance_clock(&self, by: Duration) {
        self.inner.config().clock.advance(by);
    }

    /// Changes the spec polling interval (from the settings) for the polls started from now on.
    pub fn set_spec_poll_interval(&self, interval: Duration) {
        self.inner.config().spec_poll_interval = interval;
    }

    /// Ids of the jobs being followed now.
    pub fn following(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self.inner.active_map().handles.keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// Follows every unfinished job of the ledger. Returns how many followers were started (a job
    /// followed already is looked at again when its follower ends). Call it on start and after
    /// whatever may unblock a job (a key set, the keychain unlocked).
    pub async fn resume_all(&self) -> Result<usize, IpcError> {
        super::spec::attach_late_specs(&self.inner).await;
        super::cancelled::record_charges(&self.inner).await;
        let jobs = self.inner.library.unfinished_jobs()?;
        Ok(jobs.iter().filter(|j| spawn(&self.inner, j.id)).count())
    }

    /// Follows one job. False when it is finished, or followed already (its follower then looks at
    /// it again when it ends).
    pub async fn resume(&self, job_id: i64) -> Result<bool, IpcError> {
        let job = self.inner.library.job(job_id)?;
        Ok(!job.status.is_final() && spawn(&self.inner, job_id))
    }

    /// Stops following a job and marks it cancelled. The service has no way to stop a job: it may
    /// still finish (and be charged) there.
    pub async fn cancel(&self, job_id: i64) -> Result<Job, IpcError> {
        {
            let mut active = self.inner.active_map();
            active.again.remove(&job_id);
            if let Some(handle) = active.handles.remove(&job_id) {
                handle.abort();
            }
        }
        let job = self.inner.library.job(job_id)?;
        super::batch_api::end_feed(&self.inner, job_id);
        if job.status.is_final() {
            return Ok(job);
        }
        self.inner.library.update_job(
            job_id,
            JobStatus::Cancelled,
            Some("Stopped. The service may still finish it; it will show in your history there."),
            None,
            None,
        )?;
        // A stopped batch needs its input values no more (to send it, or to scrub its steps).
        if job.kind == JobKind::Batch
            && let (Some(key), Some(vault)) = (&job.idempotency_key, self.inner.clients.vault())
        {
            task_inputs::forget(&vault, key).await;
        }
        self.inner.emit(job_id)
    }

    /// Generates a spec in the background: written to the ledger, sent (`async: true`), its id
    /// stored, then followed. A refusal (no key, no credits, no paid plan...) fails the job (its
    /// draft kept) and is returned; when the answer is lost the job is settled in the background.
    pub async fn start_spec(
        &self,
        profile_id: &str,
        submission: &SpecSubmission,
    ) -> Result<Job, IpcError> {
        submission.validate()?;
        let client = self.inner.clients.client_for(profile_id).await?;
        let request = to_json(&SpecJobRequest::of(submission))?;
        let job = self
            .inner
            .library
            .insert_job(JobKind::Spec, profile_id, None, &request)?;
        let sending = Sending::start(&self.inner, job.id);
        self.inner.emit(job.id)?;
        match client.specs().submit(submission).await {
            Ok(accepted) => self.sent(sending, &accepted.spec_id),
            Err(e) => self.not_sent(sending, e),
        }
    }

    /// Makes a video in the background: written to the ledger, sent, its id stored, then polled
    /// until it is done; the file is saved in the media folder and recorded in the library.
    pub async fn start_video(
        &self,
        profile_id: &str,
        request: &VideoRequest,
    ) -> Result<Job, IpcError> {
        let client = self.inner.clients.client_for(profile_id).await?;
        let job =
            self.inner
                .library
                .insert_job(JobKind::Video, profile_id, None, &to_json(request)?)?;
        let sending = Sending::start(&self.inner, job.id);
        self.inner.emit(job.id)?;
        match client.gateway().create_video(request).await {
            Ok(created) => {
                self.inner.library.record_model_metering(
                    profile_id,
                    "v1/videos",
                    Some(&request.model),
                    &created.metering,
                )?;
                self.sent(sending, &created.value.id)
            }
            Err(e) => self.not_sent(sending, e),
        }
    }

    pub(super) fn sent(&self, sending: Sending<'_>, remote_id: &str) -> Result<Job, IpcError> {
        let job_id = sending.job_id;
        self.inner.library.set_remote_id(job_id, remote_id)?;
        tracing::info!(job_id, remote_id, "job sent to the service");
        drop(sending);
        let job = self.inner.emit(job_id)?;
        spawn(&self.inner, job_id);
        Ok(job)
    }

    /// Holds job `job_id` unsent with `error` (the user's next step); its follower sends it
    /// again with its key when it can.
    pub(super) fn held(&self, sending: Sending<'_>, error: &IpcError) -> Result<Job, IpcError> {
        let job_id = sending.job_id;
        self.inner.note_error(job_id, error);
        drop(sending);
        spawn(&self.inner, job_id);
        self.inner.library.job(job_id)
    }

    pub(super) fn not_sent(
        &self,
        sending: Sending<'_>,
        e: specdesk_client::Error,
    ) -> Result<Job, IpcError> {
        let job_id = sending.job_id;
        let error = IpcError::from(&e);
        tracing::warn!(job_id, kind = %error.kind, "job not sent: {}", error.message);
        if was_refused(&e) {
            // Still marked as being sent: no follower can settle it another way meanwhile.
            self.inner
                .library
                .update_job(job_id, JobStatus::Failed, None, None, Some(&error))?;
            drop(sending);
            self.inner.emit(job_id)?;
            return Err(error);
        }
        // The request may have reached the service: the follower settles it.
        self.held(sending, &error)
    }
}

/// Whether the service (or the client, before sending) refused the request, so nothing was
/// created.
pub(super) fn was_refused(e: &specdesk_client::Error) -> bool {
    use specdesk_client::Error;
    match e {
        Error::InvalidInput { .. } | Error::MissingKey => true,
        Error::Api(a) => a.status < 500 || a.nothing_was_done(),
        _ => false,
    }
}

pub(super) fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value, IpcError> {
    serde_json::to_value(value).map_err(|e| IpcError::new(IpcErrorKind::Internal, e.to_string()))
}

impl Inner {
    pub(super) fn config(&self) -> std::sync::MutexGuard<'_, JobRunnerConfig> {
        self.config.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How batch job `job_id`'s first send is made, asked once by its follower (`None`: it was
    /// made already, or the job was written before this run).
    pub(super) fn take_first_send(&self, job_id: i64) -> Option<BatchRunMode> {
        self.active_map().first_sends.remove(&job_id)
    }

    /// Whether batch job `job_id`'s first send is still its follower's to make.
    pub(super) fn has_first_send(&self, job_id: i64) -> bool {
        self.active_map().first_sends.contains_key(&job_id)
    }

    /// Marks batch job `job_id`'s first send as its follower's to make, `mode`'s way.
    pub(super) fn give_first_send(&self, job_id: i64, mode: BatchRunMode) {
        self.active_map().first_sends.insert(job_id, mode);
    }

    pub(super) fn active_map(&self) -> std::sync::MutexGuard<'_, Active> {
        self.active.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends the job as it is in the ledger to subscribers, and returns it.
    pub(super) fn emit(&self, job_id: i64) -> Result<Job, IpcError> {
        let job = self.library.job(job_id)?;
        let _ = self.events.send(job.clone());
        Ok(job)
    }

    /// Records why following is held up, keeping the job's status.
    pub(super) fn note_error(&self, job_id: i64, error: &IpcError) {
        if let Ok(job) = self.library.job(job_id)
            && job.error.as_ref() != Some(error)
            && let Ok(true) = self
                .library
                .update_job(job_id, job.status, None, None, Some(error))
        {
            let _ = self.emit(job_id);
        }
    }

    /// Records progress when it changed.
    pub(super) fn progress(
        &self,
        job: &mut Job,
        status: JobStatus,
        progress: Option<&str>,
    ) -> Step {
        let progress = progress.or(job.progress.as_deref()).map(str::to_owned);
        if job.status == status && job.progress == progress && job.error.is_none() {
            return Ok(());
        }
        if !self
            .library
            .update_job(job.id, status, progress.as_deref(), None, None)?
        {
            return Err(Halt::Finished);
        }
        *job = self.emit(job.id)?;
        Ok(())
    }

    /// Records the credits a processing spec has used so far (`result.creditsUsed`), when they
    /// changed.
    pub(super) fn live_credits(&self, job: &mut Job, spec_id: &str, credits: Option<f64>) -> Step {
        let Some(credits) = credits else {
            return Ok(());
        };
        let seen = job
            .result
            .as_ref()
            .and_then(|r| r.get("creditsUsed"))
            .and_then(|c| c.as_f64());
        if seen == Some(credits) {
            return Ok(());
        }
        let result = serde_json::json!({ "specId": spec_id, "creditsUsed": credits });
        if !self
            .library
            .update_job(job.id, job.status, None, Some(&result), None)?
        {
            return Err(Halt::Finished);
        }
        *job = self.emit(job.id)?;
        Ok(())
    }

    /// Ends a job and tells the notifier.
    pub(super) fn finish(
        &self,
        job_id: i64,
        status: JobStatus,
        progress: Option<&str>,
        result: Option<&serde_json::Value>,
        error: Option<&IpcError>,
    ) -> Step {
        if !self
            .library
            .update_job(job_id, status, progress, result, error)?
        {
            return Err(Halt::Finished);
        }
        let job = self.emit(job_id)?;
        self.notifier.job_finished(&job);
        Ok(())
    }
}

/// Starts following `job_id` unless it is followed already (then its follower looks at it again
/// when it ends). True when started.
pub(super) fn spawn(inner: &Arc<Inner>, job_id: i64) -> bool {
    let mut active = inner.active_map();
    if active.sending.contains(&job_id) {
        return false;
    }
    if active.handles.contains_key(&job_id) {
        active.again.insert(job_id);
        return false;
    }
    let task_inner = inner.clone();
    let handle = tokio::spawn(async move {
        loop {
            follow(&task_inner, job_id).await;
            let mut active = task_inner.active_map();
            if !active.again.remove(&job_id) {
                active.handles.remove(&job_id);
                break;
            }
        }
    });
    active.handles.insert(job_id, handle.abort_handle());
    true
}

/// Waits between attempts: from `retry_delay`, doubling up to `max_retry_delay`, for ever (a
/// job is followed until it ends or needs the user).
pub(super) fn retry_delays(config: &JobRunnerConfig) -> impl Iterator<Item = Duration> + use<> {
    use backon::BackoffBuilder;
    backon::ExponentialBuilder::default()
        .with_min_delay(config.retry_delay)
        .with_max_delay(config.max_retry_delay)
        .without_max_times()
        .build()
}

async fn follow(inner: &Arc<Inner>, job_id: i64) {
    let mut delays = retry_delays(&inner.config());
    loop {
        let job = match inner.library.job(job_id) {
            Ok(job) if !job.status.is_final() => job,
            _ => return,
        };
        let step = match job.kind {
            JobKind::Spec => follow_spec(inner, job).await,
            JobKind::Batch => follow_batch(inner, job).await,
            JobKind::Video => follow_video(inner, job).await,
        };
        match step {
            Ok(()) => return,
            Err(Halt::Retry(e)) => {
                inner.note_error(job_id, &e);
                let asked = Duration::from_millis(e.retry_after_ms.unwrap_or(0));
                let delay = delays.next().unwrap_or(inner.config().max_retry_delay);
                tokio::time::sleep(delay.max(asked)).await;
            }
            Err(Halt::Stop(e)) => {
                tracing::info!(job_id, kind = %e.kind, "job held: {}", e.message);
                inner.note_error(job_id, &e);
                return;
            }
            Err(Halt::Fail(error)) => {
                let _ = inner.finish(job_id, JobStatus::Failed, None, None, Some(&error));
                return;
            }
            Err(Halt::Finished) => return,
        }
    }
}

pub(super) fn request_of<T: serde::de::DeserializeOwned>(job: &Job) -> Result<T, Halt> {
    serde_json::from_value(job.request.clone()).map_err(|_| {
        Halt::Fail(IpcError::internal(
            "Specdesk could not read this job's request back from its library, so it cannot follow it.",
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn errors_are_sorted_into_retry_stop_and_fail() {
        assert!(matches!(
            Halt::from(IpcError::new(IpcErrorKind::Network, "x")),
            Halt::Retry(_)
        ));
        assert!(matches!(
            Halt::from(IpcError::new(IpcErrorKind::RateLimited, "x")),
            Halt::Retry(_)
        ));
        assert!(matches!(
            Halt::from(IpcError::new(IpcErrorKind::KeychainLocked, "x")),
            Halt::Stop(_)
        ));
        assert!(matches!(
            Halt::from(IpcError::new(IpcErrorKind::InvalidKey, "x")),
            Halt::Stop(_)
        ));
        match Halt::from(IpcError::new(
            IpcErrorKind::NotFound,
            "No spec with this id.",
        )) {
            Halt::Fail(e) => assert_eq!(
                (e.kind, e.message.as_str()),
                (
                    IpcErrorKind::NotFound,
                    "The service no longer knows this job, so Specdesk stopped following it. (No spec with this id.)"
                )
            ),
            _ => panic!("notFound fails the job"),
        }
    }

    #[test]
    fn a_spec_request_keeps_the_draft_but_not_the_file_bytes() {
        let mut sub = SpecSubmission::deep("A todo app");
        sub.doc_urls = vec!["https://docs.example.com".into()];
        sub.file = Some(specdesk_client::FileUpload {
            file_name: "brief.md".into(),
            mime: "text/markdown".into(),
            bytes: b"# Brief".to_vec().into(),
        });
        let json = serde_json::to_value(SpecJobRequest::of(&sub)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"depth": "deep", "input": "A todo app",
                "docUrls": ["https://docs.example.com"], "fileName": "brief.md", "fileSize": 7})
        );
    }
}
