//! Spec generation, status, list/find (with the pager) and the credits balance against wiremock:
//! exact method, path, query, headers and bodies.

mod common;

use std::time::Duration;

use bytes::Bytes;
use common::*;
use futures::{StreamExt, TryStreamExt};
use pretty_assertions::assert_eq;
use serde_json::json;
use specdesk_client::types::{
    CreditsBalance, SpecAccepted, SpecEndpoint, SpecRecord, SpecResult, SpecStatus,
    SpecStatusResponse,
};
use specdesk_client::{FileUpload, SpecListQuery, SpecSubmission};
use wiremock::matchers::{body_json, header, method, path, query_param};
use wiremock::{Mock, MockServer};

fn record(n: usize) -> serde_json::Value {
    json!({
        "_id": format!("6650f1c2a9b3e4d5f6a7b{n:03x}"),
        "created": format!("2026-11-2{}T09:00:00.000Z", n % 10),
        "endpoint": if n.is_multiple_of(2) { "fast_spec" } else { "deep_spec" },
        "input": format!("Spec number {n}"),
        "status": "completed",
        "success": true,
        "humanSpecUrl": format!("https://svc.example/s/{n}/human.md"),
        "totalHumanHours": 10 + n,
    })
}

#[tokio::test]
async fn fast_spec_sync_sends_exact_json_and_decodes_the_result() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/fast-spec"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .and(header("content-type", "application/json"))
        .and(body_json(
            json!({"input": "A habit tracker with streaks", "async": false}),
        ))
        .respond_with(json(fixture("specs/spec-result-fast")))
        .expect(1)
        .mount(&server)
        .await;

    let result = client(&server)
        .specs()
        .generate(&SpecSubmission::fast("A habit tracker with streaks"))
        .await
        .unwrap();
    assert_eq!(result, fixture_as::<SpecResult>("specs/spec-result-fast"));
    assert_eq!(result.endpoint, SpecEndpoint::Fast);
    assert_eq!(result.credits_used, Some(7.5));
    assert_eq!(result.zipped_docs_urls[0].platform, "docs.example.com");
    let reqs = received(&server).await;
    assert_eq!(reqs.len(), 1);
    assert_eq!(common::header(&reqs[0], "x-svc-project-id"), None);
}

#[tokio::test]
async fn deep_spec_async_json_carries_context_and_doc_urls() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/deep-spec"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .and(body_json(json!({
            "input": "Add team workspaces",
            "currentContext": "An existing Next.js habit tracker",
            "docURLs": ["https://nextjs.org/docs", "https://stripe.com/docs/api"],
            "async": true
        })))
        .respond_with(json(fixture("specs/spec-accepted")))
        .expect(1)
        .mount(&server)
        .await;

    let submission = SpecSubmission {
        current_context: Some("An existing Next.js habit tracker".into()),
        doc_urls: vec![
            "https://nextjs.org/docs".into(),
            " https://stripe.com/docs/api ".into(),
        ],
        ..SpecSubmission::deep("Add team workspaces")
    };
    let accepted = client(&server).specs().submit(&submission).await.unwrap();
    assert_eq!(
        accepted,
        SpecAccepted {
            spec_id: SPEC_ID.into(),
            status: SpecStatus::Pending
        }
    );
}

#[tokio::test]
async fn blank_context_and_no_doc_urls_are_left_out() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/fast-spec"))
        .and(body_json(json!({"input": "x", "async": true})))
        .respond_with(json(fixture("specs/spec-accepted")))
        .expect(1)
        .mount(&server)
        .await;
    let submission = SpecSubmission {
        current_context: Some("   ".into()),
        ..SpecSubmission::fast("x")
    };
    client(&server).specs().submit(&submission).await.unwrap();
}

