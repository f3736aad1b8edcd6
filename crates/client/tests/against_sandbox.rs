//! The client against the real sandbox (`specdesk_sandbox::Sandbox` on 127.0.0.1:0, simulated work
//! instant): the contract proven end to end over HTTP, with the sandbox's fixed rules
//! (DESIGN.md, "The sandbox").

use std::time::Duration;

use futures::StreamExt;
use specdesk_client::types::*;
use specdesk_client::{
    Client, ClientConfig, ErrorKind, PlanRef, RetryPolicy, SpecListQuery, SpecSubmission,
};
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle, keys};

async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig::ephemeral())
        .await
        .expect("sandbox starts")
}

fn client(sb: &SandboxHandle, key: &str) -> Client {
    let mut cfg = ClientConfig::new(sb.base_url())
        .expect("loopback")
        .with_api_key(key.to_owned())
        .with_retry(RetryPolicy::none());
    cfg.poll_jitter = Duration::ZERO;
    cfg.spec_poll_interval = Duration::from_millis(20);
    cfg.job_poll_interval = Duration::from_millis(20);
    Client::new(cfg).expect("client")
}

/// A `/_sandbox` control call (not part of the client: no key, loopback only).
async fn control(sb: &SandboxHandle, path: &str, body: serde_json::Value) -> serde_json::Value {
    let resp = reqwest::Client::new()
        .post(format!("{}{path}", sb.base_url()))
        .json(&body)
        .send()
        .await
        .expect("control call");
    assert!(resp.status().is_success(), "{path}: {}", resp.status());
    resp.json().await.unwrap_or(serde_json::Value::Null)
}

#[tokio::test]
async fn each_well_known_key_has_its_balance() {
    let sb = sandbox().await;
    for (key, credits) in [
        (keys::ORG, 10000.0),
        (keys::PRO, 1000.0),
        (keys::FREE, 20.0),
        (keys::BROKE, 0.0),
    ] {
        let b = client(&sb, key).account().credits_balance().await.unwrap();
        assert_eq!((b.success, b.credits_remaining), (true, credits), "{key}");
    }
    let err = client(&sb, "sk_nobody")
        .account()
        .credits_balance()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidKey);
    assert_eq!(err.status(), Some(401));
    assert_eq!(err.api().unwrap().rest_error(), Some("Unauthorized"));
    sb.shutdown().await;
}

