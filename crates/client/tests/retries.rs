//! Retries only where the spec says it is safe, timed with tokio's paused clock: `Retry-After`
//! honoured exactly, charged POSTs never repeated, bounded attempts and total time; and the
//! gateway's client-side rate limiter.

mod common;

use std::time::Duration;

use common::batches::task;
use common::*;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use specdesk_client::types::{BrowserTask, MessagesRequest, RerankRequest};
use specdesk_client::{
    BatchOptions, Client, ErrorKind, FileUpload, PlanRef, RetryPolicy, SpecSubmission,
};
use tokio::time::Instant;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn policy() -> RetryPolicy {
    RetryPolicy {
        max_retries: 3,
        min_delay: Duration::from_secs(1),
        max_delay: Duration::from_secs(30),
        max_elapsed: Duration::from_secs(120),
    }
}

fn gateway_error(status: u16, code: &str) -> ResponseTemplate {
    json_status(
        status,
        json!({"error": {"message": code, "type": "server_error", "code": code, "param": null, "svc": {}}}),
    )
}

fn rerank() -> RerankRequest {
    RerankRequest {
        model: "cohere/rerank-v3.5".into(),
        query: "q".into(),
        documents: vec!["d".into()],
        top_n: None,
    }
}

fn rerank_ok() -> ResponseTemplate {
    json(fixture("gateway/rerank-result"))
}

/// Serves `failures` in order (each once), then `success` for every later request.
async fn script(
    server: &MockServer,
    verb: &str,
    route: &str,
    failures: Vec<ResponseTemplate>,
    success: ResponseTemplate,
) {
    for failure in failures {
        Mock::given(method(verb))
            .and(path(route))
            .respond_with(failure)
            .up_to_n_times(1)
            .mount(server)
            .await;
    }
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(success)
        .mount(server)
        .await;
}

async fn count(server: &MockServer) -> usize {
    received(server).await.len()
}

#[tokio::test(start_paused = true)]
async fn retry_after_on_429_is_honoured_exactly() {
    let server = MockServer::start().await;
    script(
        &server,
        "POST",
        "/v1/rerank",
        vec![gateway_error(429, "rate_limit_exceeded").insert_header("retry-after", "7")],
        rerank_ok(),
    )
    .await;
    let c = client_with_retry(&server, policy());
    let started = Instant::now();
    c.gateway().rerank(&rerank()).await.unwrap();
    assert_eq!(started.elapsed(), Duration::from_secs(7));
    assert_eq!(count(&server).await, 2);
}

#[tokio::test(start_paused = true)]
async fn retry_after_in_fractions_and_in_sequence() {
    let server = MockServer::start().await;
    script(
        &server,
        "POST",
        "/v1/rerank",
        vec![
            gateway_error(429, "rate_limit_exceeded").insert_header("retry-after", "1.5"),
            gateway_error(503, "balance_unavailable").insert_header("retry-after", "4"),
        ],
        rerank_ok(),
    )
    .await;
    let c = client_with_retry(&server, policy());
    let started = Instant::now();
    c.gateway().rerank(&rerank()).await.unwrap();
    assert_eq!(started.elapsed(), Duration::from_millis(5_500));
    assert_eq!(count(&server).await, 3);
}

#[tokio::test(start_paused = true)]
async fn posts_refused_with_429_or_503_are_retried_because_nothing_was_done() {
    for status in [429, 503] {
        let server = MockServer::start().await;
        script(
            &server,
            "POST",
            "/fast-spec",
            vec![
                json_status(status, json!({"error": "Busy", "message": "Try later"}))
                    .insert_header("retry-after", "3"),
            ],
            json(fixture("specs/spec-accepted")),
        )
        .await;
        let c = client_with_retry(&server, policy());
        let started = Instant::now();
        c.specs().submit(&SpecSubmission::fast("x")).await.unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(3), "{status}");
        let reqs = received(&server).await;
        assert_eq!(reqs.len(), 2);
        assert_eq!(reqs[0].body, reqs[1].body);
    }
}