#[tokio::test]
async fn fast_spec_multipart_sends_file_input_context_doc_urls_and_async() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/fast-spec"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(fixture("specs/spec-result-fast")))
        .expect(1)
        .mount(&server)
        .await;

    let file_bytes =
        Bytes::from_static(b"# Brief\r\n\r\n--not-a-boundary\r\nHabits \xe2\x9c\x93\n");
    let submission = SpecSubmission {
        current_context: Some("Existing app".into()),
        doc_urls: vec![
            "https://docs.example.com/a".into(),
            "https://b.example.org".into(),
        ],
        file: Some(FileUpload {
            file_name: "brief.md".into(),
            mime: "text/markdown".into(),
            bytes: file_bytes.clone(),
        }),
        ..SpecSubmission::fast("Build from the brief")
    };
    client(&server).specs().generate(&submission).await.unwrap();

    let reqs = received(&server).await;
    assert_eq!(reqs.len(), 1);
    let parts = multipart(&reqs[0]);
    assert_eq!(
        parts,
        vec![
            Part {
                name: "file".into(),
                file_name: Some("brief.md".into()),
                content_type: Some("text/markdown".into()),
                body: file_bytes.to_vec(),
            },
            Part {
                name: "input".into(),
                file_name: None,
                content_type: None,
                body: b"Build from the brief".to_vec(),
            },
            Part {
                name: "currentContext".into(),
                file_name: None,
                content_type: None,
                body: b"Existing app".to_vec(),
            },
            Part {
                name: "docURLs".into(),
                file_name: None,
                content_type: None,
                body: br#"["https://docs.example.com/a","https://b.example.org"]"#.to_vec(),
            },
            Part {
                name: "async".into(),
                file_name: None,
                content_type: None,
                body: b"false".to_vec(),
            },
        ]
    );
    // docURLs is a JSON array in a text field.
    let urls: Vec<String> = serde_json::from_str(parts[3].text()).unwrap();
    assert_eq!(
        urls,
        ["https://docs.example.com/a", "https://b.example.org"]
    );
}

#[tokio::test]
async fn deep_spec_multipart_async_with_only_a_file() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/deep-spec"))
        .respond_with(json(fixture("specs/spec-accepted")))
        .expect(1)
        .mount(&server)
        .await;

    let pdf = Bytes::from_static(b"%PDF-1.7\n\x00\x01\x02\xff binary");
    let submission = SpecSubmission {
        file: Some(FileUpload {
            file_name: "brief.pdf".into(),
            mime: "application/pdf".into(),
            bytes: pdf.clone(),
        }),
        ..SpecSubmission::deep("")
    };
    let accepted = client(&server).specs().submit(&submission).await.unwrap();
    assert_eq!(accepted.spec_id, SPEC_ID);

    let reqs = received(&server).await;
    let parts = multipart(&reqs[0]);
    type Summary<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a [u8]);
    let summary: Vec<Summary<'_>> = parts
        .iter()
        .map(|p| {
            (
                p.name.as_str(),
                p.file_name.as_deref(),
                p.content_type.as_deref(),
                p.body.as_slice(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("file", Some("brief.pdf"), Some("application/pdf"), &pdf[..]),
            ("input", None, None, &b""[..]),
            ("async", None, None, &b"true"[..]),
        ]
    );
}

#[tokio::test]
async fn spec_status_on_both_paths() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(format!("/spec-status/{SPEC_ID}")))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(fixture("specs/spec-status-processing")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/api/spec-status/{SPEC_ID}")))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(fixture("specs/spec-status-completed")))
        .expect(1)
        .mount(&server)
        .await;

    let c = client(&server);
    let plain = c.specs().status(SPEC_ID).await.unwrap();
    assert_eq!(
        plain,
        fixture_as::<SpecStatusResponse>("specs/spec-status-processing")
    );
    assert_eq!(plain.status, SpecStatus::Processing);
    assert_eq!(
        plain.progress.as_deref(),
        Some("Drafting milestones (2 of 5)")
    );
    let api = c.specs().status_api(SPEC_ID).await.unwrap();
    assert_eq!(api.status, SpecStatus::Completed);
    assert_eq!(api.project_id.as_deref(), Some(PROJECT_ID));
    for req in received(&server).await {
        assert_eq!(raw_query(&req), "");
        assert!(req.body.is_empty());
    }
}

