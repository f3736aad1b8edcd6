//! Bad input is refused before any request: the mock server receives nothing, and each refusal
//! names its field with a specific, plain message.

mod common;

use bytes::Bytes;
use common::batches::task;
use common::*;
use futures::StreamExt;
use pretty_assertions::assert_eq;
use serde_json::json;
use specdesk_client::types::{
    BrowserTask, ImageRequest, MessagesRequest, RerankRequest, VideoRequest,
};
use specdesk_client::{
    AudioUpload, BatchOptions, Client, ClientConfig, Error, ErrorKind, FileUpload, PlanRef,
    SpecListQuery, SpecSubmission, task_problems, validate_base_url,
};
use wiremock::MockServer;

/// The field and message of a local refusal.
fn refusal(result: Result<impl std::fmt::Debug, Error>) -> (String, String) {
    match result {
        Err(Error::InvalidInput { field, message }) => {
            assert!(!message.contains(KEY));
            (field, message)
        }
        other => panic!("expected a local refusal, got {other:?}"),
    }
}

fn refused_field(result: Result<impl std::fmt::Debug, Error>) -> String {
    refusal(result).0
}

async fn nothing_sent(server: &MockServer) {
    assert!(
        received(server).await.is_empty(),
        "a request reached the server"
    );
}

#[tokio::test]
async fn page_bounds_of_list_find_and_batches() {
    let server = MockServer::start().await;
    let c = client(&server);
    for (limit, skip, field) in [
        (Some(0), None, "limit"),
        (Some(101), None, "limit"),
        (Some(-5), None, "limit"),
        (None, Some(-1), "skip"),
    ] {
        for search in [None, Some("kanban".to_owned())] {
            let q = SpecListQuery {
                limit,
                skip,
                search,
                ..Default::default()
            };
            assert_eq!(refused_field(c.specs().list(&q).await), field);
            let first = c.specs().list_all(q).boxed().next().await.unwrap();
            assert_eq!(refused_field(first), field);
        }
        assert_eq!(
            refused_field(c.agents().list(limit, skip, None).await),
            field
        );
    }
    assert_eq!(
        refusal(c.agents().list(Some(101), None, None).await).1,
        "The page size must be between 1 and 100 (it was 101)."
    );
    assert_eq!(
        refusal(c.agents().list(None, Some(-1), None).await).1,
        "The number of items to skip cannot be negative (it was -1)."
    );
    nothing_sent(&server).await;
}

#[tokio::test]
async fn find_specs_pattern_must_be_a_valid_regex() {
    let server = MockServer::start().await;
    let c = client(&server);
    for bad in ["app(", "[a-", "*todo", "(?<=a+)b(", ""] {
        let q = SpecListQuery {
            search: Some(bad.into()),
            ..Default::default()
        };
        assert_eq!(refused_field(c.specs().list(&q).await), "query", "{bad:?}");
    }
    let (_, message) = refusal(
        c.specs()
            .list(&SpecListQuery {
                search: Some("app(".into()),
                ..Default::default()
            })
            .await,
    );
    assert!(
        message.starts_with("\"app(\" is not a valid search pattern ("),
        "{message}"
    );
    assert!(
        message.ends_with(
            "Characters such as ( [ * + ? need a \\ before them to be searched literally."
        ),
        "{message}"
    );
    nothing_sent(&server).await;
}

#[tokio::test]
async fn ids_must_be_24_hex_characters() {
    let server = MockServer::start().await;
    let c = client(&server);
    let bad_ids = [
        "",
        "6650f1c2a9b3e4d5f6a7b8c",
        "6650f1c2a9b3e4d5f6a7b8c90",
        "6650f1c2a9b3e4d5f6a7b8cg",
        "6650f1c2a9b3e4d5f6a7b8c/",
        " 6650f1c2a9b3e4d5f6a7b8c",
    ];
    for id in bad_ids {
        assert_eq!(refused_field(c.specs().status(id).await), "specId");
        assert_eq!(refused_field(c.specs().status_api(id).await), "specId");
        let first = c.specs().wait_for_spec(id).boxed().next().await.unwrap();
        assert_eq!(refused_field(first), "specId");
        assert_eq!(
            refused_field(c.plans().get(&PlanRef::Spec(id.into())).await),
            "specId"
        );
        assert_eq!(
            refused_field(c.plans().markdown(&PlanRef::Project(id.into())).await),
            "projectId"
        );
    }
    assert_eq!(
        refusal(c.plans().get(&PlanRef::Project("xyz".into())).await).1,
        "A project id is 24 characters, each 0-9 or a-f; \"xyz\" is not one. Copy it again from where you found it."
    );
    nothing_sent(&server).await;
}

