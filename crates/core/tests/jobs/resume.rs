//! Jobs the app wrote before it stopped, resumed by a new runner: a spec (found by its input when
//! its id never arrived), a batch sent again with its key, a video followed to its file.

use super::*;

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
    let (job, prepared) = ledger_batch(&library, &client, tasks);
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
    assert_eq!(charges[0].model.as_deref(), Some("openai/sora-2"));
    assert_eq!(item.credits, charges[0].credits_charged);
    // The result names the charging poll's request id and the balance after it, as the ledger has them.
    let request_id = charges[0]
        .request_id
        .clone()
        .expect("the sandbox sends a request id");
    let balance = charges[0].credits_remaining.expect("and the balance");
    assert_eq!(
        done.result,
        Some(serde_json::json!({"videoId": video_id, "mediaId": item.id,
            "path": item.path, "credits": item.credits, "cost": item.cost,
            "requestId": request_id, "balanceAfter": balance}))
    );
}
