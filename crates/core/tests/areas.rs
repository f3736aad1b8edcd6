//! The area use cases the app's commands call, against the real sandbox (127.0.0.1:0, time scale
//! 0): spec drafts checked before sending, the spec library with its offline fallback, one spec
//! and its rendered documents, plans with their snapshots, and the gateway studio's files,
//! ledger and conversations. Values are asserted exactly.

use std::path::Path;

use specdesk_client::{Client, ClientConfig, RetryPolicy, SpecSubmission};
use specdesk_core::specs::{self, inspect_file};
use specdesk_core::studio::save_document;
use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle, keys};
use specdesk_types::{
    ImageRequest, MessagesRequest, RerankRequest, SpecEndpoint, SpecStatus, SpeechRequest,
};

fn client(sb: &SandboxHandle, key: &str) -> Client {
    Client::new(
        ClientConfig::new(sb.base_url())
            .unwrap()
            .with_api_key(key.to_owned())
            .with_retry(RetryPolicy::none()),
    )
    .unwrap()
}

async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig::ephemeral()).await.unwrap()
}

fn draft(input: &str) -> SpecDraft {
    SpecDraft {
        depth: SpecDepth::Fast,
        input: input.to_owned(),
        current_context: None,
        doc_urls: vec![],
        file_path: None,
    }
}

#[test]
fn drafts_are_checked_field_by_field_before_anything_is_sent() {
    let empty = draft("   ").to_submission().unwrap_err();
    assert_eq!(
        (
            empty.kind.clone(),
            empty.field.as_deref(),
            empty.message.as_str()
        ),
        (
            IpcErrorKind::InvalidInput,
            Some("input"),
            "Describe what you want to build, or attach a file that describes it."
        )
    );

    let mut bad_url = draft("A recipe app");
    bad_url.doc_urls = vec![
        "https://docs.example.com".into(),
        "".into(),
        "docs.example.com/guide".into(),
    ];
    let e = bad_url.to_submission().unwrap_err();
    assert_eq!(e.field.as_deref(), Some("docUrls"));
    assert_eq!(
        e.message,
        "Documentation link 2 (\"docs.example.com/guide\") is not a full web address. Write it like https://docs.example.com."
    );

    let mut ok = draft("A recipe app");
    ok.doc_urls = vec![" https://docs.example.com ".into(), "".into()];
    ok.current_context = Some("  ".into());
    let s = ok.to_submission().unwrap();
    assert_eq!(s.doc_urls, vec!["https://docs.example.com".to_owned()]);
    assert_eq!(s.current_context, None);
    assert!(s.file.is_none());
}

#[test]
fn files_for_a_spec_are_read_here_and_refused_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("Brief.MD");
    std::fs::write(&md, "# Recipes\nShare and rate recipes.\n").unwrap();
    let info = inspect_file(&md).unwrap();
    assert_eq!(
        (info.name.as_str(), info.size, info.mime.as_str()),
        ("Brief.MD", 34, "text/markdown")
    );

    let exe = dir.path().join("setup.exe");
    std::fs::write(&exe, b"MZ").unwrap();
    assert_eq!(
        inspect_file(&exe).unwrap_err().message,
        "\"setup.exe\" is not a type the service can read. Use a Markdown, text, PDF, JSON or CSV file."
    );
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(
        inspect_file(&empty).unwrap_err().message,
        "\"empty.txt\" is empty. Choose another file."
    );
    let gone = inspect_file(&dir.path().join("gone.md")).unwrap_err();
    assert_eq!(
        (gone.field.as_deref(), gone.message.as_str()),
        (
            Some("file"),
            "Specdesk could not read \"gone.md\". Check that it still exists, or choose it again."
        )
    );

    let mut with_file = draft("");
    with_file.file_path = Some(md.display().to_string());
    let s = with_file.to_submission().unwrap();
    let file = s.file.unwrap();
    assert_eq!(
        (
            file.file_name.as_str(),
            file.mime.as_str(),
            file.bytes.len()
        ),
        ("Brief.MD", "text/markdown", 34)
    );
}

