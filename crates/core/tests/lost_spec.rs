//! A spec whose answer was lost (a 502 from a proxy after the service created it) is looked for
//! with growing waits and attached to its job, charged once; one that was never created fails as
//! "not started" once the search gives up, its draft kept.

use std::sync::Arc;
use std::time::Duration;

use specdesk_client::{SpecListQuery, SpecSubmission};
use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use tokio::sync::mpsc;

struct Told(mpsc::UnboundedSender<Job>);

impl Notifier for Told {
    fn job_finished(&self, job: &Job) {
        let _ = self.0.send(job.clone());
    }
}

struct World {
    sb: SandboxHandle,
    _dir: tempfile::TempDir,
    profiles: Arc<Profiles>,
    runner: JobRunner,
    finished: mpsc::UnboundedReceiver<Job>,
}

async fn world() -> World {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let profiles = Arc::new(Profiles::in_memory(sb.base_url()));
    let library = Arc::new(Library::open(&dir.path().join("library.sqlite")).unwrap());
    let mut config = JobRunnerConfig::new(dir.path().join("media"));
    config.spec_poll_interval = Duration::from_millis(20);
    config.poll_jitter = Duration::ZERO;
    config.retry_delay = Duration::from_millis(20);
    config.max_retry_delay = Duration::from_millis(100);
    config.find_sent_spec_for = Duration::from_millis(400);
    let (tx, finished) = mpsc::unbounded_channel();
    let runner = JobRunner::new(library, profiles.clone(), Arc::new(Told(tx)), config);
    World {
        sb,
        _dir: dir,
        profiles,
        runner,
        finished,
    }
}

async fn fault(sb: &SandboxHandle, body: serde_json::Value) {
    let resp = reqwest::Client::new()
        .post(format!("{}/_sandbox/faults", sb.base_url()))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success());
}

async fn finished(w: &mut World) -> Job {
    tokio::time::timeout(Duration::from_secs(60), w.finished.recv())
        .await
        .expect("the job did not finish")
        .unwrap()
}

#[tokio::test]
async fn a_spec_created_behind_a_failing_proxy_is_found_and_attached_once() {
    let mut w = world().await;
    fault(
        &w.sb,
        serde_json::json!({"match": {"method": "POST", "path": "/fast-spec"},
            "respond": {"status": 502}, "afterHandling": true}),
    )
    .await;
    let draft = SpecSubmission::fast("A plant watering reminder for a shared office");
    let job = w
        .runner
        .start_spec(SANDBOX_PROFILE_ID, &draft)
        .await
        .expect("a 502 is no refusal: the job goes on in the background");
    assert_eq!(
        (job.remote_id.as_deref(), job.status),
        (None, JobStatus::Queued)
    );
    assert_eq!(
        job.error.as_ref().map(|e| e.kind.clone()),
        Some(IpcErrorKind::Server)
    );

    let done = finished(&mut w).await;
    let client = w.profiles.client_for(SANDBOX_PROFILE_ID).await.unwrap();
    let listed = client
        .specs()
        .list(&SpecListQuery::default())
        .await
        .unwrap();
    assert_eq!(listed.total, 1, "created once, never sent again");
    assert_eq!(
        (done.id, done.status, done.remote_id.as_deref(), done.error),
        (
            job.id,
            JobStatus::Completed,
            Some(listed.specs[0].id.as_str()),
            None
        )
    );
}

#[tokio::test]
async fn a_spec_the_service_never_created_fails_as_not_started_after_the_search() {
    let mut w = world().await;
    fault(
        &w.sb,
        serde_json::json!({"match": {"method": "POST", "path": "/fast-spec"},
            "respond": {"status": 502}}),
    )
    .await;
    let mut changes = w.runner.subscribe();
    let draft = SpecSubmission::fast("A tide table for kayakers");
    let job = w
        .runner
        .start_spec(SANDBOX_PROFILE_ID, &draft)
        .await
        .unwrap();

    let done = finished(&mut w).await;
    assert_eq!(
        (
            done.id,
            done.status,
            done.remote_id.as_deref(),
            done.error
                .as_ref()
                .map(|e| (e.kind.clone(), e.message.as_str()))
        ),
        (
            job.id,
            JobStatus::Failed,
            None,
            Some((IpcErrorKind::Failed, jobs::SPEC_NOT_STARTED))
        )
    );
    assert_eq!(done.request, job.request, "the draft is kept to send again");
    // Meanwhile the job said it was being looked for.
    let mut searching = 0;
    while let Ok(change) = changes.try_recv() {
        if change.progress.as_deref() == Some("Checking whether the service received it") {
            searching += 1;
        }
    }
    assert!(searching >= 1, "the search was shown");
}

#[tokio::test]
async fn a_spec_that_shows_up_after_its_job_failed_is_attached_on_the_next_start() {
    let mut w = world().await;
    fault(
        &w.sb,
        serde_json::json!({"match": {"method": "POST", "path": "/fast-spec"},
            "respond": {"status": 502}}),
    )
    .await;
    let draft = SpecSubmission::fast("A seed swap board for a community garden");
    let job = w
        .runner
        .start_spec(SANDBOX_PROFILE_ID, &draft)
        .await
        .unwrap();
    let failed = finished(&mut w).await;
    assert_eq!((failed.id, failed.status), (job.id, JobStatus::Failed));

    // The service had it after all (it lists it late): the next start attaches it to its job.
    let client = w.profiles.client_for(SANDBOX_PROFILE_ID).await.unwrap();
    let late = client.specs().submit(&draft).await.unwrap();
    assert_eq!(w.runner.resume_all().await.unwrap(), 1);
    let done = finished(&mut w).await;
    assert_eq!(
        (done.id, done.status, done.remote_id.as_deref(), done.error),
        (
            job.id,
            JobStatus::Completed,
            Some(late.spec_id.as_str()),
            None
        )
    );
    // Once attached, it is not looked for again.
    assert_eq!(w.runner.resume_all().await.unwrap(), 0);
}
