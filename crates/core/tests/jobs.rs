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
        find_sent_spec_for: Duration::from_millis(300),
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

/// Every spec-status read hangs until the faults are cleared.
async fn hang_spec_status(sb: &SandboxHandle) {
    control(
        sb,
        reqwest::Method::POST,
        "/_sandbox/faults",
        serde_json::json!({"match": {"method": "GET", "path": "/spec-status/*"}, "times": 1000, "delayMs": 600000}),
    )
    .await;
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

fn spec_request(sub: &SpecSubmission) -> serde_json::Value {
    serde_json::to_value(SpecJobRequest::of(sub)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spec_job_is_resumed_after_a_crash_completed_cached_and_notified() {
    let w = World::new().await;
    let client = w.client("pro").await;

    // The app: the job is written before the request is sent, its id stored when it arrives.
    let library = w.library();
    let sub = SpecSubmission::fast("A shared shopping list for a family");
    let job = library
        .insert_job(JobKind::Spec, "pro", None, &spec_request(&sub))
        .unwrap();
    let accepted = client.specs().submit(&sub).await.unwrap();
    library.set_remote_id(job.id, &accepted.spec_id).unwrap();

    // A first runner starts polling; every status read hangs; the app "crashes".
    hang_spec_status(&w.sb).await;
    let (first_notifier, mut first_told) = told();
    let runner = w.runner(&library, first_notifier);
    assert_eq!(runner.resume_all().await.unwrap(), 1);
    assert_eq!(runner.following(), vec![job.id]);
    drop(runner);
    drop(library);
    clear_faults(&w.sb).await;

    // The app starts again: the ledger on disk still has the job, a new runner finishes it.
    let library = w.library();
    let unfinished: Vec<i64> = library
        .unfinished_jobs()
        .unwrap()
        .iter()
        .map(|j| j.id)
        .collect();
    assert_eq!(unfinished, vec![job.id]);
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    assert_eq!(runner.resume_all().await.unwrap(), 1);
    let finished = next(&mut notified).await;

    let status = client.specs().status(&accepted.spec_id).await.unwrap();
    let done = library.job(job.id).unwrap();
    assert_eq!(finished, done);
    assert_eq!(
        (
            done.status,
            done.remote_id.as_deref(),
            done.progress.as_deref(),
            done.error.as_ref().map(|e| e.message.as_str())
        ),
        (
            JobStatus::Completed,
            Some(accepted.spec_id.as_str()),
            Some("Done"),
            None
        )
    );
    let project_id = status
        .project_id
        .clone()
        .or_else(|| status.plan.as_ref().map(|p| p.project_id.clone()));
    assert_eq!(
        done.result,
        Some(serde_json::json!({
            "specId": accepted.spec_id,
            "creditsUsed": status.credits_used,
            "totalHumanHours": status.total_human_hours,
            "projectId": project_id,
        }))
    );
    assert!(library.unfinished_jobs().unwrap().is_empty());

    // Readable offline.
    assert_eq!(
        library.cached_spec_markdown(&accepted.spec_id).unwrap(),
        Some(SpecMarkdown {
            human: status.human_spec_markdown.clone(),
            coding_agent: status.coding_agent_spec_markdown.clone()
        })
    );
    assert!(status.human_spec_markdown.is_some());
    let cached = library.cached_specs(Some("pro"), 10, 0).unwrap();
    assert_eq!(cached.len(), 1);
    assert_eq!(
        (
            cached[0].input.as_deref(),
            cached[0].status.as_deref(),
            cached[0].has_markdown
        ),
        (
            Some("A shared shopping list for a family"),
            Some("completed"),
            true
        )
    );

    // Its cost is in the credit ledger.
    let ledger = library.credit_ledger(10).unwrap();
    assert_eq!(ledger.len(), 1);
    assert_eq!(
        (
            ledger[0].endpoint.as_str(),
            ledger[0].credits_charged,
            ledger[0].profile_id.as_str()
        ),
        ("fast-spec", status.credits_used, "pro")
    );

    // Told once, by the runner that finished it.
    assert!(first_told.try_recv().is_err());
    assert!(notified.try_recv().is_err());
}

#[tokio::test]
async fn a_spec_whose_id_never_arrived_is_found_by_its_input_and_an_unsent_one_keeps_its_draft() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();

    // The same input sent before, and followed by its own job: not the one looked for.
    let sent = SpecSubmission::fast("A recipe box (v2) for [families]? Costs $5+ a month.");
    let earlier = client.specs().submit(&sent).await.unwrap();
    let earlier_job = library
        .insert_job(JobKind::Spec, "pro", None, &spec_request(&sent))
        .unwrap();
    library
        .set_remote_id(earlier_job.id, &earlier.spec_id)
        .unwrap();
    library
        .update_job(earlier_job.id, JobStatus::Completed, None, None, None)
        .unwrap();
    // Sent again, but the app stopped before the answer arrived (the input has regex characters).
    let sent_job = library
        .insert_job(JobKind::Spec, "pro", None, &spec_request(&sent))
        .unwrap();
    let accepted = client.specs().submit(&sent).await.unwrap();
    // Written, then the app stopped before sending.
    let unsent = SpecSubmission::fast("An idea that never left this computer");
    let unsent_job = library
        .insert_job(JobKind::Spec, "pro", None, &spec_request(&unsent))
        .unwrap();

    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    assert_eq!(runner.resume_all().await.unwrap(), 2);
    let mut finished = [next(&mut notified).await, next(&mut notified).await];
    finished.sort_by_key(|j| j.id);

    let found = &finished[0];
    assert_eq!(
        (found.id, found.status, found.remote_id.as_deref()),
        (
            sent_job.id,
            JobStatus::Completed,
            Some(accepted.spec_id.as_str())
        )
    );

    let never = &finished[1];
    assert_eq!(
        (
            never.id,
            never.status,
            never.remote_id.as_deref(),
            never.error.as_ref().map(|e| e.message.as_str())
        ),
        (
            unsent_job.id,
            JobStatus::Failed,
            None,
            Some(specdesk_core::jobs::SPEC_NOT_STARTED)
        )
    );
    assert_eq!(never.request, spec_request(&unsent), "the draft is kept");
    let listed = client
        .specs()
        .list(&specdesk_client::SpecListQuery::default())
        .await
        .unwrap();
    assert_eq!(listed.total, 2, "nothing was sent again");
}

fn task(url: String) -> BrowserTask {
    serde_json::from_value(serde_json::json!({"url": url, "instruction": "Read the page"})).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_whose_id_never_arrived_is_sent_again_with_its_key_and_not_duplicated() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();

    let tasks = vec![
        task(format!("{}/_sandbox/health", w.sb.base_url())),
        task(format!("{}/v1/models/public", w.sb.base_url())),
    ];
    let prepared = client
        .agents()
        .prepare(tasks.clone(), BatchOptions::default())
        .unwrap();
    let request = serde_json::to_value(BatchJobRequest {
        tasks,
        concurrency: None,
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
    // Sent; the answer (its id) was lost with the app.
    let created = client.agents().start(&prepared).await.unwrap();

    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    assert_eq!(runner.resume_all().await.unwrap(), 1);
    let done = next(&mut notified).await;
    assert_eq!(
        (
            done.id,
            done.status,
            done.remote_id.as_deref(),
            done.progress.as_deref()
        ),
        (
            job.id,
            JobStatus::Completed,
            Some(created.id.as_str()),
            Some("2 of 2 tasks finished, 2 succeeded")
        )
    );
    let result = done.result.unwrap();
    assert_eq!(result["id"], created.id.as_str());
    assert_eq!(result["status"], "completed");
    let results = result["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(
        results.iter().all(|r| r.get("events").is_none()),
        "timelines are not copied into the ledger"
    );

    let batches = client.agents().list(None, None, None).await.unwrap();
    assert_eq!(batches.total, 1, "the same key found the same batch");
    let ledger = library.credit_ledger(10).unwrap();
    assert_eq!(
        (ledger[0].endpoint.as_str(), ledger[0].credits_charged),
        (
            "browser-agents",
            Some(result["totalCreditsUsed"].as_f64().unwrap())
        )
    );
}

#[tokio::test]
async fn a_video_is_followed_to_a_saved_file_with_its_prompt_model_and_cost() {
    let w = World::new().await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    let request: VideoRequest = serde_json::from_value(
        serde_json::json!({"model": "openai/sora-2", "prompt": "Waves at dusk", "seconds": "2"}),
    )
    .unwrap();

    let job = runner.start_video("pro", &request).await.unwrap();
    assert_eq!(job.status, JobStatus::Submitted);
    let video_id = job.remote_id.clone().unwrap();
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));

    let media = library.media(None, Some(MediaKind::Video), 10, 0).unwrap();
    assert_eq!(media.len(), 1);
    let item = &media[0];
    let expected_path = w
        .dir
        .path()
        .join("media")
        .join(format!("video-{}-{video_id}.mp4", job.id));
    assert_eq!(
        (
            item.path.as_str(),
            item.prompt.as_str(),
            item.model.as_str(),
            item.profile_id.as_str(),
            item.job_id
        ),
        (
            expected_path.to_str().unwrap(),
            "Waves at dusk",
            "openai/sora-2",
            "pro",
            Some(job.id)
        )
    );
    let content = w
        .client("pro")
        .await
        .gateway()
        .video_content(&video_id)
        .await
        .unwrap();
    assert_eq!(
        std::fs::read(&expected_path).unwrap(),
        content.value.bytes.to_vec()
    );

    // Charged once, on the poll that reported completion; that charge is the file's cost.
    let charges: Vec<CreditEntry> = library
        .credit_ledger(50)
        .unwrap()
        .into_iter()
        .filter(|e| e.credits_charged.is_some_and(|c| c > 0.0))
        .collect();
    assert_eq!(charges.len(), 1, "{charges:?}");
    assert_eq!(charges[0].endpoint, "v1/videos");
    assert_eq!(item.credits, charges[0].credits_charged);
    assert_eq!(
        done.result,
        Some(serde_json::json!({"videoId": video_id, "mediaId": item.id,
            "path": item.path, "credits": item.credits, "cost": item.cost}))
    );
}

async fn profiles_on(w: &World) -> Arc<Profiles> {
    Arc::new(Profiles::new(
        Arc::new(MemorySettings::default()),
        Keys::new(
            Arc::new(MemorySecretStore::default()),
            Duration::from_secs(5),
        ),
        w.sb.base_url(),
    ))
}

fn connection(w: &World, name: &str) -> ProfileInput {
    ProfileInput {
        name: name.to_owned(),
        base_url: w.sb.base_url().to_owned(),
        key_kind: KeyKind::Personal,
        project_id: None,
    }
}

#[tokio::test]
async fn start_spec_through_profiles_completes_and_a_refusal_fails_at_once_with_its_draft() {
    let w = World::new().await;
    let library = w.library();
    let profiles = profiles_on(&w).await;
    let free = profiles
        .add(&connection(&w, "Free"), Some(keys::FREE))
        .await
        .unwrap();
    let (notifier, mut notified) = told();
    let runner = JobRunner::new(
        library.clone(),
        profiles.clone(),
        notifier,
        config(w.dir.path()),
    );

    // No paid plan: refused at once, the job failed with its draft, nobody notified.
    let deep = SpecSubmission::deep("A deep idea");
    let e = runner.start_spec(&free.id, &deep).await.unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::SubscriptionRequired);
    assert_eq!(e.action.as_ref().map(|a| a.label.as_str()), Some("Upgrade"));
    let refused = &library.recent_jobs(JobKind::Spec, 10).unwrap()[0];
    assert_eq!(
        (
            refused.status,
            refused.remote_id.as_deref(),
            refused.error.as_ref()
        ),
        (JobStatus::Failed, None, Some(&e))
    );
    // The whole error is kept, so its "Upgrade" is offered after a restart too.
    let reopened = Library::open(&w.db()).unwrap();
    assert_eq!(reopened.job(refused.id).unwrap().error, Some(e.clone()));
    assert_eq!(refused.request, spec_request(&deep));

    // The built-in Sandbox profile.
    let job = runner
        .start_spec("sandbox", &SpecSubmission::fast("A habit tracker"))
        .await
        .unwrap();
    assert_eq!(job.status, JobStatus::Submitted);
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));
    assert!(notified.try_recv().is_err(), "the refusal was not notified");
}