#[test]
fn plan_ref_needs_exactly_one_id() {
    assert_eq!(
        refusal(PlanRef::from_ids(Some(SPEC_ID), Some(PROJECT_ID))),
        (
            "projectId".to_owned(),
            "Give either a spec id or a project id, not both.".to_owned()
        )
    );
    for (spec, project) in [(None, None), (Some(""), Some("  ")), (None, Some(""))] {
        assert_eq!(
            refusal(PlanRef::from_ids(spec, project)).1,
            "Give a spec id or a project id to open its plan."
        );
    }
}

#[tokio::test]
async fn batch_submissions() {
    let server = MockServer::start().await;
    let c = client(&server);
    let agents = c.agents();
    let ok = BatchOptions::default();

    assert_eq!(
        refusal(agents.prepare(vec![], ok.clone())),
        (
            "tasks".to_owned(),
            "Add at least one task to run.".to_owned()
        )
    );
    assert_eq!(
        refusal(agents.prepare(vec![task("https://example.com"); 1001], ok.clone())).1,
        "A batch can hold at most 1000 tasks; this one has 1001. Split it into smaller batches."
    );
    assert!(
        agents
            .prepare(vec![task("https://example.com"); 1000], ok.clone())
            .is_ok()
    );
    for bad in [
        "",
        "   ",
        "example.com",
        "/products/1",
        "ftp://example.com/file",
        "javascript:alert(1)",
        "https://",
        "mailto:a@b.c",
    ] {
        let tasks = vec![task("https://example.com"), task(bad)];
        assert_eq!(
            refused_field(agents.prepare(tasks, ok.clone())),
            "tasks[1].url",
            "{bad:?}"
        );
    }
    assert_eq!(
        refusal(agents.prepare(vec![task("example.com")], ok.clone())).1,
        "Task 1: \"example.com\" is not a full web address. Start it with https:// or http://."
    );
    assert_eq!(
        refusal(agents.prepare(vec![task("")], ok.clone())).1,
        "Task 1 has no start address. Enter the page it starts on."
    );
    for concurrency in [0, 21, 1000] {
        let options = BatchOptions {
            concurrency: Some(concurrency),
            ..Default::default()
        };
        assert_eq!(
            refusal(agents.prepare(vec![task("https://example.com")], options)),
            (
                "concurrency".to_owned(),
                format!("Tasks at once must be between 1 and 20 (it was {concurrency}).")
            )
        );
    }
    for concurrency in [1, 20] {
        let options = BatchOptions {
            concurrency: Some(concurrency),
            ..Default::default()
        };
        assert!(
            agents
                .prepare(vec![task("http://127.0.0.1:3000/")], options)
                .is_ok()
        );
    }
    let schema_not_object = BrowserTask {
        output: Some(json!("price")),
        ..task("https://example.com")
    };
    assert_eq!(
        refused_field(agents.prepare(vec![schema_not_object], ok.clone())),
        "tasks[0].output"
    );
    // An object that is no JSON Schema: refused with what is wrong, before anything is sent.
    let bad_schema = BrowserTask {
        output: Some(json!({"type": "object", "properties": {"price": {"type": "money"}}})),
        ..task("https://example.com")
    };
    let refused = agents
        .prepare(vec![task("https://example.com"), bad_schema], ok.clone())
        .unwrap_err();
    assert_eq!(refused.kind(), specdesk_client::ErrorKind::InvalidInput);
    let message = refused.to_string();
    assert!(
        message.starts_with("Task 2: the output schema is not a valid JSON Schema ("),
        "{message}"
    );
    assert!(message.contains("money"), "{message}");
    let good_schema = BrowserTask {
        output: Some(json!({"type": "object", "required": ["price"],
            "properties": {"price": {"type": "number"}, "url": {"type": "string", "format": "uri"}}})),
        ..task("https://example.com")
    };
    assert!(agents.prepare(vec![good_schema], ok.clone()).is_ok());
    for key in ["", "   ", &"k".repeat(256)] {
        let options = BatchOptions {
            idempotency_key: Some(key.to_owned()),
            ..Default::default()
        };
        assert_eq!(
            refused_field(agents.prepare(vec![task("https://example.com")], options)),
            "idempotencyKey"
        );
    }
    for id in ["", "a/b", "../x", "id?x=1", " id"] {
        assert_eq!(refused_field(agents.get(id, true).await), "batchId");
        let first = agents.follow_batch(id).boxed().next().await.unwrap();
        assert_eq!(refused_field(first), "batchId");
    }
    nothing_sent(&server).await;
}

