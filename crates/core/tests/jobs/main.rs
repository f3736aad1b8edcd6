//! The job runner end to end against the real sandbox (127.0.0.1:0, time scale 0): jobs written
//! as the app writes them, a "crash" (the runner dropped mid-poll), a new runner that resumes and
//! finishes them, the ledger, the spec cache, media files and notifications checked exactly.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use specdesk_client::{BatchOptions, Client, ClientConfig, SpecSubmission};
use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle, keys};
use specdesk_types::{BrowserTask, VideoRequest};
use tokio::sync::mpsc;

/// Profiles `pro`, `org` and `free` with the sandbox's keys, polling batches and videos quickly.
struct SandboxClients {
    base: String,
}

impl ClientFactory for SandboxClients {
    fn client_for<'a>(&'a self, profile_id: &'a str) -> BoxFuture<'a, Result<Client, IpcError>> {
        Box::pin(async move {
            let key = match profile_id {
                "pro" => keys::PRO,
                "org" => keys::ORG,
                "free" => keys::FREE,
                _ => return Err(IpcError::not_found("That connection no longer exists.")),
            };
            let mut config = ClientConfig::new(&self.base)?.with_api_key(key.to_owned());
            config.job_poll_interval = Duration::from_millis(20);
            Ok(Client::new(config)?)
        })
    }
}

/// Sends every finished job to a channel.
struct Told(mpsc::UnboundedSender<Job>);

impl Notifier for Told {
    fn job_finished(&self, job: &Job) {
        let _ = self.0.send(job.clone());
    }
}

fn told() -> (Arc<Told>, mpsc::UnboundedReceiver<Job>) {
    let (tx, rx) = mpsc::unbounded_channel();
    (Arc::new(Told(tx)), rx)
}

/// The next notification (the timeout only guards against a hang).
async fn next(rx: &mut mpsc::UnboundedReceiver<Job>) -> Job {
    tokio::time::timeout(Duration::from_secs(120), rx.recv())
        .await
        .expect("no job finished")
        .expect("notifier gone")
}

fn config(dir: &Path) -> JobRunnerConfig {
    JobRunnerConfig {
        spec_poll_interval: Duration::from_millis(20),
        poll_jitter: Duration::ZERO,
        retry_delay: Duration::from_millis(20),
        max_retry_delay: Duration::from_millis(200),
        media_dir: dir.join("media"),
        timelines_dir: dir.join("media").join("timelines"),
        find_sent_spec_for: Duration::from_millis(300),
        clock: Default::default(),
    }
}

async fn control(sb: &SandboxHandle, method: reqwest::Method, path: &str, body: serde_json::Value) {
    let resp = reqwest::Client::new()
        .request(method, format!("{}{path}", sb.base_url()))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success(), "{path}: {}", resp.status());
}

/// Adds a sandbox fault (`/_sandbox/faults`: `match`, `times`, and what to do).
async fn fault(sb: &SandboxHandle, body: serde_json::Value) {
    control(sb, reqwest::Method::POST, "/_sandbox/faults", body).await;
}

/// Waits until the times left of the sandbox's faults (`GET /_sandbox/faults`, in order; a
/// fault used up is gone) pass `ready`: the requests the test waits for reached the sandbox.
async fn until_faults_left(sb: &SandboxHandle, ready: impl Fn(&[u64]) -> bool) {
    let url = format!("{}/_sandbox/faults", sb.base_url());
    for _ in 0..2000 {
        let v: serde_json::Value = reqwest::get(&url).await.unwrap().json().await.unwrap();
        let left: Vec<u64> = v["faults"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["times"].as_u64().unwrap())
            .collect();
        if ready(&left) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the sandbox's faults were never used as the test expected");
}

/// Every spec-status read hangs until the faults are cleared.
async fn hang_spec_status(sb: &SandboxHandle) {
    fault(sb, serde_json::json!({"match": {"method": "GET", "path": "/spec-status/*"}, "times": 1000, "delayMs": 600000})).await;
}

async fn clear_faults(sb: &SandboxHandle) {
    control(
        sb,
        reqwest::Method::DELETE,
        "/_sandbox/faults",
        serde_json::json!({}),
    )
    .await;
}

struct World {
    sb: SandboxHandle,
    dir: tempfile::TempDir,
    clients: Arc<SandboxClients>,
}

impl World {
    async fn new() -> World {
        let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
        let clients = Arc::new(SandboxClients {
            base: sb.base_url().to_owned(),
        });
        World {
            sb,
            dir: tempfile::tempdir().unwrap(),
            clients,
        }
    }

    fn db(&self) -> std::path::PathBuf {
        self.dir.path().join("library.sqlite")
    }

    fn library(&self) -> Arc<Library> {
        Arc::new(Library::open(&self.db()).unwrap())
    }

    fn runner(&self, library: &Arc<Library>, notifier: Arc<Told>) -> JobRunner {
        JobRunner::new(
            library.clone(),
            self.clients.clone(),
            notifier,
            config(self.dir.path()),
        )
    }

    async fn client(&self, profile: &str) -> Client {
        self.clients.client_for(profile).await.unwrap()
    }
}

/// Batch job `tasks` as the app writes it before its first send, under a new key.
pub(crate) fn ledger_batch(
    library: &Library,
    client: &Client,
    tasks: Vec<BrowserTask>,
) -> (Job, specdesk_client::PreparedBatch) {
    let prepared = client
        .agents()
        .prepare(tasks.clone(), BatchOptions::default())
        .unwrap();
    let request = serde_json::to_value(BatchJobRequest {
        tasks,
        concurrency: None,
        mode: BatchRunMode::Background,
        rerun_of: None,
    })
    .unwrap();
    let job = library
        .insert_job(
            JobKind::Batch,
            "pro",
            Some(prepared.idempotency_key()),
            &request,
        )
        .unwrap();
    (job, prepared)
}

fn spec_request(sub: &SpecSubmission) -> serde_json::Value {
    serde_json::to_value(SpecJobRequest::of(sub)).unwrap()
}

mod key_window;
mod refused;
mod resume;
mod through_profiles;
mod watch;