#[tokio::test(start_paused = true)]
async fn a_multipart_post_is_rebuilt_identically_for_its_retry() {
    let server = MockServer::start().await;
    script(
        &server,
        "POST",
        "/fast-spec",
        vec![
            json_status(429, json!({"error": "Too many requests"}))
                .insert_header("retry-after", "2"),
        ],
        json(fixture("specs/spec-accepted")),
    )
    .await;
    let c = client_with_retry(&server, policy());
    let submission = SpecSubmission {
        file: Some(FileUpload {
            file_name: "brief.txt".into(),
            mime: "text/plain".into(),
            bytes: bytes::Bytes::from_static(b"build a thing"),
        }),
        doc_urls: vec!["https://docs.example.com".into()],
        ..SpecSubmission::fast("")
    };
    c.specs().submit(&submission).await.unwrap();
    let reqs = received(&server).await;
    assert_eq!(reqs.len(), 2);
    assert_eq!(multipart(&reqs[0]), multipart(&reqs[1]));
    assert_eq!(multipart(&reqs[1]).len(), 4);
}

#[tokio::test(start_paused = true)]
async fn a_post_without_idempotency_key_is_not_retried_on_500_or_502() {
    let calls: Vec<(&str, u16)> = vec![
        ("/v1/rerank", 500),
        ("/v1/rerank", 502),
        ("/fast-spec", 500),
        ("/fast-spec", 502),
        ("/v1/messages", 502),
    ];
    for (route, status) in calls {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path(route))
            .respond_with(gateway_error(status, "upstream_unavailable"))
            .expect(1)
            .mount(&server)
            .await;
        let c = client_with_retry(&server, policy());
        let started = Instant::now();
        let err = match route {
            "/v1/rerank" => c.gateway().rerank(&rerank()).await.map(drop),
            "/fast-spec" => c
                .specs()
                .generate(&SpecSubmission::fast("x"))
                .await
                .map(drop),
            _ => {
                let req: MessagesRequest = serde_json::from_value(json!({
                    "model": "anthropic/claude-sonnet-4.5", "max_tokens": 5,
                    "messages": [{"role": "user", "content": "hi"}]
                }))
                .unwrap();
                c.gateway().messages(&req).await.map(drop)
            }
        }
        .unwrap_err();
        assert_eq!(err.status(), Some(status));
        assert_eq!(started.elapsed(), Duration::ZERO);
        assert_eq!(
            count(&server).await,
            1,
            "{route} {status}: exactly one request"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_browser_agent_post_refused_for_want_of_room_is_returned_at_once() {
    let server = MockServer::start().await;
    script(
        &server,
        "POST",
        "/api/v1/browser-agents",
        vec![json_status(429, json!({"error": "Too Many Requests"}))],
        json(fixture("agents/batch-accepted")),
    )
    .await;
    let c = client_with_retry(&server, policy());
    let task: BrowserTask = serde_json::from_value(json!({"url": "https://example.com"})).unwrap();
    let batch = c
        .agents()
        .prepare(vec![task], BatchOptions::default())
        .unwrap();
    let err = c.agents().start(&batch).await.unwrap_err();
    // The job runner decides what a 429 means for a batch (background, or wait for room).
    assert_eq!(err.status(), Some(429));
    assert_eq!(received(&server).await.len(), 1);
    // Asked again, the service takes it.
    c.agents().start(&batch).await.unwrap();
    assert_eq!(received(&server).await.len(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_browser_agent_post_carries_a_key_and_is_retried_on_500() {
    let server = MockServer::start().await;
    script(
        &server,
        "POST",
        "/api/v1/browser-agents",
        vec![
            json_status(500, json!({"error": "Internal error"})),
            json_status(502, json!({"error": "Bad gateway"})),
        ],
        json(fixture("agents/batch-accepted")),
    )
    .await;
    let c = client_with_retry(&server, policy());
    let task = task("https://example.com");
    let batch = c
        .agents()
        .prepare(vec![task], BatchOptions::default())
        .unwrap();
    let started = Instant::now();
    c.agents().start(&batch).await.unwrap();
    // Backoff with jitter: [1 s, 2 s) then [2 s, 4 s).
    let waited = started.elapsed();
    assert!(
        (Duration::from_secs(3)..Duration::from_secs(6)).contains(&waited),
        "{waited:?}"
    );
    let reqs = received(&server).await;
    assert_eq!(reqs.len(), 3);
    for req in &reqs {
        assert_eq!(
            common::header(req, "idempotency-key"),
            Some(batch.idempotency_key())
        );
        assert_eq!(req.body, reqs[0].body);
    }
    assert_eq!(
        reqs[0].body_json::<Value>().unwrap()["idempotencyKey"],
        json!(batch.idempotency_key())
    );
}

#[tokio::test(start_paused = true)]
async fn gets_are_retried_on_500_502_503_and_catalog_unavailable() {
    let server = MockServer::start().await;
    script(
        &server,
        "GET",
        "/get-plan",
        vec![
            json_status(502, json!({"error": "Bad gateway"})),
            json_status(500, json!({"error": "Failed to fetch plan"})),
            json_status(503, json!({"error": "Unavailable"})).insert_header("retry-after", "1"),
        ],
        json(fixture("plans/plan-response")),
    )
    .await;
    let c = client_with_retry(&server, policy());
    c.plans().get(&PlanRef::Spec(SPEC_ID.into())).await.unwrap();
    assert_eq!(count(&server).await, 4);

    // catalog_unavailable is retried whatever its status (the spec does not give one).
    for status in [503, 504] {
        let server = MockServer::start().await;
        script(
            &server,
            "GET",
            "/v1/models",
            vec![gateway_error(status, "catalog_unavailable").insert_header("retry-after", "60")],
            json(fixture("gateway/models")),
        )
        .await;
        let c = client_with_retry(&server, policy());
        let started = Instant::now();
        c.gateway().models().await.unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(60));
        assert_eq!(count(&server).await, 2);
    }
}

#[tokio::test(start_paused = true)]
async fn client_errors_are_never_retried() {
    for status in [400, 401, 402, 403, 404, 409, 422] {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/credits-balance"))
            .respond_with(
                json_status(status, json!({"error": "No"})).insert_header("retry-after", "1"),
            )
            .expect(1)
            .mount(&server)
            .await;
        let c = client_with_retry(&server, policy());
        let err = c.account().credits_balance().await.unwrap_err();
        assert_eq!(err.status(), Some(status));
        assert_eq!(count(&server).await, 1);
    }
}

#[tokio::test(start_paused = true)]
async fn attempts_are_bounded_by_max_retries() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/credits-balance"))
        .respond_with(
            json_status(502, json!({"error": "Bad gateway"})).insert_header("retry-after", "2"),
        )
        .expect(3)
        .mount(&server)
        .await;
    let c = client_with_retry(
        &server,
        RetryPolicy {
            max_retries: 2,
            ..policy()
        },
    );
    let started = Instant::now();
    let err = c.account().credits_balance().await.unwrap_err();
    assert_eq!(err.status(), Some(502));
    assert_eq!(err.kind(), ErrorKind::Server);
    assert_eq!(started.elapsed(), Duration::from_secs(4));
    assert_eq!(count(&server).await, 3);
}

#[tokio::test(start_paused = true)]
async fn a_retry_after_beyond_the_budget_returns_the_error_at_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(gateway_error(429, "rate_limit_exceeded").insert_header("retry-after", "600"))
        .expect(1)
        .mount(&server)
        .await;
    let c = client_with_retry(&server, policy());
    let started = Instant::now();
    let err = c.gateway().rerank(&rerank()).await.unwrap_err();
    assert_eq!(started.elapsed(), Duration::ZERO);
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert_eq!(err.retry_after(), Some(Duration::from_secs(600)));
    assert_eq!(
        err.to_string(),
        "Too many requests in a short time. Wait 10 minutes and try again."
    );
}

#[tokio::test(start_paused = true)]
async fn max_elapsed_bounds_the_total_time() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/credits-balance"))
        .respond_with(
            json_status(503, json!({"error": "Unavailable"})).insert_header("retry-after", "4"),
        )
        .expect(3)
        .mount(&server)
        .await;
    let c = client_with_retry(
        &server,
        RetryPolicy {
            max_retries: 10,
            max_elapsed: Duration::from_secs(10),
            ..policy()
        },
    );
    let started = Instant::now();
    let err = c.account().credits_balance().await.unwrap_err();
    // Attempts at 0, 4 and 8 s; a fourth would start at 12 s, past the 10 s budget.
    assert_eq!(started.elapsed(), Duration::from_secs(8));
    assert_eq!(err.status(), Some(503));
}

#[tokio::test]
async fn a_stream_request_is_retried_before_its_first_byte_but_never_replayed() {
    let server = MockServer::start().await;
    let events = [
        json!({"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant", "model": "x/y", "content": [], "usage": {}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}),
    ];
    let body: String = events
        .iter()
        .map(|e| frame(e["type"].as_str().unwrap(), e))
        .collect();
    script(
        &server,
        "POST",
        "/v1/messages",
        vec![gateway_error(429, "rate_limit_exceeded").insert_header("retry-after", "0")],
        sse(body),
    )
    .await;
    let c = client_with_retry(&server, policy());
    let req: MessagesRequest = serde_json::from_value(json!({
        "model": "x/y", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]
    }))
    .unwrap();
    let stream = c.gateway().messages_stream(&req).await.unwrap();
    let err = stream.collect_message().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Stream);
    // The 429 was retried; the stream that broke after its first events was not.
    assert_eq!(count(&server).await, 2);
}