#[tokio::test]
async fn a_failed_spec_fails_its_job_with_the_services_message() {
    let w = World::new().await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    let job = runner
        .start_spec("pro", &SpecSubmission::fast("Break it [sandbox:fail]"))
        .await
        .unwrap();
    let done = next(&mut notified).await;
    let status = w
        .client("pro")
        .await
        .specs()
        .status(job.remote_id.as_deref().unwrap())
        .await
        .unwrap();
    assert!(status.error_message.is_some());
    assert_eq!(
        (done.id, done.status, done.error),
        (
            job.id,
            JobStatus::Failed,
            status.error_message.map(IpcError::failed)
        )
    );
}

#[tokio::test]
async fn a_job_held_by_a_missing_key_waits_and_resumes_once_the_key_is_set() {
    let w = World::new().await;
    let library = w.library();
    let profiles = profiles_on(&w).await;
    let work = profiles.add(&connection(&w, "Work"), None).await.unwrap();
    let (notifier, mut notified) = told();
    let runner = JobRunner::new(
        library.clone(),
        profiles.clone(),
        notifier,
        config(w.dir.path()),
    );

    // A spec of this account, sent earlier; its key has since been removed from the keychain.
    let sub = SpecSubmission::fast("A reading list");
    let accepted = w.client("pro").await.specs().submit(&sub).await.unwrap();
    let job = library
        .insert_job(JobKind::Spec, &work.id, None, &spec_request(&sub))
        .unwrap();
    library.set_remote_id(job.id, &accepted.spec_id).unwrap();

    let mut changes = runner.subscribe();
    assert_eq!(runner.resume_all().await.unwrap(), 1);
    let held = loop {
        let j = tokio::time::timeout(Duration::from_secs(60), changes.recv())
            .await
            .unwrap()
            .unwrap();
        if j.error.is_some() {
            break j;
        }
    };
    assert_eq!(held.status, JobStatus::Submitted, "still unfinished");
    assert_eq!(
        held.error,
        Some(IpcError::from(specdesk_client::Error::MissingKey))
    );
    assert_eq!(
        held.error.as_ref().map(|e| &e.kind),
        Some(&IpcErrorKind::MissingKey)
    );
    // The follower has stopped; the job waits in the ledger.
    while !runner.following().is_empty() {
        tokio::task::yield_now().await;
    }
    assert_eq!(library.unfinished_jobs().unwrap().len(), 1);

    profiles.set_key(&work.id, keys::PRO).await.unwrap();
    assert_eq!(runner.resume_all().await.unwrap(), 1);
    let done = next(&mut notified).await;
    assert_eq!(
        (done.id, done.status, done.error),
        (job.id, JobStatus::Completed, None)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_being_sent_is_not_followed_by_anyone_else_until_its_id_arrives() {
    let w = World::new().await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    // The service takes a moment to accept the spec: the window where the job is in the ledger,
    // announced to the app, and has no id yet.
    control(
        &w.sb,
        reqwest::Method::POST,
        "/_sandbox/faults",
        serde_json::json!({"match": {"method": "POST", "path": "/fast-spec"}, "delayMs": 400}),
    )
    .await;
    let mut changes = runner.subscribe();
    let submission = SpecSubmission::fast("A tool library for a street");
    let (started, asked) = tokio::join!(runner.start_spec("pro", &submission), async {
        // What the app does when it hears of a new job: follow it.
        let announced = changes.recv().await.unwrap();
        assert_eq!(
            (announced.status, announced.remote_id.as_deref()),
            (JobStatus::Queued, None)
        );
        (
            runner.resume(announced.id).await.unwrap(),
            runner.resume_all().await.unwrap(),
        )
    });
    assert_eq!(asked, (false, 0), "its sender follows it once it is sent");
    let job = started.unwrap();
    assert!(job.remote_id.is_some());
    assert_eq!(runner.following(), vec![job.id]);
    let done = next(&mut notified).await;
    assert_eq!((done.id, done.status), (job.id, JobStatus::Completed));
    assert_eq!(done.error, None);
}

#[tokio::test]
async fn cancelling_stops_following_and_a_job_is_never_followed_twice() {
    let w = World::new().await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    hang_spec_status(&w.sb).await;
    let job = runner
        .start_spec("pro", &SpecSubmission::fast("A plant watering reminder"))
        .await
        .unwrap();
    assert_eq!(runner.following(), vec![job.id]);
    assert_eq!(runner.resume_all().await.unwrap(), 0, "already followed");
    assert!(!runner.resume(job.id).await.unwrap());

    let cancelled = runner.cancel(job.id).await.unwrap();
    assert_eq!(cancelled.status, JobStatus::Cancelled);
    assert!(runner.following().is_empty());
    assert!(library.unfinished_jobs().unwrap().is_empty());
    clear_faults(&w.sb).await;
    assert_eq!(runner.resume_all().await.unwrap(), 0);
    assert!(!runner.resume(job.id).await.unwrap());
    assert!(notified.try_recv().is_err());
}

#[tokio::test]
async fn a_processing_spec_shows_its_progress_and_live_credits_before_it_completes() {
    let w = World::new().await;
    let library = w.library();
    let (notifier, mut notified) = told();
    let runner = w.runner(&library, notifier);
    let mut changes = runner.subscribe();
    let job = runner
        .start_spec("pro", &SpecSubmission::fast("A slow one [sandbox:slow]"))
        .await
        .unwrap();
    assert_eq!(job.status, JobStatus::Submitted);

    // The sandbox keeps a [sandbox:slow] spec processing for 3 real seconds.
    let running = loop {
        let change = tokio::time::timeout(Duration::from_secs(30), changes.recv())
            .await
            .expect("no change")
            .unwrap();
        if change.id == job.id && change.result.is_some() && change.status == JobStatus::Running {
            break change;
        }
    };
    let live = running.result.as_ref().unwrap();
    assert_eq!(live["specId"], job.remote_id.clone().unwrap().as_str());
    assert!(live["creditsUsed"].as_f64().unwrap() > 0.0);
    assert!(running.progress.is_some());

    let done = next(&mut notified).await;
    assert_eq!(done.status, JobStatus::Completed);
    let status = w
        .client("pro")
        .await
        .specs()
        .status(job.remote_id.as_deref().unwrap())
        .await
        .unwrap();
    assert_eq!(
        done.result.as_ref().unwrap()["creditsUsed"],
        status.credits_used.unwrap()
    );
}
