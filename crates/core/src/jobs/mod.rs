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

mod batch;
mod batch_api;
mod batch_busy;
pub mod batch_key;
mod cancelled;
mod runner;
mod spec;
mod video;

use std::path::PathBuf;
use std::time::Duration;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use specdesk_client::{Client, SpecSubmission};
use specdesk_types::BrowserTask;

use crate::ipc_error::IpcError;
use crate::library::Job;
use crate::profiles::Profiles;
use crate::secrets::Keys;
use crate::settings::SpecDepth;

pub use batch_api::BatchWatch;
pub use runner::JobRunner;
pub use spec::SPEC_NOT_STARTED;

/// Builds the client of a profile (its base URL and its key from the keychain), and keeps the
/// secrets a job carries besides (a batch's input values) in the same keychain.
pub trait ClientFactory: Send + Sync + 'static {
    fn client_for<'a>(&'a self, profile_id: &'a str) -> BoxFuture<'a, Result<Client, IpcError>>;

    /// Where a batch's input values wait until the batch ends (`None`: nowhere safe, so a batch
    /// with inputs is refused).
    fn vault(&self) -> Option<Keys> {
        None
    }
}

impl ClientFactory for Profiles {
    fn client_for<'a>(&'a self, profile_id: &'a str) -> BoxFuture<'a, Result<Client, IpcError>> {
        Box::pin(Profiles::client_for(self, profile_id))
    }

    fn vault(&self) -> Option<Keys> {
        Some(self.keys().clone())
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
    /// How it was first sent (rows written before modes existed: in the background).
    #[serde(default)]
    pub mode: BatchRunMode,
    /// The batch whose tasks this one runs again, when it is a re-run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun_of: Option<RerunOf>,
}

/// A re-run's link to the batch it runs again: task `i` of the re-run is task
/// `task_indices[i]` of batch `batch_id`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct RerunOf {
    pub batch_id: String,
    pub task_indices: Vec<u32>,
}

/// How a batch is run, as the service offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum BatchRunMode {
    /// A live stream of its events (`stream: true`), then polling if the stream drops.
    Live,
    /// In the background (`async: true`), then followed by polling.
    #[default]
    Background,
    /// One request that answers when every task has finished.
    Wait,
}

/// Between polls of a spec on a service at a loopback address (the built-in Sandbox): it runs on
/// this computer and only this app follows it, so a new user's first spec shows as soon as it is
/// written rather than up to 15 s later.
pub const LOOPBACK_SPEC_POLL_INTERVAL: Duration = Duration::from_secs(1);