// ---- the gateway's client-side rate limiter ----

#[tokio::test(start_paused = true)]
async fn on_a_trial_workspace_the_31st_call_waits_for_the_window() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(rerank_ok())
        .expect(31)
        .mount(&server)
        .await;
    let c = Client::new(config(&server).trial_workspace()).unwrap();
    assert_eq!(c.config().gateway_requests_per_minute, 30);
    let started = Instant::now();
    for i in 0..30 {
        c.gateway().rerank(&rerank()).await.unwrap();
        assert_eq!(started.elapsed(), Duration::ZERO, "call {}", i + 1);
    }
    tokio::time::advance(Duration::from_secs(20)).await;
    c.gateway().rerank(&rerank()).await.unwrap();
    assert_eq!(started.elapsed(), Duration::from_secs(60));
    assert_eq!(count(&server).await, 31);
}

#[tokio::test(start_paused = true)]
async fn a_free_key_refused_at_its_31st_call_is_kept_to_30_a_minute_from_then_on() {
    // A workspace not marked as a trial: the service refuses its 31st call in a minute for the
    // rate, which only the trial's allowance explains (a paid one allows 600).
    let server = MockServer::start().await;
    let mut failures = vec![];
    for _ in 0..30 {
        failures.push(rerank_ok());
    }
    failures.push(gateway_error(429, "rate_limit_exceeded").insert_header("retry-after", "60"));
    script(&server, "POST", "/v1/rerank", failures, rerank_ok()).await;
    let c = Client::new(config(&server).with_retry(policy())).unwrap();
    let started = Instant::now();
    for _ in 0..30 {
        c.gateway().rerank(&rerank()).await.unwrap();
    }
    assert!(!c.is_trial());
    assert_eq!(started.elapsed(), Duration::ZERO);
    // The 31st is refused once, the trial learnt, and it goes through after the wait.
    c.gateway().rerank(&rerank()).await.unwrap();
    assert!(c.is_trial());
    assert!(c.clone().is_trial(), "clones share the limiter");
    let learnt = started.elapsed();
    assert_eq!(learnt, Duration::from_secs(60));
    assert_eq!(count(&server).await, 32);
    // From then on the client keeps to 30 a minute: the next burst's 31st call waits for the
    // window instead of earning a 429.
    for _ in 0..29 {
        c.gateway().rerank(&rerank()).await.unwrap();
    }
    assert_eq!(
        started.elapsed(),
        learnt,
        "30 calls in this minute, none waited"
    );
    c.gateway().rerank(&rerank()).await.unwrap();
    assert_eq!(started.elapsed(), learnt + Duration::from_secs(60));
    assert_eq!(count(&server).await, 62, "no call was refused again");
}