#[tokio::test(start_paused = true)]
async fn wait_for_spec_polls_at_the_configured_interval_until_terminal() {
    let server = MockServer::start().await;
    for name in ["pending", "processing"] {
        Mock::given(method("GET"))
            .and(path(format!("/spec-status/{SPEC_ID}")))
            .respond_with(json(fixture(&format!("specs/spec-status-{name}"))))
            .up_to_n_times(1)
            .expect(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path(format!("/spec-status/{SPEC_ID}")))
        .respond_with(json(fixture("specs/spec-status-failed")))
        .expect(1)
        .mount(&server)
        .await;

    // Jitter is zero in the test config, so the interval is exact: 12.5 s by default.
    let c = client(&server);
    let started = tokio::time::Instant::now();
    let seen: Vec<SpecStatus> = c
        .specs()
        .wait_for_spec(SPEC_ID)
        .map_ok(|s| s.status)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        seen,
        [
            SpecStatus::Pending,
            SpecStatus::Processing,
            SpecStatus::Failed
        ]
    );
    assert_eq!(started.elapsed(), Duration::from_millis(25_000));
}

#[tokio::test(start_paused = true)]
async fn wait_for_spec_every_keeps_jitter_within_bounds() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(format!("/spec-status/{SPEC_ID}")))
        .respond_with(json(fixture("specs/spec-status-processing")))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path(format!("/spec-status/{SPEC_ID}")))
        .respond_with(json(fixture("specs/spec-status-completed")))
        .mount(&server)
        .await;
    let c = client(&server);
    let started = tokio::time::Instant::now();
    let all: Vec<_> = c
        .specs()
        .wait_for_spec_every(SPEC_ID, Duration::from_secs(10), Duration::from_secs(2))
        .collect()
        .await;
    assert_eq!(all.len(), 2);
    let waited = started.elapsed();
    assert!(
        (Duration::from_secs(8)..=Duration::from_secs(12)).contains(&waited),
        "{waited:?}"
    );
}