#[tokio::test]
async fn a_fast_spec_is_generated_charged_listed_and_found() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let result = c
        .specs()
        .generate(&SpecSubmission::fast(
            "A recipe sharing app where cooks publish recipes, follow each other and save favourites.",
        ))
        .await
        .unwrap();
    assert_eq!(result.status, SpecStatus::Completed);
    assert!(result.success);
    assert_eq!(result.endpoint, SpecEndpoint::Fast);
    let used = result.credits_used.expect("creditsUsed");
    assert!((5.0..=10.0).contains(&used), "fast spec cost {used}");
    let human = result.human_spec_json.as_ref().expect("humanSpecJson");
    assert!(!human.milestones.is_empty());
    assert!(
        human
            .milestones
            .iter()
            .any(|m| m.description.to_lowercase().contains("deploy")),
        "a full spec has a deployment milestone"
    );
    assert!(
        human
            .milestones
            .iter()
            .flat_map(|m| &m.stories)
            .all(|s| s.sub_tasks.is_empty()),
        "fast stories carry no subtasks"
    );
    assert!(
        !result
            .human_spec_markdown
            .clone()
            .unwrap_or_default()
            .is_empty()
    );

    let balance = c.account().credits_balance().await.unwrap();
    assert_eq!(balance.credits_remaining, 1000.0 - used);

    let all = c.specs().list(&SpecListQuery::default()).await.unwrap();
    assert_eq!((all.total, all.has_more, all.specs.len()), (1, false, 1));
    let found = c
        .specs()
        .list(&SpecListQuery {
            search: Some("RECIPE (sharing|swapping)".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(found.total, 1);
    let none = c
        .specs()
        .list(&SpecListQuery {
            search: Some("kanban".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!((none.total, none.specs.len()), (0, 0));
    // Another user never sees it.
    let other = client(&sb, keys::ORG)
        .specs()
        .list(&SpecListQuery::default())
        .await
        .unwrap();
    assert_eq!(other.total, 0);
    sb.shutdown().await;
}

#[tokio::test]
async fn an_async_spec_is_polled_to_completion_and_its_plan_moves() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let accepted = c
        .specs()
        .submit(&SpecSubmission::fast(
            "A team task board with projects, due dates and comments.",
        ))
        .await
        .unwrap();
    assert_eq!(accepted.status, SpecStatus::Pending);
    let statuses: Vec<SpecStatusResponse> = c
        .specs()
        .wait_for_spec(&accepted.spec_id)
        .map(|s| s.unwrap())
        .collect()
        .await;
    let last = statuses.last().unwrap();
    assert_eq!(last.status, SpecStatus::Completed);
    assert!(
        statuses[..statuses.len() - 1]
            .iter()
            .all(|s| !s.status.is_terminal())
    );
    let via_api = c.specs().status_api(&accepted.spec_id).await.unwrap();
    assert_eq!(via_api.status, SpecStatus::Completed);

    let plan_ref = PlanRef::Spec(accepted.spec_id.clone());
    let plan = c.plans().get(&plan_ref).await.unwrap();
    assert_eq!(plan.spec_id.as_deref(), Some(accepted.spec_id.as_str()));
    let p = plan.plan.expect("a completed spec has a plan");
    assert_eq!(
        (
            p.progress.built,
            p.progress.proven_working,
            p.progress.percent
        ),
        (0, 0, 0)
    );
    assert!(
        p.features
            .iter()
            .all(|f| f.status == FeatureStatus::Planned)
    );
    assert!(p.app_map.is_none() && p.last_run.is_none());

    let advance = format!("/_sandbox/projects/{}/advance", plan.project_id);
    let by_project = PlanRef::Project(plan.project_id.clone());
    control(&sb, &advance, serde_json::json!({})).await;
    let first = c.plans().get(&by_project).await.unwrap().plan.unwrap();
    assert!(
        first
            .features
            .iter()
            .any(|f| f.status == FeatureStatus::InProgress),
        "a first coding run starts work"
    );
    let first_run = first.last_run.expect("code exists: a last run");
    control(&sb, &advance, serde_json::json!({})).await;
    let moved = c.plans().get(&by_project).await.unwrap().plan.unwrap();
    assert!(moved.progress.built > 0, "a second run has built something");
    assert!(moved.progress.proven_working <= moved.progress.built);
    let map = moved.app_map.expect("code exists: an app map");
    for list in [
        map.screens.items.len(),
        map.endpoints.items.len(),
        map.storage.items.len(),
    ] {
        assert!(list <= 25);
    }
    let second_run = moved.last_run.expect("a last run");
    assert_eq!(
        second_run.code_version.before, first_run.code_version.after,
        "consecutive runs chain their code versions"
    );
    assert!(
        moved
            .features
            .iter()
            .filter(|f| !f.counted)
            .all(
                |f| matches!(f.status, FeatureStatus::OutOfScope | FeatureStatus::Removed)
                    || f.scope == FeatureScope::Proposed
            )
    );

    let md = c.plans().markdown(&plan_ref).await.unwrap();
    assert!(md.starts_with('#'), "{md}");
    sb.shutdown().await;
}

#[tokio::test]
async fn paid_only_features_are_refused_with_an_upgrade_action() {
    let sb = sandbox().await;
    let free = client(&sb, keys::FREE);
    let err = free
        .specs()
        .generate(&SpecSubmission::deep("An invoicing app"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SubscriptionRequired);
    assert_eq!(err.status(), Some(402));
    assert!(err.action_url().is_some_and(|u| u.starts_with("http")));

    let err = free
        .plans()
        .get(&PlanRef::Project("0123456789abcdef01234567".into()))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(401));
    assert_eq!(
        err.api().unwrap().rest_error(),
        Some("Authentication failed")
    );
    sb.shutdown().await;
}

#[tokio::test]
async fn a_rotated_key_keeps_working_fifteen_sandbox_minutes() {
    let sb = sandbox().await;
    let rotated = control(
        &sb,
        "/_sandbox/keys/rotate",
        serde_json::json!({"key": keys::PRO}),
    )
    .await;
    let new_key = rotated["key"].as_str().expect("new key").to_owned();
    assert_ne!(new_key, keys::PRO);
    let old = client(&sb, keys::PRO);
    let new = client(&sb, &new_key);
    assert_eq!(
        old.account()
            .credits_balance()
            .await
            .unwrap()
            .credits_remaining,
        1000.0
    );
    control(
        &sb,
        "/_sandbox/clock/advance",
        serde_json::json!({"ms": 14 * 60 * 1000}),
    )
    .await;
    assert!(
        old.account().credits_balance().await.is_ok(),
        "still in grace"
    );
    control(
        &sb,
        "/_sandbox/clock/advance",
        serde_json::json!({"ms": 2 * 60 * 1000}),
    )
    .await;
    let err = old.account().credits_balance().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidKey);
    assert_eq!(
        new.account()
            .credits_balance()
            .await
            .unwrap()
            .credits_remaining,
        1000.0
    );
    sb.shutdown().await;
}

mod agents {
    use super::*;
    use specdesk_client::{BatchOptions, BatchUpdate};
    use std::collections::BTreeMap;
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    const PRODUCT: &str = r#"<!doctype html><html><head><title>Widget</title></head><body>
        <h1>Widget</h1><p>The best widget.</p><span id="price">9.99</span>
        <button>"Buy now"</button></body></html>"#;

    /// Pages the browser tasks visit, on loopback.
    async fn site() -> MockServer {
        let site = MockServer::start().await;
        let html = |body: &str| {
            ResponseTemplate::new(200)
                .insert_header("content-type", "text/html; charset=utf-8")
                .set_body_string(body.to_owned())
        };
        Mock::given(method("GET"))
            .and(path("/product"))
            .respond_with(html(PRODUCT))
            .mount(&site)
            .await;
        Mock::given(method("GET"))
            .and(path("/slow"))
            .respond_with(html(PRODUCT).set_delay(Duration::from_millis(300)))
            .mount(&site)
            .await;
        Mock::given(method("GET"))
            .and(path("/captcha"))
            .respond_with(html(
                "<html><body>Please solve this CAPTCHA to continue</body></html>",
            ))
            .mount(&site)
            .await;
        Mock::given(method("GET"))
            .and(path("/private"))
            .respond_with(ResponseTemplate::new(403).set_body_string("forbidden"))
            .mount(&site)
            .await;
        site
    }

    fn task(url: String, instruction: &str) -> BrowserTask {
        BrowserTask {
            url,
            instruction: Some(instruction.to_owned()),
            input: None,
            output: None,
            success_condition: None,
            timeout_ms: None,
            max_steps: None,
            max_duration_seconds: None,
            mode: None,
        }
    }

    #[tokio::test]
    async fn every_outcome_follows_the_documented_rule() {
        let sb = sandbox().await;
        let site = site().await;
        let c = client(&sb, keys::PRO);
        let mut price = task(format!("{}/product", site.uri()), "Read the price");
        price.output = Some(serde_json::json!({
            "type": "object",
            "required": ["price"],
            "properties": {"price": {"type": "number"}}
        }));
        let mut looping = task(format!("{}/product", site.uri()), "Click around");
        looping.max_steps = Some(2);
        let tasks = vec![
            price,
            task(format!("{}/private", site.uri()), "Open the dashboard"),
            task(format!("{}/captcha", site.uri()), "Read the page"),
            task("http://127.0.0.1:1/".to_owned(), "Open it"),
            looping,
            task(format!("{}/product", site.uri()), "Click \"Add to basket\""),
        ];
        let prepared = c.agents().prepare(tasks, BatchOptions::default()).unwrap();
        let batch = c.agents().run(&prepared).await.unwrap();
        assert_eq!(batch.status, BatchStatus::Completed);
        assert_eq!((batch.total, batch.completed), (6, 6));
        let statuses: Vec<TaskStatus> = batch.results.iter().map(|r| r.status.clone()).collect();
        assert_eq!(
            statuses,
            vec![
                TaskStatus::Success,
                TaskStatus::Blocked,
                TaskStatus::CaptchaFailed,
                TaskStatus::Error,
                TaskStatus::Loop,
                TaskStatus::NoTarget,
            ]
        );
        assert_eq!(
            batch.results[0].data,
            Some(serde_json::json!({"price": 9.99}))
        );
        for r in &batch.results {
            assert!(r.credits_used >= 0.1, "{r:?}");
        }
        let sum: f64 = batch.results.iter().map(|r| r.credits_used).sum();
        assert!((batch.total_credits_used - sum).abs() < 1e-9);

        // The same key again returns the same batch and creates none.
        let again = c.agents().start(&prepared).await.unwrap();
        assert_eq!(again.id, batch.id);
        let list = c.agents().list(None, None, None).await.unwrap();
        assert_eq!(list.total, 1);
        sb.shutdown().await;
    }

    #[tokio::test]
    async fn the_alias_paths_reach_the_same_batches() {
        let sb = sandbox().await;
        let site = site().await;
        let c = client(&sb, keys::ORG);
        let tasks = vec![task(format!("{}/product", site.uri()), "Look")];
        let legacy = c.agents_at(specdesk_client::AgentsRoute::LegacySubmission);
        let prepared = legacy.prepare(tasks, BatchOptions::default()).unwrap();
        let batch = legacy.run(&prepared).await.unwrap();
        assert_eq!(batch.status, BatchStatus::Completed);
        let tasks_alias = c.agents_at(specdesk_client::AgentsRoute::BrowserTasks);
        assert_eq!(
            tasks_alias.get(&batch.id, false).await.unwrap().id,
            batch.id
        );
        assert_eq!(
            tasks_alias
                .list(Some(10), Some(0), None)
                .await
                .unwrap()
                .total,
            1
        );
        let cap = tasks_alias.capacity().await.unwrap();
        assert!((0.0..=1.0).contains(&cap.utilization), "{cap:?}");
        sb.shutdown().await;
    }

    /// Follows a live batch of three tasks on `page` whose stream the sandbox drops after five
    /// events; checks every event and result came exactly once, in order, and returns the
    /// updates.
    async fn follow_with_a_dropped_stream(page: &str) -> Vec<BatchUpdate> {
        let sb = sandbox().await;
        let site = site().await;
        let c = client(&sb, keys::PRO);
        control(
            &sb,
            "/_sandbox/faults",
            serde_json::json!({
                "match": {"method": "POST", "path": "/api/v1/browser-agents"},
                "times": 1,
                "dropStreamAfterEvents": 5
            }),
        )
        .await;
        let tasks = (0..3)
            .map(|i| task(format!("{}{page}", site.uri()), &format!("Look at it {i}")))
            .collect();
        let prepared = c
            .agents()
            .prepare(
                tasks,
                BatchOptions {
                    concurrency: Some(1),
                    ..Default::default()
                },
            )
            .unwrap();
        let updates: Vec<BatchUpdate> = c
            .agents()
            .follow(&prepared)
            .map(|u| u.expect("update"))
            .collect()
            .await;
        let Some(BatchUpdate::Done(done)) = updates.last() else {
            panic!("ends with Done: {:?}", updates.last());
        };
        let full = c.agents().get(&done.id, true).await.unwrap();
        let mut expected: BTreeMap<u32, Vec<TaskEvent>> = BTreeMap::new();
        for r in &full.results {
            for e in r.events.as_deref().unwrap_or_default() {
                expected.entry(e.task_index).or_default().push(e.clone());
            }
        }
        let mut got: BTreeMap<u32, Vec<TaskEvent>> = BTreeMap::new();
        let mut results = Vec::new();
        for u in &updates {
            match u {
                BatchUpdate::Event(e) => got.entry(e.task_index).or_default().push(e.clone()),
                BatchUpdate::Result(r) => results.push(r.task_index),
                _ => {}
            }
        }
        assert_eq!(got, expected, "every event exactly once, in order");
        results.sort();
        assert_eq!(results, vec![0, 1, 2], "every result exactly once");
        sb.shutdown().await;
        updates
    }

    fn count(updates: &[BatchUpdate], f: impl Fn(&BatchUpdate) -> bool) -> usize {
        updates.iter().filter(|u| f(u)).count()
    }

    #[tokio::test]
    async fn a_dropped_stream_is_resumed_by_polling_without_loss_or_duplicates() {
        let updates = follow_with_a_dropped_stream("/product").await;
        assert_eq!(
            count(&updates, |u| matches!(u, BatchUpdate::Polling { .. })),
            1,
            "one switch to polling"
        );
    }

    #[tokio::test]
    async fn after_a_drop_the_follower_goes_back_live_and_the_replay_repeats_nothing() {
        // Each page takes 300 ms, so the batch outlasts the two polls before the live retry.
        let updates = follow_with_a_dropped_stream("/slow").await;
        let switches: Vec<&str> = updates
            .iter()
            .filter_map(|u| match u {
                BatchUpdate::Polling { .. } => Some("polling"),
                BatchUpdate::Live { .. } => Some("live"),
                _ => None,
            })
            .collect();
        assert_eq!(switches, ["polling", "live"]);
    }
}

mod gateway {
    use super::*;
    use specdesk_client::{AudioUpload, MessageAccumulator};

    async fn model_where(c: &Client, f: impl Fn(&CatalogModel) -> bool) -> String {
        c.gateway()
            .models()
            .await
            .unwrap()
            .value
            .data
            .into_iter()
            .find(|m| f(m))
            .expect("a matching model in the catalog")
            .id
    }

    #[tokio::test]
    async fn speech_round_trips_through_transcription_and_every_call_is_metered() {
        let sb = sandbox().await;
        let c = client(&sb, keys::PRO);
        let speech_model = model_where(&c, |m| m.id.ends_with("-audio-mini")).await;
        let transcriber = model_where(&c, |m| m.id.contains("transcribe")).await;
        let text = "Welcome to Specdesk. Your plan is ready.";
        let audio = c
            .gateway()
            .speech(&SpeechRequest {
                model: speech_model.clone(),
                input: text.to_owned(),
                voice: Some(Voice::Coral),
                response_format: None,
                instructions: None,
            })
            .await
            .unwrap();
        assert_eq!(audio.value.format, AudioFormat::Wav);
        assert_eq!(&audio.value.bytes[..4], b"RIFF");
        assert_eq!(&audio.value.bytes[8..12], b"WAVE");
        let charged = audio.metering.credits_charged.expect("charged header");
        let left = audio.metering.credits_remaining.expect("remaining header");
        assert!(audio.metering.request_id.is_some());
        assert_eq!(left, 1000.0 - charged);

        let heard = c
            .gateway()
            .transcribe(
                &transcriber,
                &AudioUpload {
                    file_name: "welcome.wav".into(),
                    mime: "audio/wav".into(),
                    bytes: audio.value.bytes.clone(),
                },
            )
            .await
            .unwrap();
        assert_eq!(heard.value.text, text);

        // Identical requests give identical bytes.
        let again = c
            .gateway()
            .speech(&SpeechRequest {
                model: speech_model,
                input: text.to_owned(),
                voice: Some(Voice::Coral),
                response_format: None,
                instructions: None,
            })
            .await
            .unwrap();
        assert_eq!(again.value.bytes, audio.value.bytes);
        sb.shutdown().await;
    }

    #[tokio::test]
    async fn a_streamed_reply_names_the_tool_the_user_asked_for() {
        let sb = sandbox().await;
        let c = client(&sb, keys::PRO);
        let catalog = c.gateway().public_catalog().await.unwrap();
        let chat = catalog
            .data
            .iter()
            .find(|m| m.model_type == Some(ModelType::Text))
            .expect("a text model")
            .id
            .clone();
        let request = MessagesRequest {
            model: chat,
            max_tokens: 256,
            messages: vec![Message {
                role: MessageRole::User,
                content: MessageContent::Text("Please call get_weather for Paris".into()),
            }],
            system: Some(SystemPrompt::Text("You are terse.".into())),
            tools: Some(vec![Tool {
                name: "get_weather".into(),
                description: Some("Weather of a city".into()),
                input_schema: serde_json::json!({
                    "type": "object",
                    "required": ["city"],
                    "properties": {"city": {"type": "string"}}
                }),
            }]),
            tool_choice: None,
            stream: None,
            temperature: None,
            top_p: None,
            top_k: None,
            stop_sequences: None,
            metadata: None,
        };
        let whole = c.gateway().messages(&request).await.unwrap().value;
        assert_eq!(whole.stop_reason, Some(StopReason::ToolUse));
        let mut stream = c.gateway().messages_stream(&request).await.unwrap();
        let mut acc = MessageAccumulator::default();
        while let Some(ev) = stream.next().await {
            acc.push(&ev.unwrap()).unwrap();
        }
        let streamed = acc.finish().unwrap();
        let without_ids = |blocks: &[ContentBlock]| -> Vec<ContentBlock> {
            blocks
                .iter()
                .cloned()
                .map(|b| match b {
                    ContentBlock::ToolUse { name, input, .. } => ContentBlock::ToolUse {
                        id: String::new(),
                        name,
                        input,
                    },
                    other => other,
                })
                .collect()
        };
        assert_eq!(
            without_ids(&streamed.content),
            without_ids(&whole.content),
            "stream and JSON agree (ids aside)"
        );
        match &streamed.content[..] {
            [ContentBlock::ToolUse { name, input, .. }] => {
                assert_eq!(name, "get_weather");
                assert!(input.get("city").is_some_and(|v| v.is_string()), "{input}");
            }
            other => panic!("one tool_use block expected: {other:?}"),
        }
        sb.shutdown().await;
    }

    #[tokio::test]
    async fn images_are_png_and_videos_are_charged_when_a_poll_reports_completion() {
        let sb = sandbox().await;
        let c = client(&sb, keys::PRO);
        let image_model = c.gateway().image_models().await.unwrap().value.data[0]
            .id
            .clone();
        let images = c
            .gateway()
            .images(&ImageRequest {
                model: image_model,
                prompt: "A lighthouse at dusk".into(),
                n: Some(2),
                size: Some("64x32".into()),
            })
            .await
            .unwrap();
        assert_eq!(images.value.data.len(), 2);
        assert!(images.metering.credits_charged.unwrap_or(0.0) > 0.0);

        let video_model = c.gateway().video_models().await.unwrap().value.data[0]
            .id
            .clone();
        let job = c
            .gateway()
            .create_video(&VideoRequest {
                model: video_model,
                prompt: "Waves on a beach".into(),
                seconds: Some("2".into()),
                size: None,
            })
            .await
            .unwrap();
        assert_eq!(
            job.metering.credits_charged.unwrap_or(0.0),
            0.0,
            "not charged at submission"
        );
        let polls: Vec<_> = c
            .gateway()
            .wait_for_video(&job.value.id)
            .map(|p| p.unwrap())
            .collect()
            .await;
        let last = polls.last().unwrap();
        assert_eq!(last.value.status, VideoStatus::Completed);
        let charged: Vec<f64> = polls
            .iter()
            .map(|p| p.metering.credits_charged.unwrap_or(0.0))
            .collect();
        assert_eq!(
            charged.iter().filter(|c| **c > 0.0).count(),
            1,
            "charged exactly once: {charged:?}"
        );
        assert!(
            *charged.last().unwrap() > 0.0,
            "on the poll that reports completion"
        );
        let video = c.gateway().video_content(&job.value.id).await.unwrap();
        assert_eq!(video.value.content_type.as_deref(), Some("video/mp4"));
        assert_eq!(&video.value.bytes[4..8], b"ftyp");

        // Another workspace's job is not found.
        let err = client(&sb, keys::ORG)
            .gateway()
            .video(&job.value.id)
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        sb.shutdown().await;
    }

    #[tokio::test]
    async fn the_trial_ends_with_subscription_required_and_broke_keys_are_refused() {
        let sb = sandbox().await;
        let broke = client(&sb, keys::BROKE);
        let rerank = RerankRequest {
            model: "cohere/rerank-v3.5".into(),
            query: "plan progress".into(),
            documents: vec!["progress of the plan".into(), "a recipe".into()],
            top_n: Some(1),
        };
        let err = broke.gateway().rerank(&rerank).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InsufficientCredits);
        assert!(err.action_url().is_some(), "a top-up link");

        let free = client(&sb, keys::FREE);
        let ranked = free.gateway().rerank(&rerank).await.unwrap();
        assert_eq!(ranked.value.results.len(), 1);
        assert_eq!(ranked.value.results[0].index, 0);
        // Spend the 5-credit trial on images, then the next call is refused.
        let image_model = free.gateway().image_models().await.unwrap().value.data[0]
            .id
            .clone();
        let mut spent = ranked.metering.credits_charged.unwrap_or(0.0);
        let err = loop {
            match free
                .gateway()
                .images(&ImageRequest {
                    model: image_model.clone(),
                    prompt: "x".into(),
                    n: Some(4),
                    size: Some("16x16".into()),
                })
                .await
            {
                Ok(m) => spent += m.metering.credits_charged.unwrap_or(0.0),
                Err(e) => break e,
            }
            assert!(spent < 100.0, "the trial never ended");
        };
        assert_eq!(err.kind(), ErrorKind::SubscriptionRequired, "{err}");
        let svc = match &err.api().unwrap().body {
            specdesk_client::ErrorBody::Gateway(g) => g.svc.clone().unwrap(),
            other => panic!("gateway error expected: {other:?}"),
        };
        assert!(spent >= 5.0);
        assert!((svc.trial_credits_used.unwrap() - spent).abs() < 1e-9);
        sb.shutdown().await;
    }
}