#[tokio::test(start_paused = true)]
async fn a_used_up_trial_marks_the_workspace_as_a_trial() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(json_status(
            402,
            json!({"error": {"message": "trial used up", "type": "invalid_request_error",
                "code": "subscription_required", "param": null,
                "svc": {"trial_credits_used": 5.02, "topup_url": "https://example.com/topup"}}}),
        ))
        .mount(&server)
        .await;
    let c = client(&server);
    let err = c.gateway().rerank(&rerank()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SubscriptionRequired);
    assert!(c.is_trial());
}

#[tokio::test(start_paused = true)]
async fn a_paid_workspace_refused_for_the_rate_after_many_calls_stays_at_600() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(rerank_ok())
        .up_to_n_times(31)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(gateway_error(429, "rate_limit_exceeded").insert_header("retry-after", "5"))
        .mount(&server)
        .await;
    let c = Client::new(config(&server).with_retry(RetryPolicy::none())).unwrap();
    for _ in 0..31 {
        c.gateway().rerank(&rerank()).await.unwrap();
    }
    let err = c.gateway().rerank(&rerank()).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RateLimited);
    assert!(!c.is_trial());
}

#[tokio::test(start_paused = true)]
async fn a_concurrent_burst_waits_for_the_window() {
    // (Limited calls and calls in flight are kept in separate phases: with a paused clock,
    // tokio jumps to the next timer whenever it would otherwise wait for real I/O.)
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(rerank_ok())
        .expect(35)
        .mount(&server)
        .await;
    let c = Client::new(config(&server).trial_workspace()).unwrap();
    let started = Instant::now();
    let burst = |n: usize| {
        futures::future::join_all((0..n).map(|_| {
            let c = c.clone();
            async move {
                c.gateway().rerank(&rerank()).await.unwrap();
                started.elapsed()
            }
        }))
    };
    assert_eq!(burst(30).await, vec![Duration::ZERO; 30]);
    assert_eq!(burst(5).await, vec![Duration::from_secs(60); 5]);
}

