//! Jobs started through `Profiles` as the app starts them: refusals, failures, a missing key,
//! sending, cancelling and progress.

use super::*;

async fn profiles_on(w: &World) -> Arc<Profiles> {
    Arc::new(Profiles::in_memory(w.sb.base_url()))
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
    fault(
        &w.sb,
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