/// The batch builder shows every problem at once, each in its row: all of them, in order, with
/// the words `prepare` refuses with.
#[test]
fn every_problem_of_a_draft_batch_at_once() {
    let tasks = vec![
        task("https://example.com"),
        BrowserTask {
            timeout_ms: Some(0),
            max_steps: Some(0),
            ..task("example.com")
        },
        BrowserTask {
            output: Some(json!({"type": "money"})),
            max_duration_seconds: Some(0),
            ..task("")
        },
    ];
    let options = BatchOptions {
        concurrency: Some(21),
        ..Default::default()
    };
    let problems: Vec<(String, String)> = task_problems(&tasks, &options)
        .into_iter()
        .map(|e| match e {
            Error::InvalidInput { field, message } => (field, message),
            other => panic!("not an input problem: {other:?}"),
        })
        .collect();
    let fields: Vec<&str> = problems.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(
        fields,
        [
            "tasks[1].url",
            "tasks[1].timeoutMs",
            "tasks[1].maxSteps",
            "tasks[2].url",
            "tasks[2].output",
            "tasks[2].maxDurationSeconds",
            "concurrency",
        ]
    );
    assert_eq!(problems[2].1, "Task 2: the step limit must be at least 1.");
    assert_eq!(
        problems[5].1,
        "Task 3: the duration limit must be at least 1 second."
    );
    assert!(
        problems[4]
            .1
            .starts_with("Task 3: the output schema is not a valid JSON Schema ("),
        "{}",
        problems[4].1
    );
    assert!(task_problems(&[task("https://example.com")], &BatchOptions::default()).is_empty());
}

#[tokio::test]
async fn spec_submissions() {
    let server = MockServer::start().await;
    let c = client(&server);
    for input in ["", "  \n\t"] {
        assert_eq!(
            refusal(c.specs().generate(&SpecSubmission::fast(input)).await),
            (
                "input".to_owned(),
                "Describe what you want to build, or attach a file that describes it.".to_owned()
            )
        );
        assert_eq!(
            refused_field(c.specs().submit(&SpecSubmission::deep(input)).await),
            "input"
        );
    }
    let empty_file = SpecSubmission {
        file: Some(FileUpload {
            file_name: "brief.md".into(),
            mime: "text/markdown".into(),
            bytes: Bytes::new(),
        }),
        ..SpecSubmission::fast("")
    };
    assert_eq!(
        refusal(c.specs().generate(&empty_file).await).1,
        "The file \"brief.md\" is empty. Choose another file."
    );
    let bad_docs = SpecSubmission {
        doc_urls: vec!["https://ok.example".into(), "docs.example.com".into()],
        ..SpecSubmission::fast("x")
    };
    assert_eq!(
        refused_field(c.specs().submit(&bad_docs).await),
        "docURLs[1]"
    );
    nothing_sent(&server).await;
}

fn messages(v: serde_json::Value) -> MessagesRequest {
    serde_json::from_value(v).unwrap()
}

