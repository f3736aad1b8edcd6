//! The job runner: long jobs (async specs, browser batches, videos) are written to the job ledger
//! before their request is sent, their id is stored the moment it arrives, and every unfinished
//! job is followed to its end — on start, after a crash, and whenever one is added. Progress goes
//! to the ledger and to subscribers; a finished job is announced through a [`Notifier`] (a
//! desktop notification in the app).
//!
//! A job whose id never arrived is settled without risking a second charge: a batch is sent again
//! with its idempotency key (the service returns the existing batch), a video is sent again (it is
//! charged only when a poll reports it completed, and the lost one is never polled), and a spec
//! (no idempotency key in the spec) is looked up by its input among the profile's specs; when it
//! is not there it was never started, and the job fails with its request kept so it can be sent
//! again.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use specdesk_client::{BatchOptions, BatchUpdate, Client, Metering, SpecListQuery, SpecSubmission};
use specdesk_types::{
    BatchStatus, BrowserTask, SpecStatus, SpecStatusResponse, TaskStatus, VideoRequest, VideoStatus,
};
use tokio::sync::broadcast;

use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobKind, JobStatus, Library, MediaKind, NewMedia};
use crate::profiles::Profiles;
use crate::settings::SpecDepth;

/// Builds the client of a profile (its base URL and its key from the keychain).
pub trait ClientFactory: Send + Sync + 'static {
    fn client_for<'a>(&'a self, profile_id: &'a str) -> BoxFuture<'a, Result<Client, IpcError>>;
}

impl ClientFactory for Profiles {
    fn client_for<'a>(&'a self, profile_id: &'a str) -> BoxFuture<'a, Result<Client, IpcError>> {
        Box::pin(Profiles::client_for(self, profile_id))
    }
}

/// Told when a job ends (completed, failed) after being followed in the background. The app shows
/// a desktop notification when the user has them on.
pub trait Notifier: Send + Sync + 'static {
    fn job_finished(&self, job: &Job);
}

/// A notifier that says nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct SilentNotifier;

impl Notifier for SilentNotifier {
    fn job_finished(&self, _job: &Job) {}
}

/// What a spec job stores as its request: enough to show the draft and send it again. A file's
/// bytes are not kept, only its name and size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecJobRequest {
    pub depth: SpecDepth,
    pub input: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_context: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doc_urls: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_size: Option<u64>,
}

impl SpecJobRequest {
    /// The ledger's copy of `submission`.
    pub fn of(submission: &SpecSubmission) -> Self {
        SpecJobRequest {
            depth: match submission.depth {
                specdesk_client::SpecDepth::Fast => SpecDepth::Fast,
                specdesk_client::SpecDepth::Deep => SpecDepth::Deep,
            },
            input: submission.input.clone(),
            current_context: submission.current_context.clone(),
            doc_urls: submission.doc_urls.clone(),
            file_name: submission.file.as_ref().map(|f| f.file_name.clone()),
            file_size: submission.file.as_ref().map(|f| f.bytes.len() as u64),
        }
    }

    fn endpoint(&self) -> specdesk_types::SpecEndpoint {
        match self.depth {
            SpecDepth::Fast => specdesk_types::SpecEndpoint::Fast,
            SpecDepth::Deep => specdesk_types::SpecEndpoint::Deep,
        }
    }
}

/// What a batch job stores as its request (its idempotency key is in its own column).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchJobRequest {
    pub tasks: Vec<BrowserTask>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u32>,
}

/// How the runner polls and waits.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRunnerConfig {
    /// Between spec-status polls (the settings' 10-15 s).
    pub spec_poll_interval: Duration,
    /// Random jitter either side of `spec_poll_interval`.
    pub poll_jitter: Duration,
    /// First wait after a network or server error; doubled each time up to `max_retry_delay`.
    pub retry_delay: Duration,
    pub max_retry_delay: Duration,
    /// Where finished videos are saved (in the app data folder).
    pub media_dir: PathBuf,
}