#[tokio::test(start_paused = true)]
async fn catalog_reads_are_not_rate_limited() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(rerank_ok())
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(json(fixture("gateway/models")))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .respond_with(json(fixture("gateway/public-catalog")))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/images/models"))
        .respond_with(json(fixture("gateway/image-models")))
        .mount(&server)
        .await;
    let c = Client::new(config(&server).trial_workspace()).unwrap();
    let started = Instant::now();
    for _ in 0..30 {
        c.gateway().rerank(&rerank()).await.unwrap();
    }
    for _ in 0..5 {
        c.gateway().models().await.unwrap();
        c.gateway().public_catalog().await.unwrap();
        c.gateway().image_models().await.unwrap();
    }
    assert_eq!(started.elapsed(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn the_default_limit_is_600_a_minute() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(rerank_ok())
        .expect(601)
        .mount(&server)
        .await;
    let c = client(&server);
    assert_eq!(c.config().gateway_requests_per_minute, 600);
    let started = Instant::now();
    let calls = (0..600).map(|_| {
        let c = c.clone();
        async move { c.gateway().rerank(&rerank()).await }
    });
    futures::future::try_join_all(calls).await.unwrap();
    assert_eq!(started.elapsed(), Duration::ZERO);
    c.gateway().rerank(&rerank()).await.unwrap();
    assert_eq!(started.elapsed(), Duration::from_secs(60));
}