#[tokio::test]
async fn gateway_requests() {
    let server = MockServer::start().await;
    let c = client(&server);
    let g = c.gateway();
    let rerank = |documents: Vec<String>, top_n| RerankRequest {
        model: "cohere/rerank-v3.5".into(),
        query: "q".into(),
        documents,
        top_n,
    };
    assert_eq!(
        refusal(g.rerank(&rerank(vec![], None)).await),
        (
            "documents".to_owned(),
            "Add at least one document to rank.".to_owned()
        )
    );
    assert_eq!(
        refused_field(g.rerank(&rerank(vec!["d".into()], Some(0))).await),
        "top_n"
    );
    assert_eq!(
        refused_field(
            g.rerank(&RerankRequest {
                model: " ".into(),
                ..rerank(vec!["d".into()], None)
            })
            .await
        ),
        "model"
    );
    assert_eq!(
        refused_field(
            g.messages(&messages(
                json!({"model": "a/b", "max_tokens": 10, "messages": []})
            ))
            .await
        ),
        "messages"
    );
    let zero_tokens = messages(json!({
        "model": "a/b", "max_tokens": 0, "messages": [{"role": "user", "content": "hi"}]
    }));
    assert_eq!(refused_field(g.messages(&zero_tokens).await), "max_tokens");
    assert!(matches!(
        g.messages_stream(&zero_tokens).await,
        Err(Error::InvalidInput { .. })
    ));
    let image = |n, size: Option<&str>| ImageRequest {
        model: "openai/gpt-image-1".into(),
        prompt: "fox".into(),
        n,
        size: size.map(str::to_owned),
    };
    assert_eq!(refused_field(g.images(&image(Some(0), None)).await), "n");
    for size in ["512", "0x512", "ax512", "512x"] {
        assert_eq!(
            refused_field(g.images(&image(None, Some(size))).await),
            "size"
        );
    }
    let video = |seconds: &str| VideoRequest {
        model: "openai/sora-2".into(),
        prompt: "cat".into(),
        seconds: Some(seconds.into()),
        size: None,
    };
    for seconds in ["0", "-4", "four"] {
        assert_eq!(
            refused_field(g.create_video(&video(seconds)).await),
            "seconds"
        );
    }
    for id in ["", "a/b", "x#y"] {
        assert_eq!(refused_field(g.video(id).await), "jobId");
        assert_eq!(refused_field(g.video_content(id).await), "jobId");
        let first = g.wait_for_video(id).boxed().next().await.unwrap();
        assert_eq!(refused_field(first), "jobId");
    }
    let empty_audio = AudioUpload {
        file_name: "a.wav".into(),
        mime: "audio/wav".into(),
        bytes: Bytes::new(),
    };
    assert_eq!(
        refused_field(g.transcribe("openai/gpt-4o-transcribe", &empty_audio).await),
        "file"
    );
    nothing_sent(&server).await;
}

#[test]
fn plain_http_only_to_loopback() {
    for bad in [
        "http://api.example.com",
        "http://10.0.0.5:8787",
        "http://192.168.1.10",
        "http://localhost.example.com",
        "http://127.0.0.1.nip.io",
    ] {
        let err = ClientConfig::new(bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput, "{bad}");
        assert_eq!(
            refusal(validate_base_url(bad)),
            (
                "baseUrl".to_owned(),
                "The address must start with https:// so your API key is never sent in clear. Plain http:// is allowed only for this computer (localhost).".to_owned()
            )
        );
    }
    for ok in [
        "https://api.example.com",
        "http://127.0.0.1:8787",
        "http://localhost:1",
        "http://[::1]:9",
    ] {
        assert!(ClientConfig::new(ok).is_ok(), "{ok}");
    }
    // The base keeps its path: calls go under it.
    assert_eq!(
        ClientConfig::new("https://example.com/svc")
            .unwrap()
            .base_url()
            .as_str(),
        "https://example.com/svc/"
    );
}

#[tokio::test]
async fn a_base_url_with_a_path_prefixes_every_call() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/svc/credits-balance"))
        .respond_with(ResponseTemplate::new(200).set_body_json(fixture("specs/credits-balance")))
        .expect(1)
        .mount(&server)
        .await;
    let mut cfg = ClientConfig::new(&format!("{}/svc", server.uri()))
        .unwrap()
        .with_api_key(KEY.to_owned());
    cfg.connect_timeout = None;
    Client::new(cfg)
        .unwrap()
        .account()
        .credits_balance()
        .await
        .unwrap();
}