#[tokio::test]
async fn list_specs_sends_every_filter_in_the_query() {
    let server = MockServer::start().await;
    let page = json!({"specs": [record(1), record(2)], "total": 42, "hasMore": true});
    Mock::given(method("GET"))
        .and(path("/list-specs"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(page.clone()))
        .expect(2)
        .mount(&server)
        .await;

    let c = client(&server);
    let list = c
        .specs()
        .list(&SpecListQuery {
            limit: Some(10),
            skip: Some(20),
            endpoint: Some(SpecEndpoint::Deep),
            status: Some(SpecStatus::Completed),
            search: None,
        })
        .await
        .unwrap();
    assert_eq!(list.total, 42);
    assert!(list.has_more);
    assert_eq!(
        list.specs[0],
        serde_json::from_value::<SpecRecord>(record(1)).unwrap()
    );
    c.specs().list(&SpecListQuery::default()).await.unwrap();

    let reqs = received(&server).await;
    assert_eq!(
        raw_query(&reqs[0]),
        "limit=10&skip=20&endpoint=deep_spec&status=completed"
    );
    assert_eq!(reqs[1].url.query(), None, "no filter, no query string");
}

#[tokio::test]
async fn find_specs_url_encodes_the_pattern() {
    let server = MockServer::start().await;
    let page = json!({"specs": [record(3)], "total": 1, "hasMore": false});
    Mock::given(method("GET"))
        .and(path("/find-specs"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .and(query_param("query", "a+b (c)"))
        .respond_with(json(page.clone()))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/find-specs"))
        .and(query_param("query", "^todo|kanban$ & café #1?"))
        .respond_with(json(page))
        .expect(1)
        .mount(&server)
        .await;

    let c = client(&server);
    let found = c
        .specs()
        .list(&SpecListQuery {
            search: Some("a+b (c)".into()),
            limit: Some(5),
            status: Some(SpecStatus::Failed),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(found.specs.len(), 1);
    c.specs()
        .list(&SpecListQuery {
            search: Some("^todo|kanban$ & café #1?".into()),
            ..Default::default()
        })
        .await
        .unwrap();

    let reqs = received(&server).await;
    // `+` is escaped, a space is `+` (application/x-www-form-urlencoded), brackets escaped.
    assert_eq!(
        raw_query(&reqs[0]),
        "query=a%2Bb+%28c%29&limit=5&status=failed"
    );
    assert_eq!(
        raw_query(&reqs[1]),
        "query=%5Etodo%7Ckanban%24+%26+caf%C3%A9+%231%3F"
    );
}

#[tokio::test]
async fn list_all_follows_has_more_across_pages() {
    let server = MockServer::start().await;
    let pages = [
        (
            "0",
            json!({"specs": [record(0), record(1)], "total": 5, "hasMore": true}),
        ),
        (
            "2",
            json!({"specs": [record(2), record(3)], "total": 5, "hasMore": true}),
        ),
        (
            "4",
            json!({"specs": [record(4)], "total": 5, "hasMore": false}),
        ),
    ];
    for (skip, page) in pages {
        Mock::given(method("GET"))
            .and(path("/list-specs"))
            .and(query_param("skip", skip))
            .and(query_param("limit", "2"))
            .and(query_param("status", "completed"))
            .respond_with(json(page))
            .expect(1)
            .mount(&server)
            .await;
    }

    let c = client(&server);
    let all: Vec<SpecRecord> = c
        .specs()
        .list_all(SpecListQuery {
            limit: Some(2),
            status: Some(SpecStatus::Completed),
            ..Default::default()
        })
        .try_collect()
        .await
        .unwrap();
    let ids: Vec<String> = all.iter().map(|r| r.input.clone()).collect();
    assert_eq!(
        ids,
        [
            "Spec number 0",
            "Spec number 1",
            "Spec number 2",
            "Spec number 3",
            "Spec number 4"
        ]
    );
    let queries: Vec<String> = received(&server)
        .await
        .iter()
        .map(|r| raw_query(r).to_owned())
        .collect();
    assert_eq!(
        queries,
        [
            "limit=2&skip=0&status=completed",
            "limit=2&skip=2&status=completed",
            "limit=2&skip=4&status=completed"
        ]
    );
}

#[tokio::test]
async fn list_all_over_find_specs_starts_at_the_given_skip() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/find-specs"))
        .and(query_param("skip", "10"))
        .respond_with(json(
            json!({"specs": [record(10)], "total": 12, "hasMore": true}),
        ))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/find-specs"))
        .and(query_param("skip", "11"))
        .respond_with(json(json!({"specs": [], "total": 12, "hasMore": true})))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(&server);
    let all: Vec<SpecRecord> = c
        .specs()
        .list_all(SpecListQuery {
            skip: Some(10),
            search: Some("kanban".into()),
            ..Default::default()
        })
        .try_collect()
        .await
        .unwrap();
    // An empty page ends the walk even if the service says there is more.
    assert_eq!(all.len(), 1);
    let reqs = received(&server).await;
    assert_eq!(raw_query(&reqs[0]), "query=kanban&skip=10");
    assert_eq!(raw_query(&reqs[1]), "query=kanban&skip=11");
}

#[tokio::test]
async fn list_all_stops_at_the_first_error() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/list-specs"))
        .and(query_param("skip", "0"))
        .respond_with(json(
            json!({"specs": [record(0)], "total": 3, "hasMore": true}),
        ))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/list-specs"))
        .and(query_param("skip", "1"))
        .respond_with(json_status(
            401,
            json!({"error": "Authentication failed", "message": "Invalid API key"}),
        ))
        .mount(&server)
        .await;
    let c = client(&server);
    let items: Vec<_> = c.specs().list_all(SpecListQuery::default()).collect().await;
    assert_eq!(items.len(), 2);
    assert!(items[0].is_ok());
    assert_eq!(
        items[1].as_ref().unwrap_err().kind(),
        specdesk_client::ErrorKind::InvalidKey
    );
}

#[tokio::test]
async fn credits_balance_is_a_plain_authenticated_get() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/credits-balance"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(fixture("specs/credits-balance")))
        .expect(1)
        .mount(&server)
        .await;
    let balance = client(&server).account().credits_balance().await.unwrap();
    assert_eq!(
        balance,
        CreditsBalance {
            success: true,
            credits_remaining: 987.5
        }
    );
    let reqs = received(&server).await;
    assert_eq!(reqs[0].url.query(), None);
    assert!(reqs[0].body.is_empty());
    assert_eq!(common::header(&reqs[0], "content-type"), None);
}
