//! A batch's input values and the service's 24-hour key window: a batch held on a locked
//! keychain for a day is found on the service, never sent again; one not known to have reached
//! the service keeps its values for Send again, or forgets them.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_held_on_a_locked_keychain_for_a_day_is_found_on_the_service_not_sent_again() {
    let w = world().await;
    let all = tasks(&w);
    let key = "batch-held-0004";
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
    let (stored, values) = task_inputs::strip(&all);
    let vault = Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5));
    let account = task_inputs::account(key);
    vault
        .set_unlisted(&account, &serde_json::to_string(&values).unwrap())
        .await
        .unwrap();
    let job = ledger_job(&w, key, stored);
    // Sent; its answer (the id) was lost with the app.
    let sent = client.agents().start(&prepared).await.unwrap();

    // Relaunched with the keychain locked: held, saying why, and left so for a day.
    let mut changes = w.runner.subscribe();
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
    until_not_followed(&w, job.id).await;
    let day = Duration::from_secs(25 * 60 * 60);
    let advanced = reqwest::Client::new()
        .post(format!("{}/_sandbox/clock/advance", w.sb.base_url()))
        .json(&serde_json::json!({"ms": day.as_millis() as u64}))
        .send()
        .await
        .unwrap();
    assert!(advanced.status().is_success());
    w.runner.advance_clock(day);

    // Unlocked and opened: its key is too old to post, so the batch is looked for and followed.
    w.keychain.set_locked(false);
    read_to_the_end(live_reader(&w, job.id)).await;
    let done = w.library.job(job.id).unwrap();
    assert_eq!(
        (done.status, done.remote_id.as_deref(), done.error),
        (JobStatus::Completed, Some(sent.id.as_str()), None)
    );
    let made = client.agents().list(None, None, None).await.unwrap().total;
    assert_eq!(made, 1, "never sent a second time");
    assert_eq!(vault.get(&account).await.unwrap(), None, "ended: forgotten");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_not_known_to_have_been_sent_keeps_its_values_for_send_again_or_forgets_them() {
    let w = world().await;
    let vault = Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5));
    let day = Duration::from_secs(25 * 60 * 60);
    let mut unconfirmed = Vec::new();
    for key in ["batch-unsent-0005", "batch-unsent-0006"] {
        // Written with its values, then the app stopped before the send left; a day passes.
        let (stored, values) = task_inputs::strip(&tasks(&w));
        vault
            .set_unlisted(
                &task_inputs::account(key),
                &serde_json::to_string(&values).unwrap(),
            )
            .await
            .unwrap();
        unconfirmed.push(ledger_job(&w, key, stored));
    }
    w.runner.advance_clock(day);
    let mut changes = w.runner.subscribe();
    assert_eq!(w.runner.resume_all().await.unwrap(), 2);
    // Both end failed, not known to have reached the service, their values kept for Send again.
    let mut ended = std::collections::BTreeSet::new();
    while ended.len() < 2 {
        let seen = tokio::time::timeout(Duration::from_secs(60), changes.recv())
            .await
            .expect("never settled")
            .unwrap();
        if seen.status.is_final() {
            assert_eq!(seen.error.map(|e| e.kind), Some(IpcErrorKind::Unconfirmed));
            ended.insert(seen.id);
        }
    }
    for job in &unconfirmed {
        let account = task_inputs::account(job.idempotency_key.as_deref().unwrap());
        let kept = vault.get(&account).await.unwrap();
        assert!(kept.is_some(), "kept for Send again");
    }

    // Sent again: a new batch with the values, which the old key no longer holds.
    let again = w
        .runner
        .settle_unconfirmed(unconfirmed[0].id, true)
        .await
        .unwrap();
    until_change(
        &mut changes,
        again.id,
        "the batch sent again never ended",
        |j| j.status.is_final(),
    )
    .await;
    // Its follower is done with it once its feed ends (the values go just before).
    until_feed_ends(&w, again.id).await;
    let done = w.library.job(again.id).unwrap();
    assert_both_succeeded(&done, again.id);
    let account = |job: &Job| task_inputs::account(job.idempotency_key.as_deref().unwrap());
    assert_eq!(vault.get(&account(&unconfirmed[0])).await.unwrap(), None);
    assert_eq!(
        vault.get(&account(&again)).await.unwrap(),
        None,
        "ended: forgotten"
    );
    assert!(!contains(&sqlite_bytes(&w), SECRET));

    // Kept unsent: closed, its values forgotten, nothing sent.
    let kept = w
        .runner
        .settle_unconfirmed(unconfirmed[1].id, false)
        .await
        .unwrap();
    assert_eq!(
        (kept.id, kept.status, kept.progress.as_deref()),
        (
            unconfirmed[1].id,
            JobStatus::Cancelled,
            Some("Not sent again, as you chose.")
        )
    );
    assert_eq!(vault.get(&account(&unconfirmed[1])).await.unwrap(), None);
    let client = w.profiles.client_for(&w.profile_id).await.unwrap();
    assert_eq!(
        client.agents().list(None, None, None).await.unwrap().total,
        1
    );
}