impl JobRunnerConfig {
    /// Defaults: specs polled every 12 s ± 2.5 s, retries from 2 s to 60 s.
    pub fn new(media_dir: impl Into<PathBuf>) -> Self {
        JobRunnerConfig {
            spec_poll_interval: Duration::from_secs(12),
            poll_jitter: Duration::from_millis(2_500),
            retry_delay: Duration::from_secs(2),
            max_retry_delay: Duration::from_secs(60),
            media_dir: media_dir.into(),
        }
    }
}

/// Shown when a spec's id never arrived and the service has no such spec.
pub const SPEC_NOT_STARTED: &str = "Specdesk closed before the service confirmed this spec, and the service has no record of it, so it was not started and nothing was charged. Your description is kept: send it again.";

/// Why following a job stopped short of its end.
enum Halt {
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

type Step = Result<(), Halt>;

struct Inner {
    library: Arc<Library>,
    clients: Arc<dyn ClientFactory>,
    notifier: Arc<dyn Notifier>,
    config: Mutex<JobRunnerConfig>,
    events: broadcast::Sender<Job>,
    active: Mutex<Active>,
}

/// The followers running, and the jobs asked to be followed again while theirs was running (a
/// follower that stops for want of a key must not miss the `resume_all` made once it was set).
#[derive(Default)]
struct Active {
    handles: HashMap<i64, tokio::task::AbortHandle>,
    again: HashSet<i64>,
    /// Jobs whose request this runner is sending now. Nothing else follows them until the send
    /// ends (their sender starts the follower then): a follower started meanwhile would find no
    /// id yet, look for the spec on the service before it exists, and fail a job that runs.
    sending: HashSet<i64>,
}

/// Marks a job as being sent for as long as it lives (see `Active::sending`).
struct Sending<'a> {
    inner: &'a Inner,
    job_id: i64,
}

impl<'a> Sending<'a> {
    fn start(inner: &'a Inner, job_id: i64) -> Self {
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
    inner: Arc<Inner>,
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

    /// Runs a batch of browser tasks in the background: checked, given its idempotency key,
    /// written to the ledger with the key, sent (`async: true`), its id stored, then followed.
    pub async fn start_batch(
        &self,
        profile_id: &str,
        tasks: Vec<BrowserTask>,
        options: BatchOptions,
    ) -> Result<Job, IpcError> {
        let client = self.inner.clients.client_for(profile_id).await?;
        let concurrency = options.concurrency;
        let prepared = client.agents().prepare(tasks, options)?;
        let request = to_json(&BatchJobRequest {
            tasks: prepared.tasks().to_vec(),
            concurrency,
        })?;
        let job = self.inner.library.insert_job(
            JobKind::Batch,
            profile_id,
            Some(prepared.idempotency_key()),
            &request,
        )?;
        let sending = Sending::start(&self.inner, job.id);
        self.inner.emit(job.id)?;
        match client.agents().start(&prepared).await {
            Ok(batch) => self.sent(sending, &batch.id),
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
                self.inner
                    .library
                    .record_metering(profile_id, "v1/videos", &created.metering)?;
                self.sent(sending, &created.value.id)
            }
            Err(e) => self.not_sent(sending, e),
        }
    }

    fn sent(&self, sending: Sending<'_>, remote_id: &str) -> Result<Job, IpcError> {
        let job_id = sending.job_id;
        self.inner.library.set_remote_id(job_id, remote_id)?;
        tracing::info!(job_id, remote_id, "job sent to the service");
        drop(sending);
        let job = self.inner.emit(job_id)?;
        spawn(&self.inner, job_id);
        Ok(job)
    }

    fn not_sent(&self, sending: Sending<'_>, e: specdesk_client::Error) -> Result<Job, IpcError> {
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
        self.inner.note_error(job_id, &error);
        drop(sending);
        spawn(&self.inner, job_id);
        self.inner.library.job(job_id)
    }
}

/// Whether the service (or the client, before sending) refused the request, so nothing was
/// created.
fn was_refused(e: &specdesk_client::Error) -> bool {
    use specdesk_client::Error;
    match e {
        Error::InvalidInput { .. } | Error::MissingKey => true,
        Error::Api(a) => a.status < 500 || a.nothing_was_done(),
        _ => false,
    }
}

fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value, IpcError> {
    serde_json::to_value(value).map_err(|e| IpcError::new(IpcErrorKind::Internal, e.to_string()))
}

impl Inner {
    fn config(&self) -> std::sync::MutexGuard<'_, JobRunnerConfig> {
        self.config.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn active_map(&self) -> std::sync::MutexGuard<'_, Active> {
        self.active.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sends the job as it is in the ledger to subscribers, and returns it.
    fn emit(&self, job_id: i64) -> Result<Job, IpcError> {
        let job = self.library.job(job_id)?;
        let _ = self.events.send(job.clone());
        Ok(job)
    }

    /// Records why following is held up, keeping the job's status.
    fn note_error(&self, job_id: i64, error: &IpcError) {
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
    fn progress(&self, job: &mut Job, status: JobStatus, progress: Option<&str>) -> Step {
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
    fn live_credits(&self, job: &mut Job, spec_id: &str, credits: Option<f64>) -> Step {
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
    fn finish(
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
fn spawn(inner: &Arc<Inner>, job_id: i64) -> bool {
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

async fn follow(inner: &Arc<Inner>, job_id: i64) {
    let mut delay = inner.config().retry_delay;
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
                tokio::time::sleep(delay.max(asked)).await;
                delay = (delay * 2).min(inner.config().max_retry_delay);
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

fn request_of<T: serde::de::DeserializeOwned>(job: &Job) -> Result<T, Halt> {
    serde_json::from_value(job.request.clone()).map_err(|_| {
        Halt::Fail(IpcError::internal(
            "Specdesk could not read this job's request back from its library, so it cannot follow it.",
        ))
    })
}

async fn follow_spec(inner: &Arc<Inner>, mut job: Job) -> Step {
    let client = inner.clients.client_for(&job.profile_id).await?;
    let spec_id = match job.remote_id.clone() {
        Some(id) => id,
        None => {
            let id = find_sent_spec(inner, &client, &job)
                .await?
                .ok_or_else(|| Halt::Fail(IpcError::failed(SPEC_NOT_STARTED)))?;
            inner.library.set_remote_id(job.id, &id)?;
            job = inner.emit(job.id)?;
            id
        }
    };
    let (interval, jitter) = {
        let c = inner.config();
        (c.spec_poll_interval, c.poll_jitter)
    };
    let mut statuses = std::pin::pin!(
        client
            .specs()
            .wait_for_spec_every(&spec_id, interval, jitter)
    );
    while let Some(status) = statuses.next().await {
        let status = status?;
        match &status.status {
            SpecStatus::Pending => {
                inner.progress(&mut job, JobStatus::Submitted, Some("Waiting to start"))?
            }
            SpecStatus::Completed => return spec_done(inner, &job, &spec_id, &status),
            SpecStatus::Failed => {
                inner
                    .library
                    .cache_spec(&spec_id, &job.profile_id, &to_json(&status)?)?;
                let error = IpcError::failed(
                    status
                        .error_message
                        .as_deref()
                        .unwrap_or("The service could not generate this spec."),
                );
                inner.finish(job.id, JobStatus::Failed, None, None, Some(&error))?;
                return Ok(());
            }
            SpecStatus::Processing | SpecStatus::Unknown(_) => {
                let text = status.progress.as_deref().unwrap_or("Generating");
                inner.progress(&mut job, JobStatus::Running, Some(text))?;
                inner.live_credits(&mut job, &spec_id, status.credits_used)?;
            }
        }
    }
    Err(Halt::Retry(IpcError::new(
        IpcErrorKind::Network,
        "The spec's status could not be read. Specdesk will try again.",
    )))
}

fn spec_done(inner: &Inner, job: &Job, spec_id: &str, status: &SpecStatusResponse) -> Step {
    inner
        .library
        .cache_spec(spec_id, &job.profile_id, &to_json(status)?)?;
    if let Some(plan) = &status.plan {
        inner.library.record_plan(plan)?;
    }
    if let Some(credits) = status.credits_used {
        let endpoint = status
            .endpoint
            .as_ref()
            .map(|e| e.as_str().replace('_', "-"))
            .unwrap_or_else(|| "spec".to_owned());
        inner.library.record_metering(
            &job.profile_id,
            &endpoint,
            &Metering {
                request_id: None,
                credits_charged: Some(credits),
                credits_remaining: None,
            },
        )?;
    }
    let project_id = status
        .project_id
        .clone()
        .or_else(|| status.plan.as_ref().map(|p| p.project_id.clone()));
    let result = serde_json::json!({
        "specId": spec_id,
        "creditsUsed": status.credits_used,
        "totalHumanHours": status.total_human_hours,
        "projectId": project_id,
    });
    inner.finish(
        job.id,
        JobStatus::Completed,
        Some("Done"),
        Some(&result),
        None,
    )
}

/// `input` made literal for a regular expression.
fn regex_literal(input: &str) -> String {
    let mut out = String::with_capacity(input.len() + 8);
    for c in input.chars() {
        if matches!(
            c,
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn parse_time(s: &str) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()
}

/// A spec sent by `job` whose id never arrived: the oldest spec of the same depth and exactly
/// the same input, created since shortly before the job was written, that no other job follows.
async fn find_sent_spec(inner: &Inner, client: &Client, job: &Job) -> Result<Option<String>, Halt> {
    let request: SpecJobRequest = request_of(job)?;
    if request.input.trim().is_empty() {
        // A file-only spec cannot be told apart by its input.
        return Ok(None);
    }
    let prefix: String = request.input.chars().take(120).collect();
    let query = SpecListQuery {
        limit: Some(50),
        endpoint: Some(request.endpoint()),
        search: Some(format!("^{}", regex_literal(&prefix))),
        ..SpecListQuery::default()
    };
    let page = client.specs().list(&query).await?;
    // Clocks differ: allow the service's clock to be 10 minutes behind.
    let since = parse_time(&job.created_at).map(|t| t - time::Duration::minutes(10));
    let mut found: Option<(time::OffsetDateTime, String)> = None;
    for record in page.specs {
        if record.input != request.input {
            continue;
        }
        let Some(created) = parse_time(&record.created) else {
            continue;
        };
        if since.is_some_and(|s| created < s) {
            continue;
        }
        if inner
            .library
            .job_by_remote_id(JobKind::Spec, &record.id)?
            .is_some()
        {
            continue;
        }
        if found.as_ref().is_none_or(|(t, _)| created < *t) {
            found = Some((created, record.id));
        }
    }
    Ok(found.map(|(_, id)| id))
}

async fn follow_batch(inner: &Arc<Inner>, mut job: Job) -> Step {
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
            let prepared = client
                .agents()
                .prepare(
                    request.tasks,
                    BatchOptions {
                        concurrency: request.concurrency,
                        idempotency_key: Some(key),
                    },
                )
                .map_err(|e| Halt::Fail(IpcError::from(e)))?;
            // The same key returns the batch already created, if the first send arrived.
            let batch = client.agents().start(&prepared).await?;
            inner.library.set_remote_id(job.id, &batch.id)?;
            job = inner.emit(job.id)?;
            batch.id
        }
    };
    let mut updates = std::pin::pin!(client.agents().follow_batch(&batch_id));
    let mut finished = 0usize;
    while let Some(update) = updates.next().await {
        match update? {
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
                    // The timelines (screenshots included) are the service's to keep.
                    for r in results {
                        if let Some(o) = r.as_object_mut() {
                            o.remove("events");
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
                return Ok(());
            }
        }
    }
    Err(Halt::Retry(IpcError::new(
        IpcErrorKind::Network,
        "The batch's progress could not be read. Specdesk will try again.",
    )))
}

fn file_safe(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(64)
        .collect()
}

async fn follow_video(inner: &Arc<Inner>, mut job: Job) -> Step {
    let client = inner.clients.client_for(&job.profile_id).await?;
    let request: VideoRequest = request_of(&job)?;
    let video_id = match job.remote_id.clone() {
        Some(id) => id,
        None => {
            // A video is charged when a poll reports it completed: the lost one never is.
            let created = client.gateway().create_video(&request).await?;
            inner
                .library
                .record_metering(&job.profile_id, "v1/videos", &created.metering)?;
            inner.library.set_remote_id(job.id, &created.value.id)?;
            job = inner.emit(job.id)?;
            created.value.id
        }
    };
    let mut polls = std::pin::pin!(client.gateway().wait_for_video(&video_id));
    let mut charged = None;
    while let Some(poll) = polls.next().await {
        let poll = poll?;
        if poll.metering.credits_charged.is_some_and(|c| c > 0.0) {
            inner
                .library
                .record_metering(&job.profile_id, "v1/videos", &poll.metering)?;
            charged = poll.metering.credits_charged;
        }
        let video = poll.value;
        match &video.status {
            VideoStatus::Queued => {
                inner.progress(&mut job, JobStatus::Submitted, Some("Queued"))?
            }
            VideoStatus::Completed => {
                let cost = video.usage.as_ref().and_then(|u| u.cost);
                return video_done(inner, &client, &job, &request, &video_id, charged, cost).await;
            }
            VideoStatus::Failed => {
                let why = match &video.error {
                    Some(serde_json::Value::String(s)) => Some(s.clone()),
                    Some(v) => v.get("message").and_then(|m| m.as_str()).map(str::to_owned),
                    None => None,
                };
                let error = IpcError::failed(match why {
                    Some(why) => format!("The service could not make this video: {why}"),
                    None => "The service could not make this video.".to_owned(),
                });
                inner.finish(job.id, JobStatus::Failed, None, None, Some(&error))?;
                return Ok(());
            }
            VideoStatus::InProgress | VideoStatus::Unknown(_) => {
                let text = match video.progress {
                    Some(p) => format!("Rendering ({p:.0}%)"),
                    None => "Rendering".to_owned(),
                };
                inner.progress(&mut job, JobStatus::Running, Some(&text))?
            }
        }
    }
    Err(Halt::Retry(IpcError::new(
        IpcErrorKind::Network,
        "The video's progress could not be read. Specdesk will try again.",
    )))
}

async fn video_done(
    inner: &Arc<Inner>,
    client: &Client,
    job: &Job,
    request: &VideoRequest,
    video_id: &str,
    charged: Option<f64>,
    cost: Option<f64>,
) -> Step {
    // Saved already (the app stopped between saving and marking the job done)?
    let existing = inner
        .library
        .media(Some(MediaKind::Video), u32::MAX, 0)?
        .into_iter()
        .find(|m| m.job_id == Some(job.id));
    let item = match existing {
        Some(item) => item,
        None => {
            let content = client.gateway().video_content(video_id).await?;
            let ext = match content.value.content_type.as_deref() {
                Some(t) if t.starts_with("video/webm") => "webm",
                _ => "mp4",
            };
            let dir = inner.config().media_dir.clone();
            let path = dir.join(format!("video-{}-{}.{ext}", job.id, file_safe(video_id)));
            let bytes = content.value.bytes;
            let write_path = path.clone();
            tokio::task::spawn_blocking(move || save_file(&write_path, &bytes))
                .await
                .map_err(IpcError::storage)?
                .map_err(IpcError::storage)?;
            let path = path.to_string_lossy().into_owned();
            inner.library.add_media(&NewMedia {
                kind: MediaKind::Video,
                path: &path,
                prompt: &request.prompt,
                model: &request.model,
                profile_id: &job.profile_id,
                credits: charged,
                cost,
                job_id: Some(job.id),
            })?
        }
    };
    let result = serde_json::json!({
        "videoId": video_id,
        "mediaId": item.id,
        "path": item.path,
        "credits": item.credits,
        "cost": item.cost,
    });
    inner.finish(
        job.id,
        JobStatus::Completed,
        Some("Done"),
        Some(&result),
        None,
    )
}

fn save_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::settings::write_atomically(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_become_literal_patterns() {
        assert_eq!(
            regex_literal("A (todo) app? $5 + [tags] {x} ^a|b \\ ."),
            "A \\(todo\\) app\\? \\$5 \\+ \\[tags\\] \\{x\\} \\^a\\|b \\\\ \\."
        );
        specdesk_client::validate::search_pattern(&format!(
            "^{}",
            regex_literal("A (todo) app? $5 + [tags] {x} ^a|b \\ .")
        ))
        .unwrap();
    }

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