#[tokio::test]
async fn the_spec_library_is_cached_and_read_offline_with_the_same_filters() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let library = Library::in_memory().unwrap();
    for input in [
        "A recipe sharing app",
        "A habit tracker",
        "Recipe planner for teams",
    ] {
        c.specs()
            .generate(&SpecSubmission::fast(input))
            .await
            .unwrap();
    }

    let all = specs::list_specs(&c, &library, "pro", &SpecQuery::default())
        .await
        .unwrap();
    assert_eq!((all.total, all.has_more, all.offline), (3, false, false));

    let found = specs::list_specs(
        &c,
        &library,
        "pro",
        &SpecQuery {
            search: Some("^recipe".into()),
            ..SpecQuery::default()
        },
    )
    .await
    .unwrap();
    let mut inputs: Vec<&str> = found.specs.iter().map(|s| s.input.as_str()).collect();
    inputs.sort();
    assert_eq!(
        inputs,
        ["A recipe sharing app", "Recipe planner for teams"][1..]
    );
    assert_eq!(found.total, 1);

    let bad = specs::list_specs(
        &c,
        &library,
        "pro",
        &SpecQuery {
            limit: Some(101),
            ..SpecQuery::default()
        },
    )
    .await
    .unwrap_err();
    assert_eq!(
        (bad.kind.clone(), bad.field.as_deref()),
        (IpcErrorKind::InvalidInput, Some("limit"))
    );

    sb.shutdown().await;
    let offline = specs::list_specs(
        &c,
        &library,
        "pro",
        &SpecQuery {
            limit: Some(2),
            search: Some("RECIPE".into()),
            endpoint: Some(SpecEndpoint::Fast),
            ..SpecQuery::default()
        },
    )
    .await
    .unwrap();
    assert!(offline.offline);
    assert_eq!((offline.total, offline.has_more), (2, false));
    let mut inputs: Vec<&str> = offline.specs.iter().map(|s| s.input.as_str()).collect();
    inputs.sort();
    assert_eq!(inputs, ["A recipe sharing app", "Recipe planner for teams"]);
    assert!(
        offline
            .specs
            .iter()
            .all(|s| s.status == SpecStatus::Completed)
    );

    let page2 = specs::list_specs(
        &c,
        &library,
        "pro",
        &SpecQuery {
            limit: Some(2),
            skip: Some(2),
            ..SpecQuery::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        (page2.total, page2.specs.len(), page2.has_more),
        (3, 1, false)
    );
}

#[tokio::test]
async fn a_spec_opens_with_its_documents_rendered_and_offline_later() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let library = Library::in_memory().unwrap();
    let accepted = c
        .specs()
        .submit(&SpecSubmission::fast("A recipe sharing app"))
        .await
        .unwrap();
    let id = accepted.spec_id;
    let spec = loop {
        let view = specs::get_spec(&c, &library, "pro", &id).await.unwrap();
        if view.spec.status == SpecStatus::Completed {
            break view;
        }
    };
    assert!(!spec.offline);
    assert!(spec.has_human_markdown && spec.has_agent_markdown);
    assert_eq!(spec.spec.human_spec_markdown, None);
    assert_eq!(spec.spec.coding_agent_spec_markdown, None);
    assert!(spec.spec.human_spec_json.is_some());

    let human = specs::render_spec(&c, &library, "pro", &id, SpecDoc::Human)
        .await
        .unwrap();
    let md = specs::spec_markdown(&c, &library, "pro", &id, SpecDoc::Human)
        .await
        .unwrap();
    let first_heading = md
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .unwrap()
        .to_owned();
    assert_eq!(human.toc[0].text, first_heading);
    assert_eq!(human.toc[0].level, 1);
    assert!(human.html.contains(&format!("id=\"{}\"", human.toc[0].id)));
    assert!(!human.html.contains("<script"));

    sb.shutdown().await;
    let offline = specs::get_spec(&c, &library, "pro", &id).await.unwrap();
    assert!(offline.offline);
    assert_eq!(offline.spec.status, SpecStatus::Completed);
    assert_eq!(offline.spec.human_spec_markdown, None);
    let again = specs::render_spec(&c, &library, "pro", &id, SpecDoc::CodingAgent)
        .await
        .unwrap();
    assert!(!again.toc.is_empty());

    let unknown = specs::get_spec(&c, &library, "pro", "ffffffffffffffffffffffff")
        .await
        .unwrap_err();
    assert_eq!(unknown.kind, IpcErrorKind::Network);
}

