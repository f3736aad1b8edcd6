//! A job the user cancels may still finish on the service and be charged: the next start
//! records what it cost, once.

use std::sync::Arc;
use std::time::Duration;

use specdesk_client::SpecSubmission;
use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig};

#[tokio::test]
async fn a_cancelled_spec_that_finished_on_the_service_is_charged_in_the_ledger_once() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let profiles = Arc::new(Profiles::in_memory(sb.base_url()));
    let library = Arc::new(Library::open(&dir.path().join("library.sqlite")).unwrap());
    let runner = JobRunner::new(
        library.clone(),
        profiles.clone(),
        Arc::new(SilentNotifier),
        JobRunnerConfig::new(dir.path().join("media")),
    );
    // Stays processing for 3 real seconds on the sandbox.
    let draft = SpecSubmission::fast("A bike repair booking page [sandbox:slow]");
    let job = runner.start_spec(SANDBOX_PROFILE_ID, &draft).await.unwrap();
    let cancelled = runner.cancel(job.id).await.unwrap();
    assert_eq!(cancelled.status, JobStatus::Cancelled);
    let spec_id = cancelled.remote_id.clone().unwrap();

    // Still running: nothing to record yet.
    runner.resume_all().await.unwrap();
    assert!(library.credit_ledger(10).unwrap().is_empty());

    // Once the service has finished it, a start records its charge.
    let client = profiles.client_for(SANDBOX_PROFILE_ID).await.unwrap();
    let mut status = client.specs().status(&spec_id).await.unwrap();
    for _ in 0..100 {
        if status.status == specdesk_types::SpecStatus::Completed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        status = client.specs().status(&spec_id).await.unwrap();
    }
    let charged = status.credits_used.unwrap();
    assert!(charged > 0.0);
    runner.resume_all().await.unwrap();
    let ledger = library.credit_ledger(10).unwrap();
    assert_eq!(ledger.len(), 1);
    assert_eq!(
        (
            ledger[0].endpoint.as_str(),
            ledger[0].profile_id.as_str(),
            ledger[0].credits_charged
        ),
        ("spec", SANDBOX_PROFILE_ID, Some(charged))
    );
    let after = library.job(job.id).unwrap();
    assert_eq!(after.status, JobStatus::Cancelled, "still cancelled");
    assert_eq!(after.result.as_ref().unwrap()["creditsCharged"], charged);

    // Once only.
    runner.resume_all().await.unwrap();
    assert_eq!(library.credit_ledger(10).unwrap().len(), 1);
}
