//! Browser-task input values are secrets: a batch run through the job runner leaves none of them
//! in the SQLite file or in any broadcast, and a batch whose answer was lost is sent again with
//! its values from the keychain. The keychain keeps them until the batch ends, so a relaunch
//! scrubs what the batch echoes of them; then it forgets them.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use specdesk_client::BatchOptions;
use specdesk_core::*;
use specdesk_sandbox::{GatedPage, Sandbox, SandboxConfig, SandboxHandle, keys};
use specdesk_types::BrowserTask;

const SECRET: &str = "pa55-Secret-9d41";
const USER: &str = "ada.lovelace@example.com";

struct World {
    sb: SandboxHandle,
    dir: tempfile::TempDir,
    keychain: MemorySecretStore,
    profiles: Arc<Profiles>,
    library: Arc<Library>,
    runner: JobRunner,
    profile_id: String,
}

async fn world() -> World {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let keychain = MemorySecretStore::default();
    let profiles = Arc::new(Profiles::new(
        Arc::new(MemorySettings::default()),
        Keys::new(Arc::new(keychain.clone()), Duration::from_secs(5)),
        sb.base_url(),
    ));
    let profile = profiles
        .add(
            &ProfileInput {
                name: "Work".into(),
                base_url: sb.base_url().to_owned(),
                key_kind: KeyKind::Personal,
                project_id: None,
            },
            Some(keys::PRO),
        )
        .await
        .unwrap();
    let library = Arc::new(Library::open(&dir.path().join("library.sqlite")).unwrap());
    let runner = runner(&library, &profiles, dir.path());
    World {
        sb,
        dir,
        keychain,
        profiles,
        library,
        runner,
        profile_id: profile.id,
    }
}

/// The job runner of one run of the app.
fn runner(library: &Arc<Library>, profiles: &Arc<Profiles>, dir: &std::path::Path) -> JobRunner {
    let mut config = JobRunnerConfig::new(dir.join("media"));
    config.retry_delay = Duration::from_millis(20);
    JobRunner::new(
        library.clone(),
        profiles.clone(),
        Arc::new(SilentNotifier),
        config,
    )
}

fn tasks(w: &World) -> Vec<BrowserTask> {
    let login = serde_json::json!({
        "url": format!("{}/_sandbox/health", w.sb.base_url()),
        "instruction": "Sign in",
        "input": {"email": USER, "password": SECRET},
    });
    let read = serde_json::json!({
        "url": format!("{}/v1/models/public", w.sb.base_url()),
        "instruction": "Read the page",
    });
    vec![
        serde_json::from_value(login).unwrap(),
        serde_json::from_value(read).unwrap(),
    ]
}

/// The ledger's job for a batch run in the background under `key`, with its stripped `tasks`, as
/// an earlier run of the app wrote it.
fn ledger_job(w: &World, key: &str, tasks: Vec<BrowserTask>) -> Job {
    let request = serde_json::to_value(BatchJobRequest {
        tasks,
        concurrency: None,
        mode: BatchRunMode::Background,
        rerun_of: None,
    })
    .unwrap();
    w.library
        .insert_job(JobKind::Batch, &w.profile_id, Some(key), &request)
        .unwrap()
}

/// The batch of `tasks(w)` started `mode`'s way, its sign-in task on a page that answers only once
/// the test opens it (until then the batch runs on the service).
async fn gated_batch(w: &World, mode: BatchRunMode) -> (GatedPage, Job) {
    let page =
        GatedPage::start("<html><head><title>Sign in</title></head><body>Signed in</body></html>")
            .await
            .unwrap();
    let mut all = tasks(w);
    all[0].url = page.url().to_owned();
    let job = w
        .runner
        .start_batch(&w.profile_id, all, BatchOptions::default(), mode, None)
        .await
        .unwrap();
    (page, job)
}

/// The first change of job `id` broadcast from now on that `wanted` accepts.
async fn until_change(
    changes: &mut tokio::sync::broadcast::Receiver<Job>,
    id: i64,
    never: &str,
    wanted: impl Fn(&Job) -> bool,
) -> Job {
    loop {
        let seen = tokio::time::timeout(Duration::from_secs(60), changes.recv())
            .await
            .expect(never)
            .unwrap();
        if seen.id == id && wanted(&seen) {
            return seen;
        }
    }
}