async fn advance(sb: &SandboxHandle, project_id: &str) {
    let resp = reqwest::Client::new()
        .post(format!(
            "{}/_sandbox/projects/{project_id}/advance",
            sb.base_url()
        ))
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success());
}

#[tokio::test]
async fn a_plan_keeps_a_snapshot_each_time_it_moves() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let library = Library::in_memory().unwrap();
    let bad = plans::get_plan(
        &c,
        &library,
        "pro",
        &PlanTarget {
            project_id: Some("12345".into()),
            spec_id: None,
        },
    )
    .await
    .unwrap_err();
    assert_eq!(
        (bad.kind.clone(), bad.field.as_deref()),
        (IpcErrorKind::InvalidInput, Some("projectId"))
    );

    let result = c
        .specs()
        .generate(&SpecSubmission::fast("A recipe sharing app"))
        .await
        .unwrap();
    let list = c
        .specs()
        .list(&specdesk_client::SpecListQuery::default())
        .await
        .unwrap();
    assert_eq!(result.input, list.specs[0].input);
    let by_spec = PlanTarget {
        spec_id: Some(list.specs[0].id.clone()),
        project_id: None,
    };
    let first = plans::get_plan(&c, &library, "pro", &by_spec)
        .await
        .unwrap();
    let plan = first.response.plan.clone().unwrap();
    assert!(first.changed);
    assert_eq!(first.history.len(), 1);
    assert_eq!((first.history[0].percent, first.history[0].built), (0, 0));
    assert_eq!(
        first.history[0].statuses.get("planned").copied(),
        Some(plan.features.len() as u32)
    );

    let same = plans::get_plan(&c, &library, "pro", &by_spec)
        .await
        .unwrap();
    assert!(!same.changed);
    assert_eq!(same.history.len(), 1);

    advance(&sb, &first.response.project_id).await;
    let by_project = PlanTarget {
        spec_id: None,
        project_id: Some(first.response.project_id.clone()),
    };
    let moved = plans::get_plan(&c, &library, "pro", &by_project)
        .await
        .unwrap();
    assert!(moved.changed);
    assert_eq!(moved.history.len(), 2);
    let now = moved.response.plan.unwrap();
    assert_eq!(moved.history[1].percent, now.progress.percent);
    assert_eq!(moved.history[1].built, now.progress.built);
    assert_ne!(moved.history[1].statuses, moved.history[0].statuses);

    // The project is remembered once for its connection, with its name and progress as last read.
    let recent = library.recent_projects("pro", 10).unwrap();
    assert_eq!(recent.len(), 1);
    assert_eq!(recent[0].project_id, first.response.project_id);
    assert_eq!(
        recent[0].spec_id.as_deref(),
        Some(list.specs[0].id.as_str())
    );
    assert_eq!(recent[0].name, now.name);
    assert_eq!(
        (recent[0].percent, recent[0].built, recent[0].total),
        (
            Some(now.progress.percent),
            Some(now.progress.built),
            Some(now.progress.total)
        )
    );
    assert!(library.recent_projects("org", 10).unwrap().is_empty());

    let md = plans::plan_markdown(&c, &by_project).await.unwrap();
    assert!(md.starts_with('#'), "{md}");
}

/// A sandbox, a client with the `pro` key, an empty library and a media folder for a studio.
struct StudioWorld {
    /// Kept running for the client.
    _sb: SandboxHandle,
    client: Client,
    library: Library,
    dir: tempfile::TempDir,
}

