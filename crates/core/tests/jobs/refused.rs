//! A batch the service refuses at its first send, live or waited for (the job is written before
//! the send, so the refusal comes to its follower): the job fails at once with the service's
//! reason, nothing was made, and a relaunch does not send it again.

use specdesk_core::BatchRunMode;

use super::*;

/// The next submission of a batch is answered `status` with `error` and `message`.
async fn refuse_next(sb: &SandboxHandle, status: u16, error: &str, message: &str) {
    fault(sb, serde_json::json!({"match": {"method": "POST", "path": "/api/v1/browser-agents"}, "times": 1,
            "respond": {"status": status, "code": error, "message": message}})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_refused_at_its_first_send_fails_with_the_reason_and_is_not_sent_again() {
    let w = World::new().await;
    let client = w.client("pro").await;
    let library = w.library();
    let task: BrowserTask = serde_json::from_value(serde_json::json!({
        "url": format!("{}/_sandbox/health", w.sb.base_url()), "instruction": "Read it",
    }))
    .unwrap();
    let cases = [
        (
            BatchRunMode::Live,
            402,
            "Insufficient credits",
            "This batch needs at least 0.1 credits and 0 remain.",
            IpcErrorKind::InsufficientCredits,
            "You do not have enough credits for this. Top up your balance, then try again. (The service said: This batch needs at least 0.1 credits and 0 remain.)",
        ),
        (
            BatchRunMode::Wait,
            400,
            "Invalid request",
            "tasks holds more tasks than one batch may.",
            IpcErrorKind::InvalidInput,
            "The service refused the request: tasks holds more tasks than one batch may. Check what you entered and try again.",
        ),
        (
            BatchRunMode::Live,
            401,
            "Unauthorized",
            "Invalid API key.",
            IpcErrorKind::InvalidKey,
            "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.",
        ),
    ];
    for (mode, status, error, message, kind, said) in cases {
        refuse_next(&w.sb, status, error, message).await;
        let (notifier, mut notified) = told();
        let runner = w.runner(&library, notifier);
        let job = runner
            .start_batch(
                "pro",
                vec![task.clone()],
                BatchOptions::default(),
                mode,
                None,
            )
            .await
            .unwrap();
        let done = next(&mut notified).await;
        assert_eq!(
            (done.id, done.status),
            (job.id, JobStatus::Failed),
            "{mode:?} {status}"
        );
        let failure = done.error.expect("the reason is kept on the job");
        assert_eq!((failure.kind, failure.status), (kind, Some(status)));
        assert_eq!(failure.message, said);
        assert_eq!(done.remote_id, None);
        // Relaunched: a failed job is not followed again.
        let (notifier, _) = told();
        assert_eq!(w.runner(&library, notifier).resume_all().await.unwrap(), 0);
    }
    assert_eq!(
        client.agents().list(None, None, None).await.unwrap().total,
        0,
        "nothing was made"
    );
}