/// Everything SQLite wrote: the database and its journal files.
fn sqlite_bytes(w: &World) -> Vec<u8> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(w.dir.path()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("library.sqlite") {
            out.extend(std::fs::read(entry.path()).unwrap());
        }
    }
    out
}

/// Waits until no follower of job `id` runs (a held one has ended).
async fn until_not_followed(w: &World, id: i64) {
    tokio::time::timeout(Duration::from_secs(60), async {
        while w.runner.following().contains(&id) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the job's follower never ended");
}

/// What a watcher of unfinished job `id` reads (the web view's live timeline).
fn live_reader(w: &World, id: i64) -> agents::feed::FeedReader {
    let jobs::BatchWatch::Live(reader) = w.runner.watch_job(id).unwrap() else {
        panic!("an unfinished batch is watched live");
    };
    reader
}

/// Everything `reader` reads, to the feed's end.
async fn read_to_the_end(mut reader: agents::feed::FeedReader) -> Vec<BatchEvent> {
    let mut watched = Vec::new();
    while let Some(events) = tokio::time::timeout(Duration::from_secs(60), reader.next())
        .await
        .expect("the batch's feed never ended")
    {
        watched.extend(events);
    }
    watched
}

/// Waits until the feed of job `id` has its end (its follower is done with the batch).
async fn until_feed_ends(w: &World, id: i64) {
    if let jobs::BatchWatch::Live(mut reader) = w.runner.watch_job(id).unwrap() {
        tokio::time::timeout(Duration::from_secs(60), async {
            while reader.next().await.is_some() {}
        })
        .await
        .expect("the batch's feed never ended");
    }
}

/// Every byte of every file under `dir`.
fn files_under(dir: &std::path::Path) -> Vec<u8> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.extend(std::fs::read(&path).unwrap());
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

async fn until_finished(
    w: &World,
    changes: &mut tokio::sync::broadcast::Receiver<Job>,
    seen: &mut Vec<String>,
) -> Job {
    loop {
        let job = tokio::time::timeout(Duration::from_secs(60), changes.recv())
            .await
            .expect("the batch did not finish")
            .unwrap();
        seen.push(serde_json::to_string(&job).unwrap());
        if job.status.is_final() {
            return w.library.job(job.id).unwrap();
        }
    }
}

/// `done` is job `id`, completed with both tasks succeeded.
fn assert_both_succeeded(done: &Job, id: i64) {
    assert_eq!(
        (done.id, done.status, done.progress.as_deref()),
        (
            id,
            JobStatus::Completed,
            Some("2 of 2 tasks finished, 2 succeeded")
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batchs_input_values_are_never_at_rest_or_broadcast() {
    let w = world().await;
    let mut changes = w.runner.subscribe();
    // The batch is on the service, running, until the test opens its sign-in page.
    let (page, job) = gated_batch(&w, BatchRunMode::Background).await;
    assert!(job.remote_id.is_some(), "sent in the background");
    // The service has it; the keychain keeps its values until it ends.
    let vault = Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5));
    let key = job.idempotency_key.clone().unwrap();
    let kept = vault.get(&task_inputs::account(&key)).await.unwrap();
    assert!(kept.is_some_and(|json| json.contains(SECRET) && json.contains(USER)));
    let mut seen = vec![serde_json::to_string(&job).unwrap()];
    page.open();
    let done = until_finished(&w, &mut changes, &mut seen).await;
    assert_eq!(done.status, JobStatus::Completed);
    until_feed_ends(&w, job.id).await;

    // The ledger keeps the names, so the batch can be shown and run again with new values.
    let stored: BatchJobRequest = serde_json::from_value(done.request.clone()).unwrap();
    let names: BTreeMap<String, String> = [("email", ""), ("password", "")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    assert_eq!(stored.tasks[0].input, Some(names));
    assert_eq!(stored.tasks[1].input, None);

    for secret in [SECRET, USER] {
        assert!(
            !contains(&sqlite_bytes(&w), secret),
            "the SQLite file holds {secret}"
        );
        for event in &seen {
            assert!(
                !event.contains(secret),
                "a broadcast holds {secret}: {event}"
            );
        }
    }
    assert_eq!(
        vault.get(&task_inputs::account(&key)).await.unwrap(),
        None,
        "the keychain forgets the values once the batch has ended"
    );
    assert!(w.profiles.list().await.unwrap()[1].key.has_key);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_whose_answer_was_lost_is_sent_again_with_its_values_from_the_keychain() {
    let w = world().await;
    let all = tasks(&w);
    // What start_batch wrote before the app was killed: the stripped request in the ledger and
    // the values in the keychain, the request never answered.
    let key = "batch-lost-answer-0001";
    let (stored, values) = task_inputs::strip(&all);
    let vault = Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5));
    task_inputs::keep(&vault, key, &values).await.unwrap();
    let job = ledger_job(&w, key, stored);

    let mut changes = w.runner.subscribe();
    assert_eq!(w.runner.resume_all().await.unwrap(), 1);
    let mut seen = Vec::new();
    let done = until_finished(&w, &mut changes, &mut seen).await;
    assert_both_succeeded(&done, job.id);
    until_feed_ends(&w, job.id).await;
    assert_eq!(vault.get(&task_inputs::account(key)).await.unwrap(), None);
    assert!(!contains(&sqlite_bytes(&w), SECRET));
    assert!(seen.iter().all(|e| !e.contains(SECRET)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_gone_from_the_keychain_fail_the_batch_instead_of_sending_blanks() {
    let w = world().await;
    let (stored, _) = task_inputs::strip(&tasks(&w));
    let job = ledger_job(&w, "batch-gone-0002", stored);
    let mut changes = w.runner.subscribe();
    w.runner.resume_all().await.unwrap();
    let done = until_finished(&w, &mut changes, &mut Vec::new()).await;
    assert_eq!(
        (done.id, done.status, done.remote_id),
        (job.id, JobStatus::Failed, None)
    );
    assert_eq!(
        done.error.map(|e| e.message),
        Some("This batch's input values are no longer in your keychain, so it was not sent again. Check your batches, then run it again if it is not there.".to_owned())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_batch_killed_mid_run_is_followed_by_the_id_learnt_at_its_start_after_a_relaunch() {
    let mut w = world().await;
    // The sign-in page answers only when the test says: the batch runs on the service, its first
    // events delivered, when the app is killed. The live stream names its batch only at its end;
    // the id was learnt as soon as the stream opened, so the relaunch follows it by its id.
    let mut changes = w.runner.subscribe();
    let (page, job) = gated_batch(&w, BatchRunMode::Live).await;
    until_change(&mut changes, job.id, "the batch never ran", |j| {
        j.status == JobStatus::Running
    })
    .await;
    let batch_id = w.library.job(job.id).unwrap().remote_id;
    assert!(batch_id.is_some(), "the id is stored while the batch runs");
    // The service has the batch; its values stay in the keychain while it runs (a relaunch
    // reads them, so the redactor knows what its steps may echo).
    let vault = Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5));
    let key = job.idempotency_key.clone().unwrap();
    let kept = vault.get(&task_inputs::account(&key)).await.unwrap();
    assert!(kept.is_some_and(|json| json.contains(SECRET)));
    // Killed: the runner and its follower are gone; the app starts again on the same library.
    let relaunched = runner(&w.library, &w.profiles, w.dir.path());
    drop(std::mem::replace(&mut w.runner, relaunched));

    let mut changes = w.runner.subscribe();
    assert_eq!(w.runner.resume_all().await.unwrap(), 1);
    page.open();
    let mut seen = Vec::new();
    let done = until_finished(&w, &mut changes, &mut seen).await;
    assert_both_succeeded(&done, job.id);
    assert_eq!(done.remote_id, batch_id);
    // Followed, not sent again: the one batch.
    let client = specdesk_client::Client::new(
        specdesk_client::ClientConfig::new(w.sb.base_url())
            .unwrap()
            .with_api_key(keys::PRO.to_owned()),
    )
    .unwrap();
    assert_eq!(
        client.agents().list(None, None, None).await.unwrap().total,
        1
    );
    assert!(!contains(&sqlite_bytes(&w), SECRET));
    assert!(seen.iter().all(|e| !e.contains(SECRET)));
    until_feed_ends(&w, job.id).await;
    assert_eq!(vault.get(&task_inputs::account(&key)).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_stopped_while_the_service_runs_it_forgets_its_values() {
    let w = world().await;
    let (_page, job) = gated_batch(&w, BatchRunMode::Background).await;
    let vault = Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5));
    let account = task_inputs::account(job.idempotency_key.as_deref().unwrap());
    assert!(vault.get(&account).await.unwrap().is_some());
    let stopped = w.runner.cancel(job.id).await.unwrap();
    assert_eq!(stopped.status, JobStatus::Cancelled);
    assert_eq!(vault.get(&account).await.unwrap(), None);
}

/// A value no other test registers with this process's redactor: only the relaunch's read of the
/// keychain can teach it.
const ECHOED: &str = "grace.hopper-echo-5521@example.org";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relaunch_scrubs_what_a_running_batch_echoes_of_its_values() {
    let w = world().await;
    // A page that shows the email it was signed in with, in its title and its text.
    let page = GatedPage::start(
        "<html><head><title>Signed in as grace.hopper-echo-5521@example.org</title></head><body>Welcome back, grace.hopper-echo-5521@example.org</body></html>",
    )
    .await
    .unwrap();
    let mut all = tasks(&w);
    all[0].url = page.url().to_owned();
    all[0].input = Some(
        [("email".to_owned(), ECHOED.to_owned())]
            .into_iter()
            .collect(),
    );
    // What the first run left: the batch sent and running on the service, its id and stripped
    // request in the ledger, its values in the keychain (written here as the store holds them,
    // without registering them with this process's redactor).
    let key = "batch-echo-0003";
    let client = specdesk_client::Client::new(
        specdesk_client::ClientConfig::new(w.sb.base_url())
            .unwrap()
            .with_api_key(keys::PRO.to_owned()),
    )
    .unwrap();
    let options = BatchOptions {
        concurrency: None,
        idempotency_key: Some(key.to_owned()),
    };
    let prepared = client.agents().prepare(all.clone(), options).unwrap();
    let batch = client.agents().start(&prepared).await.unwrap();
    let (stored, values) = task_inputs::strip(&all);
    let vault = Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5));
    vault
        .set_unlisted(
            &task_inputs::account(key),
            &serde_json::to_string(&values).unwrap(),
        )
        .await
        .unwrap();
    let job = ledger_job(&w, key, stored);
    w.library.set_remote_id(job.id, &batch.id).unwrap();

    // This process's redactor has never seen the value: only the relaunch can teach it.
    assert_eq!(specdesk_core::logs::redactor().scrub(ECHOED), ECHOED);
    let mut changes = w.runner.subscribe();
    // Relaunched with the keychain locked (the connection's client made before): the batch is
    // not followed without its values, which would leave its echoes unscrubbed; it waits,
    // saying why.
    w.profiles.client_for(&w.profile_id).await.unwrap();
    w.keychain.set_locked(true);
    assert_eq!(w.runner.resume_all().await.unwrap(), 1);
    let held = until_change(&mut changes, job.id, "the batch was never held", |j| {
        j.error.is_some()
    })
    .await;
    assert_eq!(
        (held.status.is_final(), held.error.map(|e| e.kind)),
        (false, Some(IpcErrorKind::KeychainLocked))
    );
    // Opened while still locked: its own follower tries again and says why it cannot (never a
    // follower of the batch by its id alone, which would not know its values).
    until_not_followed(&w, job.id).await;
    let still_locked = read_to_the_end(live_reader(&w, job.id)).await;
    assert!(
        matches!(&still_locked[..], [BatchEvent::Error { error }] if error.kind == IpcErrorKind::KeychainLocked),
        "{still_locked:?}"
    );
    // Unlocked, then opened: followed, with its values known.
    until_not_followed(&w, job.id).await;
    w.keychain.set_locked(false);
    let reader = live_reader(&w, job.id);
    page.open();
    let watched = read_to_the_end(reader).await;
    let mut seen = Vec::new();
    let done = until_finished(&w, &mut changes, &mut seen).await;
    assert_both_succeeded(&done, job.id);
    // The page's echo reached the steps, scrubbed; nothing at rest or broadcast holds it.
    let watched = serde_json::to_string(&watched).unwrap();
    assert!(
        watched.contains("\"title\":\"Signed in as [redacted]\""),
        "{watched}"
    );
    assert!(!watched.contains(ECHOED), "{watched}");
    let kept = files_under(&w.runner.timelines_dir());
    assert!(contains(&kept, "Signed in as [redacted]"));
    assert!(!contains(&kept, ECHOED));
    assert!(!contains(&sqlite_bytes(&w), ECHOED));
    assert!(seen.iter().all(|e| !e.contains(ECHOED)));
    // Ended: the keychain forgets them.
    assert_eq!(vault.get(&task_inputs::account(key)).await.unwrap(), None);
}

mod key_window;