impl StudioWorld {
    async fn new() -> StudioWorld {
        let sb = sandbox().await;
        StudioWorld {
            client: client(&sb, keys::PRO),
            _sb: sb,
            library: Library::in_memory().unwrap(),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn studio(&self) -> Studio<'_> {
        Studio {
            client: &self.client,
            library: &self.library,
            profile_id: "pro",
            media_dir: self.dir.path(),
            estimate: 0.0,
        }
    }
}

/// A one-message chat request: "Name three pasta shapes".
fn pasta_question(model: &str) -> MessagesRequest {
    serde_json::from_value(serde_json::json!({
        "model": model,
        "max_tokens": 200,
        "messages": [{"role": "user", "content": "Name three pasta shapes"}]
    }))
    .unwrap()
}

/// A call's own charge is the ledger line it wrote: the same request id, credits and balance.
fn charged_as_ledger_says(charge: &Option<CallCharge>, line: &CreditEntry) {
    let charge = charge
        .as_ref()
        .expect("the sandbox meters every gateway call");
    assert!(charge.request_id.is_some());
    assert_eq!(charge.request_id, line.request_id);
    assert_eq!(charge.credits_charged, line.credits_charged);
    assert_eq!(charge.balance_after, line.credits_remaining);
}

#[tokio::test]
async fn gateway_calls_are_metered_saved_and_kept() {
    let w = StudioWorld::new().await;
    let (studio, library, c) = (w.studio(), &w.library, &w.client);

    let ranked = studio
        .rerank(&RerankRequest {
            model: "cohere/rerank-v3.5".into(),
            query: "fresh pasta".into(),
            documents: vec!["How to make fresh pasta".into(), "Tyre pressure".into()],
            top_n: None,
        })
        .await
        .unwrap();
    assert_eq!(ranked.value.results[0].index, 0);
    let ledger = library.credit_ledger(10).unwrap();
    assert_eq!(ledger[0].endpoint, "v1/rerank");
    assert!(ledger[0].credits_charged.unwrap() > 0.0);
    charged_as_ledger_says(&ranked.charge, &ledger[0]);

    let models = c.gateway().models().await.unwrap().value;
    let speaker = models
        .data
        .iter()
        .find(|m| m.id.ends_with("-audio-mini"))
        .unwrap()
        .id
        .clone();
    let audio = studio
        .speech(&SpeechRequest {
            model: speaker,
            input: "Welcome to Specdesk".into(),
            voice: None,
            response_format: None,
            instructions: None,
        })
        .await
        .unwrap();
    charged_as_ledger_says(&audio.charge, &library.credit_ledger(1).unwrap()[0]);
    let audio = audio.value;
    assert_eq!(audio.kind, MediaKind::Audio);
    assert!(audio.path.ends_with(".wav"));
    let bytes = std::fs::read(&audio.path).unwrap();
    assert_eq!(&bytes[..4], b"RIFF");
    let wav = w.dir.path().join("speech.wav");
    std::fs::write(&wav, &bytes).unwrap();
    let transcriber = models
        .data
        .iter()
        .find(|m| m.id.contains("transcribe"))
        .unwrap()
        .id
        .clone();
    let heard = studio.transcribe(&wav, &transcriber).await.unwrap();
    assert_eq!(heard.value.text, "Welcome to Specdesk");
    charged_as_ledger_says(&heard.charge, &library.credit_ledger(1).unwrap()[0]);
    let not_audio = studio
        .transcribe(Path::new("/notes.txt"), &transcriber)
        .await
        .unwrap_err();
    assert_eq!(not_audio.field.as_deref(), Some("file"));

    let images = studio
        .images(&ImageRequest {
            model: c.gateway().image_models().await.unwrap().value.data[0]
                .id
                .clone(),
            prompt: "a lighthouse".into(),
            n: Some(2),
            size: Some("64x32".into()),
        })
        .await
        .unwrap();
    charged_as_ledger_says(&images.charge, &library.credit_ledger(1).unwrap()[0]);
    let images = images.value;
    assert_eq!(images.len(), 2);
    assert!(images[0].credits.unwrap() > 0.0);
    assert_eq!(images[1].credits, None);
    let png = std::fs::read(&images[1].path).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // Each has its thumbnail (the image is small: as large as itself) and its size.
    for image in &images {
        assert_eq!((image.width, image.height), (Some(64), Some(32)));
        let thumb = std::fs::read(image.thumb_path.as_deref().unwrap()).unwrap();
        assert_eq!(&thumb[..2], &[0xff, 0xd8], "a JPEG");
        assert!(image.thumb_path.as_deref().unwrap().contains("thumbs"));
    }
    assert_eq!(library.media(None, None, 10, 0).unwrap().len(), 3);
}

#[tokio::test]
async fn a_chat_turn_is_streamed_kept_and_metered() {
    let w = StudioWorld::new().await;
    let (studio, library, c) = (w.studio(), &w.library, &w.client);
    let chat_model = c
        .gateway()
        .public_catalog()
        .await
        .unwrap()
        .data
        .iter()
        .find(|m| m.id.contains('/') && m.output.iter().any(|o| o == "text"))
        .unwrap()
        .id
        .clone();
    let request = pasta_question(&chat_model);
    let mut events = Vec::new();
    let reply = studio
        .chat_stream(None, &request, |e| events.push(e))
        .await
        .unwrap();
    let ChatEvent::Start { conversation_id } = events[0].clone() else {
        panic!("{:?}", events[0]);
    };
    let streamed: String = events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let whole = match &reply.message.content[0] {
        specdesk_types::ContentBlock::Text { text, .. } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(streamed, whole);
    assert!(
        matches!(events.last(), Some(ChatEvent::Done { conversation_id: id, .. }) if *id == conversation_id)
    );
    let kept = library.messages(conversation_id).unwrap();
    assert_eq!(
        kept.iter().map(|m| m.role.as_str()).collect::<Vec<_>>(),
        ["user", "assistant"]
    );
    // The turn's end says what its headers said: the request id kept with the reply, and the
    // balance after it (what the service shows now).
    let Some(ChatEvent::Done {
        request_id,
        balance_after,
        ..
    }) = events.last()
    else {
        unreachable!()
    };
    assert!(request_id.is_some());
    assert_eq!(request_id, &kept[1].request_id);
    let now = c
        .account()
        .credits_balance()
        .await
        .unwrap()
        .credits_remaining;
    assert_eq!(*balance_after, Some(now));
    // The command's answer says the same as its `done` event.
    assert_eq!(Some(&reply.done_event()), events.last());
    assert_eq!(
        library.conversation(conversation_id).unwrap().title,
        "Name three pasta shapes"
    );
}

#[test]
fn documents_never_replace_a_file_already_there() {
    let dir = tempfile::tempdir().unwrap();
    let a = save_document(dir.path(), "Recipe app: spec.md", "# One").unwrap();
    let b = save_document(dir.path(), "Recipe app: spec.md", "# Two").unwrap();
    assert_eq!(a, dir.path().join("Recipe app- spec.md"));
    assert_eq!(b, dir.path().join("Recipe app- spec (2).md"));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "# One");
    assert_eq!(std::fs::read_to_string(&b).unwrap(), "# Two");
    let e = save_document(dir.path(), " .. ", "x").unwrap_err();
    assert_eq!(e.field.as_deref(), Some("fileName"));
    // Only documents: any other kind of name is saved as Markdown.
    assert_eq!(
        save_document(dir.path(), "start.desktop", "x").unwrap(),
        dir.path().join("start.desktop.md")
    );
    assert_eq!(
        save_document(dir.path(), "notes.TXT", "x").unwrap(),
        dir.path().join("notes.TXT")
    );
    assert_eq!(
        save_document(dir.path(), "plan", "x").unwrap(),
        dir.path().join("plan.md")
    );
}