/// Whether `base_url` names this computer (`localhost`, `127.0.0.0/8`, `::1`), as the built-in
/// Sandbox's address does.
pub fn is_loopback(base_url: &url::Url) -> bool {
    match base_url.host() {
        Some(url::Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => {
            ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
        None => false,
    }
}

/// How often a spec on the service at `base_url` is polled, and the jitter either side, from the
/// settings' `interval` and `jitter`: on a loopback address (the built-in Sandbox) every
/// [`LOOPBACK_SPEC_POLL_INTERVAL`] (or the settings' interval when that is shorter, as in tests),
/// without jitter; on any other service the settings' interval and jitter, untouched.
pub fn spec_poll_timing(
    base_url: &url::Url,
    interval: Duration,
    jitter: Duration,
) -> (Duration, Duration) {
    if is_loopback(base_url) {
        (interval.min(LOOPBACK_SPEC_POLL_INTERVAL), Duration::ZERO)
    } else {
        (interval, jitter)
    }
}

/// How the runner polls and waits.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRunnerConfig {
    /// Between spec-status polls (the settings' 10-15 s; a spec on a loopback address, the
    /// built-in Sandbox, is polled every second: [`spec_poll_timing`]).
    pub spec_poll_interval: Duration,
    /// Random jitter either side of `spec_poll_interval`.
    pub poll_jitter: Duration,
    /// First wait after a network or server error; doubled each time up to `max_retry_delay`.
    pub retry_delay: Duration,
    pub max_retry_delay: Duration,
    /// Where finished videos are saved (in the app data folder).
    pub media_dir: PathBuf,
    /// Where finished batches' timelines are kept (`<media_dir>/timelines`).
    pub timelines_dir: PathBuf,
    /// How long a spec whose answer was lost (a 5xx, a timeout, a broken connection) is looked
    /// for on the service, with the retry delays between searches, before its job fails as not
    /// started.
    pub find_sent_spec_for: Duration,
    /// The runner's clock (a batch's key is never posted again once the service may have
    /// forgotten it: `batch_key`).
    pub clock: batch_key::Clock,
}

impl JobRunnerConfig {
    /// Defaults: specs polled every 12 s ± 2.5 s, retries from 2 s to 60 s, a lost spec looked
    /// for during 5 minutes.
    pub fn new(media_dir: impl Into<PathBuf>) -> Self {
        let media_dir = media_dir.into();
        JobRunnerConfig {
            timelines_dir: media_dir.join("timelines"),
            spec_poll_interval: Duration::from_secs(12),
            poll_jitter: Duration::from_millis(2_500),
            retry_delay: Duration::from_secs(2),
            max_retry_delay: Duration::from_secs(60),
            media_dir,
            find_sent_spec_for: Duration::from_secs(5 * 60),
            clock: batch_key::Clock::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{LOOPBACK_SPEC_POLL_INTERVAL, is_loopback, spec_poll_timing};

    fn url(s: &str) -> url::Url {
        url::Url::parse(s).unwrap()
    }

    const SETTINGS: Duration = Duration::from_secs(12);
    const JITTER: Duration = Duration::from_millis(2_500);

    #[test]
    fn a_spec_on_the_sandbox_is_polled_every_second_without_jitter() {
        assert_eq!(LOOPBACK_SPEC_POLL_INTERVAL, Duration::from_secs(1));
        for base in [
            "http://127.0.0.1:8787",
            "http://127.0.0.1:43123/",
            "http://127.5.6.7:80",
            "http://localhost:8787",
            "http://LOCALHOST.:8787",
            "http://sandbox.localhost:8787",
            "http://[::1]:8787",
            "http://[::ffff:127.0.0.1]:8787",
        ] {
            assert_eq!(
                spec_poll_timing(&url(base), SETTINGS, JITTER),
                (Duration::from_secs(1), Duration::ZERO),
                "{base}"
            );
        }
        // The settings' 15 s too.
        assert_eq!(
            spec_poll_timing(
                &url("http://127.0.0.1:8787"),
                Duration::from_secs(15),
                JITTER
            ),
            (Duration::from_secs(1), Duration::ZERO)
        );
    }

    #[test]
    fn a_shorter_interval_than_a_second_is_kept_on_the_sandbox() {
        assert_eq!(
            spec_poll_timing(
                &url("http://127.0.0.1:8787"),
                Duration::from_millis(20),
                JITTER
            ),
            (Duration::from_millis(20), Duration::ZERO)
        );
    }

    #[test]
    fn a_spec_on_any_other_service_is_polled_at_the_settings_interval_with_its_jitter() {
        for base in [
            "https://api.example.com",
            "https://api.example.com:8443/v1/",
            "http://192.168.1.20:8787",
            "http://10.0.0.1",
            "http://[2001:db8::1]:8787",
            "http://localhost.example.com",
            "http://mylocalhost:8787",
            "http://0.0.0.0:8787",
        ] {
            assert_eq!(
                spec_poll_timing(&url(base), SETTINGS, JITTER),
                (SETTINGS, JITTER),
                "{base}"
            );
        }
        assert_eq!(
            spec_poll_timing(
                &url("https://api.example.com"),
                Duration::from_secs(15),
                JITTER
            ),
            (Duration::from_secs(15), JITTER)
        );
        assert!(!is_loopback(&url("https://api.example.com")));
        assert!(is_loopback(&url("http://127.0.0.1:8787")));
    }
}
