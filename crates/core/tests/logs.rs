//! The log a user can send: a real run (a key set, a spec sent, a request refused) leaves its
//! events in the day's file, and no key or credential in it.

use std::sync::Arc;

use specdesk_client::SpecSubmission;
use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig, keys};
use tracing_subscriber::layer::SubscriberExt;

// One thread, so the log installed for this test sees every task it spawns.
#[tokio::test(flavor = "current_thread")]
async fn a_run_leaves_its_events_in_the_log_and_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let log_dir = dir.path().join("logs");
    let subscriber = tracing_subscriber::registry().with(
        tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(logs::file_writer(&log_dir).unwrap()),
    );
    let _log = tracing::subscriber::set_default(subscriber);

    let sandbox = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let profiles = Arc::new(Profiles::in_memory(sandbox.base_url()));
    let work = profiles
        .add(
            &ProfileInput {
                name: "Work".into(),
                base_url: sandbox.base_url().to_owned(),
                key_kind: KeyKind::Personal,
                project_id: None,
            },
            None,
        )
        .await
        .unwrap();
    profiles.set_key(&work.id, keys::PRO).await.unwrap();

    let library = Arc::new(Library::open(&dir.path().join("library.sqlite")).unwrap());
    let runner = JobRunner::new(
        library,
        profiles.clone(),
        Arc::new(SilentNotifier),
        JobRunnerConfig::new(dir.path().join("media")),
    );
    let job = runner
        .start_spec(&work.id, &SpecSubmission::fast("A reading list"))
        .await
        .unwrap();
    runner.cancel(job.id).await.unwrap();

    // A key the service does not know (not shaped like one), then a refused request.
    let wrong = "wrong-key-7f3a9c51";
    profiles.set_key(&work.id, wrong).await.unwrap();
    let refused = profiles.test_connection(&work.id).await.unwrap_err();
    assert_eq!(refused.kind, IpcErrorKind::InvalidKey);
    // Careless lines that would leak the keys: one in a credential's shape, and one with the
    // bare keys, which only their registration can catch.
    tracing::warn!("debug dump: Authorization: Bearer {wrong}");
    tracing::warn!("debug dump of the keys: {wrong} and {}", keys::PRO);

    let files = logs::log_files(&log_dir);
    assert_eq!(files.len(), 1, "one file for today");
    let name = files[0].file_name().unwrap().to_str().unwrap().to_owned();
    assert!(
        name.starts_with("specdesk.") && name.ends_with(".log"),
        "{name}"
    );
    let log = std::fs::read_to_string(&files[0]).unwrap();
    for event in [
        "API key saved in the keychain",
        "job sent to the service",
        "request failed: The service did not accept your API key.",
        "debug dump: Authorization: [redacted]",
        "debug dump of the keys: [redacted] and [redacted]",
    ] {
        assert!(log.contains(event), "the log has {event:?}:\n{log}");
    }
    for secret in [keys::PRO, wrong] {
        assert!(
            !log.contains(secret),
            "the log never holds {secret}:\n{log}"
        );
    }
    let tail = logs::last_lines(&log_dir, 200);
    assert_eq!(tail.len(), log.lines().count());
    assert!(tail.iter().all(|l| !l.contains(wrong)));
}
