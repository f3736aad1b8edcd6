//! Every row of every error table of the spec decoded into the right `Error`: kind, status,
//! typed REST / gateway fields, `Retry-After`, request id, and a plain `Display` that never
//! carries the key.

mod common;

use std::time::Duration;

use common::batches::task;
use common::*;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use specdesk_client::types::{GatewayErrorCode, RerankRequest, SpecStatus};
use specdesk_client::{
    ApiError, BatchOptions, Client, Error, ErrorBody, ErrorKind, PlanRef, RetryPolicy,
    SpecListQuery, SpecSubmission,
};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Which endpoint a row belongs to.
#[derive(Clone, Copy, Debug)]
enum Area {
    Plan,
    Credits,
    Agents,
    DeepSpec,
    ListSpecs,
    Gateway,
    Catalog,
}

impl Area {
    fn route(self) -> (&'static str, &'static str) {
        match self {
            Area::Plan => ("GET", "/get-plan"),
            Area::Credits => ("GET", "/credits-balance"),
            Area::Agents => ("POST", "/api/v1/browser-agents"),
            Area::DeepSpec => ("POST", "/deep-spec"),
            Area::ListSpecs => ("GET", "/list-specs"),
            Area::Gateway => ("POST", "/v1/rerank"),
            Area::Catalog => ("GET", "/v1/models"),
        }
    }

    async fn call(self, c: &Client) -> Error {
        match self {
            Area::Plan => c
                .plans()
                .get(&PlanRef::Spec(SPEC_ID.into()))
                .await
                .map(drop),
            Area::Credits => c.account().credits_balance().await.map(drop),
            Area::Agents => {
                let task = task("https://example.com");
                let batch = c
                    .agents()
                    .prepare(vec![task], BatchOptions::default())
                    .unwrap();
                c.agents().run(&batch).await.map(drop)
            }
            Area::DeepSpec => c
                .specs()
                .generate(&SpecSubmission::deep("x"))
                .await
                .map(drop),
            Area::ListSpecs => c
                .specs()
                .list(&SpecListQuery {
                    status: Some(SpecStatus::Completed),
                    ..Default::default()
                })
                .await
                .map(drop),
            Area::Gateway => c
                .gateway()
                .rerank(&RerankRequest {
                    model: "cohere/rerank-v3.5".into(),
                    query: "q".into(),
                    documents: vec!["d".into()],
                    top_n: None,
                })
                .await
                .map(drop),
            Area::Catalog => c.gateway().models().await.map(drop),
        }
        .expect_err("the call fails")
    }
}

/// Serves one error answer for `area` and returns what the client made of it (no retries).
async fn answer(area: Area, template: ResponseTemplate) -> Error {
    let server = MockServer::start().await;
    let (verb, route) = area.route();
    Mock::given(method(verb))
        .and(path(route))
        .respond_with(template)
        .expect(1)
        .mount(&server)
        .await;
    let err = area.call(&client(&server)).await;
    assert_key_hidden(&err);
    err
}

async fn rest(area: Area, status: u16, body: Value) -> Error {
    answer(
        area,
        ResponseTemplate::new(status)
            .set_body_json(body)
            .insert_header("x-svc-request-id", "req_err_1"),
    )
    .await
}

fn assert_key_hidden(err: &Error) {
    let display = err.to_string();
    let debug = format!("{err:?}");
    for text in [&display, &debug] {
        assert!(!text.contains(KEY), "key leaked: {text}");
        assert!(!text.contains("SECRET"), "key leaked: {text}");
    }
    assert!(!display.is_empty());
}

fn api(err: &Error) -> &ApiError {
    err.api()
        .unwrap_or_else(|| panic!("not an API error: {err:?}"))
}

/// The REST body of an error, with every field checked against `expected`.
fn assert_rest(err: &Error, status: u16, kind: ErrorKind, expected: Value) {
    let a = api(err);
    assert_eq!(a.status, status);
    assert_eq!(err.status(), Some(status));
    assert_eq!(err.kind(), kind, "{expected}");
    let ErrorBody::Rest(r) = &a.body else {
        panic!("not a REST body: {:?}", a.body)
    };
    assert_eq!(serde_json::to_value(r).unwrap(), expected);
    assert_eq!(a.rest_error(), expected["error"].as_str());
    assert_eq!(err.request_id(), Some("req_err_1"));
}

// ---- GET /get-plan ----

#[tokio::test]
async fn plan_errors() {
    let rows: Vec<(u16, Value, ErrorKind, &str)> = vec![
        (
            400,
            json!({"error": "Invalid request", "message": "Give exactly one of specId and projectId"}),
            ErrorKind::InvalidInput,
            "The service refused the request: Give exactly one of specId and projectId. Check what you entered and try again.",
        ),
        (
            400,
            json!({"error": "Invalid ID", "message": "specId must be 24 hexadecimal characters"}),
            ErrorKind::InvalidInput,
            "The service refused the request: specId must be 24 hexadecimal characters. Check what you entered and try again.",
        ),
        (
            401,
            json!({"error": "Missing API key", "message": "Send your key"}),
            ErrorKind::MissingKey,
            "The service needs an API key for this. Add your key in Settings, then try again.",
        ),
        (
            401,
            json!({"error": "Authentication failed", "message": "Invalid API key"}),
            ErrorKind::InvalidKey,
            "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.",
        ),
        (
            401,
            json!({"error": "Authentication failed", "message": "Plans need a paid plan; this key has none."}),
            ErrorKind::SubscriptionRequired,
            "This needs a paid plan. Upgrade your plan to use it. (The service said: Plans need a paid plan; this key has none.)",
        ),
        (
            404,
            json!({"error": "Project not found", "message": "Project not found"}),
            ErrorKind::NotFound,
            "The service could not find that. It may have been deleted, or it belongs to another account. (The service said: Project not found)",
        ),
        (
            404,
            json!({"error": "No project yet", "message": "The spec has not created a project yet"}),
            ErrorKind::NotFound,
            "This spec has no project yet. Wait until the spec is completed, then open its plan again.",
        ),
        (
            404,
            json!({"error": "Not available", "message": "Plans are turned off"}),
            ErrorKind::NotFound,
            "This is not available right now. Try again later. (The service said: Plans are turned off)",
        ),
        (
            500,
            json!({"error": "Failed to fetch plan", "message": "Failed to fetch plan"}),
            ErrorKind::Server,
            "The service had a problem (HTTP 500). Try again in a moment; if it keeps happening, contact support with request id req_err_1.",
        ),
    ];
    for (status, body, kind, display) in rows {
        let err = rest(Area::Plan, status, body.clone()).await;
        assert_rest(&err, status, kind, body);
        assert_eq!(err.to_string(), display);
        assert_eq!(err.retry_after(), None);
    }
}

#[tokio::test]
async fn plan_errors_with_only_the_documented_error_field() {
    // The spec's table gives `error` only; `message` is optional.
    for (status, error, kind) in [
        (400, "Invalid request", ErrorKind::InvalidInput),
        (400, "Invalid ID", ErrorKind::InvalidInput),
        (401, "Missing API key", ErrorKind::MissingKey),
        (401, "Authentication failed", ErrorKind::InvalidKey),
        (404, "Project not found", ErrorKind::NotFound),
        (404, "No project yet", ErrorKind::NotFound),
        (404, "Not available", ErrorKind::NotFound),
        (500, "Failed to fetch plan", ErrorKind::Server),
    ] {
        let body = json!({ "error": error });
        let err = rest(Area::Plan, status, body.clone()).await;
        assert_rest(&err, status, kind, body);
    }
}

// ---- GET /credits-balance ----

#[tokio::test]
async fn credits_errors() {
    // 400 with no documented body.
    let err = answer(Area::Credits, ResponseTemplate::new(400)).await;
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert_eq!(api(&err).body, ErrorBody::Raw(String::new()));
    assert_eq!(
        err.to_string(),
        "The service refused the request (HTTP 400). Check what you entered and try again."
    );

    let rows: Vec<(u16, Value, ErrorKind)> = vec![
        (
            401,
            json!({"error": "Unauthorized", "message": "Invalid API key"}),
            ErrorKind::InvalidKey,
        ),
        (
            401,
            json!({"error": "Missing context", "message": "The user or organization could not be determined from the key"}),
            ErrorKind::InvalidKey,
        ),
        (
            403,
            json!({"error": "Missing context", "message": "The user or organization could not be determined from the key"}),
            ErrorKind::InvalidKey,
        ),
        (
            400,
            json!({"error": "Missing context"}),
            ErrorKind::InvalidKey,
        ),
        (
            500,
            json!({"error": "Failed to retrieve credits balance"}),
            ErrorKind::Server,
        ),
    ];
    for (status, body, kind) in rows {
        let err = rest(Area::Credits, status, body.clone()).await;
        assert_rest(&err, status, kind, body);
    }
    let err = rest(
        Area::Credits,
        401,
        json!({"error": "Unauthorized", "message": "Invalid API key"}),
    )
    .await;
    assert_eq!(
        err.to_string(),
        "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings."
    );
}

// ---- browser agents ----

#[tokio::test]
async fn browser_agent_errors() {
    let rows: Vec<(u16, Value, ErrorKind)> = vec![
        (
            400,
            json!({"error": "Invalid request", "message": "tasks must be an array"}),
            ErrorKind::InvalidInput,
        ),
        (
            400,
            json!({"error": "Invalid request", "message": "At most 1000 tasks"}),
            ErrorKind::InvalidInput,
        ),
        (
            400,
            json!({"error": "Invalid request", "message": "tasks[0].url is required"}),
            ErrorKind::InvalidInput,
        ),
        (
            401,
            json!({"error": "Missing API key", "message": "Send Authorization: Bearer"}),
            ErrorKind::MissingKey,
        ),
        (
            401,
            json!({"error": "Authentication failed", "message": "Invalid API key"}),
            ErrorKind::InvalidKey,
        ),
        (
            402,
            json!({"error": "Insufficient credits", "message": "This batch needs 100 credits; 12.5 remain", "code": "INSUFFICIENT_CREDITS", "actionUrl": "https://svc.example/billing"}),
            ErrorKind::InsufficientCredits,
        ),
        (
            429,
            json!({"error": "Too many tasks", "message": "More than 5000 tasks in flight"}),
            ErrorKind::RateLimited,
        ),
        (
            429,
            json!({"error": "Stream capacity reached", "message": "Try again shortly"}),
            ErrorKind::RateLimited,
        ),
        (
            500,
            json!({"error": "Internal error", "message": "Something broke"}),
            ErrorKind::Server,
        ),
    ];
    for (status, body, kind) in rows {
        let err = rest(Area::Agents, status, body.clone()).await;
        assert_rest(&err, status, kind, body);
    }
    let err = rest(
        Area::Agents,
        402,
        json!({"error": "Insufficient credits", "message": "This batch needs 100 credits; 12.5 remain", "actionUrl": "https://svc.example/billing"}),
    )
    .await;
    assert_eq!(err.action_url(), Some("https://svc.example/billing"));
    assert_eq!(
        err.to_string(),
        "You do not have enough credits for this. Top up your balance, then try again. (The service said: This batch needs 100 credits; 12.5 remain)"
    );
}

#[tokio::test]
async fn browser_agent_errors_of_unknown_shape_follow_the_status() {
    // The spec does not show the agents' error body: anything is classified by status.
    for (status, kind) in [
        (400, ErrorKind::InvalidInput),
        (401, ErrorKind::InvalidKey),
        (402, ErrorKind::InsufficientCredits),
        (429, ErrorKind::RateLimited),
        (500, ErrorKind::Server),
    ] {
        let err = answer(
            Area::Agents,
            ResponseTemplate::new(status).set_body_raw("<html>nope</html>", "text/html"),
        )
        .await;
        assert_eq!(err.kind(), kind, "{status}");
        assert_eq!(api(&err).body, ErrorBody::Raw("<html>nope</html>".into()));
        assert_eq!(api(&err).rest_error(), None);
        assert_eq!(api(&err).gateway_code(), None);
    }
    let err = answer(
        Area::Agents,
        ResponseTemplate::new(429)
            .insert_header("retry-after", "30")
            .set_body_string("slow down"),
    )
    .await;
    assert_eq!(err.retry_after(), Some(Duration::from_secs(30)));
    assert_eq!(
        err.to_string(),
        "Too many requests in a short time. Wait 30 seconds and try again."
    );
}

// ---- spec, list and find ----

#[tokio::test]
async fn spec_and_list_errors() {
    let full = json!({
        "error": "Subscription required",
        "message": "Deep specs need a paid plan",
        "code": "SUBSCRIPTION_REQUIRED",
        "actionUrl": "https://svc.example/pricing",
        "requiresSubscription": true,
        "trialsUsed": 3,
        "maxTrials": 3
    });
    let err = rest(Area::DeepSpec, 402, full.clone()).await;
    assert_rest(&err, 402, ErrorKind::SubscriptionRequired, full);
    let ErrorBody::Rest(r) = &api(&err).body else {
        unreachable!()
    };
    assert_eq!(r.code.as_deref(), Some("SUBSCRIPTION_REQUIRED"));
    assert_eq!(r.requires_subscription, Some(true));
    assert_eq!((r.trials_used, r.max_trials), (Some(3), Some(3)));
    assert_eq!(err.action_url(), Some("https://svc.example/pricing"));
    assert_eq!(
        err.to_string(),
        "This needs a paid plan. Upgrade your plan to use it. (The service said: Deep specs need a paid plan)"
    );

    // Further fields are kept, not refused.
    let extra =
        json!({"error": "Subscription required", "requiresSubscription": true, "tier": "free"});
    let err = rest(Area::DeepSpec, 403, extra.clone()).await;
    assert_rest(&err, 403, ErrorKind::SubscriptionRequired, extra);

    for (status, body, kind) in [
        (
            401,
            json!({"error": "Missing API key", "message": "No key"}),
            ErrorKind::MissingKey,
        ),
        (
            401,
            json!({"error": "Authentication failed", "message": "Invalid API key"}),
            ErrorKind::InvalidKey,
        ),
        (
            400,
            json!({"error": "Invalid request", "message": "limit must be between 1 and 100"}),
            ErrorKind::InvalidInput,
        ),
        (
            402,
            json!({"error": "Insufficient credits", "message": "Not enough credits"}),
            ErrorKind::InsufficientCredits,
        ),
    ] {
        let err = rest(Area::ListSpecs, status, body.clone()).await;
        assert_rest(&err, status, kind, body);
    }
}

// ---- gateway ----

fn gateway_body(code: Option<&str>, kind: &str, message: &str, svc: Value) -> Value {
    json!({"error": {"message": message, "type": kind, "code": code, "param": null, "svc": svc}})
}

struct GatewayRow {
    status: u16,
    code: GatewayErrorCode,
    error_type: &'static str,
    svc: Value,
    retry_after: Option<&'static str>,
    kind: ErrorKind,
    display: &'static str,
}

#[tokio::test]
async fn gateway_errors() {
    let rows = vec![
        GatewayRow {
            status: 401,
            code: GatewayErrorCode::MissingApiKey,
            error_type: "authentication_error",
            svc: json!({}),
            retry_after: None,
            kind: ErrorKind::MissingKey,
            display: "The service needs an API key for this. Add your key in Settings, then try again.",
        },
        GatewayRow {
            status: 401,
            code: GatewayErrorCode::InvalidApiKey,
            error_type: "authentication_error",
            svc: json!({}),
            retry_after: None,
            kind: ErrorKind::InvalidKey,
            display: "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.",
        },
        GatewayRow {
            status: 402,
            code: GatewayErrorCode::InsufficientCredits,
            error_type: "billing_error",
            svc: json!({"credits_remaining": 0, "estimated_credits": 0.35, "topup_url": "https://svc.example/topup"}),
            retry_after: None,
            kind: ErrorKind::InsufficientCredits,
            display: "You have 0 credits left and this needs about 0.35. Top up your balance, then try again.",
        },
        GatewayRow {
            status: 402,
            code: GatewayErrorCode::SubscriptionRequired,
            error_type: "billing_error",
            svc: json!({"trial_credits_used": 5.2, "topup_url": "https://svc.example/subscribe"}),
            retry_after: None,
            kind: ErrorKind::SubscriptionRequired,
            display: "Your free trial is used up (5.2 credits). Subscribe to keep using the AI gateway.",
        },
        GatewayRow {
            status: 429,
            code: GatewayErrorCode::RateLimitExceeded,
            error_type: "rate_limit_error",
            svc: json!({}),
            retry_after: Some("17"),
            kind: ErrorKind::RateLimited,
            display: "Too many requests in a short time. Wait 17 seconds and try again.",
        },
        GatewayRow {
            status: 503,
            code: GatewayErrorCode::BalanceUnavailable,
            error_type: "server_error",
            svc: json!({}),
            retry_after: Some("2"),
            kind: ErrorKind::Server,
            display: "Your balance could not be checked just now. Try again in a moment.",
        },
        GatewayRow {
            status: 404,
            code: GatewayErrorCode::NotFound,
            error_type: "invalid_request_error",
            svc: json!({}),
            retry_after: None,
            kind: ErrorKind::NotFound,
            display: "The service could not find that. It may have been deleted, or it belongs to another account. (The service said: No such job.)",
        },
        GatewayRow {
            status: 502,
            code: GatewayErrorCode::UpstreamUnavailable,
            error_type: "upstream_error",
            svc: json!({}),
            retry_after: None,
            kind: ErrorKind::Server,
            display: "The AI model's provider did not answer. Try again in a moment, or pick another model.",
        },
        GatewayRow {
            status: 500,
            code: GatewayErrorCode::InternalError,
            error_type: "server_error",
            svc: json!({}),
            retry_after: None,
            kind: ErrorKind::Server,
            display: "The service had a problem (HTTP 500). Try again in a moment; if it keeps happening, contact support with request id req_err_1.",
        },
        GatewayRow {
            status: 503,
            code: GatewayErrorCode::CatalogUnavailable,
            error_type: "server_error",
            svc: json!({}),
            retry_after: None,
            kind: ErrorKind::Server,
            display: "The model list is being refreshed. Try again in a minute.",
        },
    ];
    for row in rows {
        let message = if row.code == GatewayErrorCode::NotFound {
            "No such job."
        } else {
            "Something happened."
        };
        let body = gateway_body(
            Some(row.code.as_str()),
            row.error_type,
            message,
            row.svc.clone(),
        );
        let mut template = ResponseTemplate::new(row.status)
            .set_body_json(&body)
            .insert_header("x-svc-request-id", "req_err_1");
        if let Some(secs) = row.retry_after {
            template = template.insert_header("retry-after", secs);
        }
        let area = if row.code == GatewayErrorCode::CatalogUnavailable {
            Area::Catalog
        } else {
            Area::Gateway
        };
        let err = answer(area, template).await;
        let a = api(&err);
        assert_eq!(a.status, row.status);
        assert_eq!(err.kind(), row.kind, "{}", row.code);
        assert_eq!(a.gateway_code(), Some(&row.code));
        let ErrorBody::Gateway(g) = &a.body else {
            panic!("not a gateway body: {:?}", a.body)
        };
        assert_eq!(g.message, message);
        assert_eq!(g.error_type.as_deref(), Some(row.error_type));
        assert_eq!(g.param, None);
        let svc = g.svc.clone().expect("svc object");
        assert_eq!(svc, serde_json::from_value(row.svc.clone()).unwrap());
        assert_eq!(
            err.retry_after(),
            row.retry_after
                .map(|s| Duration::from_secs(s.parse().unwrap()))
        );
        assert_eq!(err.request_id(), Some("req_err_1"));
        assert_eq!(err.to_string(), row.display, "{}", row.code);
        assert_eq!(
            err.action_url(),
            row.svc["topup_url"].as_str(),
            "{}",
            row.code
        );
    }
}

#[tokio::test]
async fn gateway_svc_fields_are_typed() {
    let err = answer(
        Area::Gateway,
        ResponseTemplate::new(402).set_body_json(gateway_body(
            Some("insufficient_credits"),
            "billing_error",
            "No credits",
            json!({"credits_remaining": 1.5, "estimated_credits": 2.25, "topup_url": "https://svc.example/t", "auto_recharge": false}),
        )),
    )
    .await;
    let ErrorBody::Gateway(g) = &api(&err).body else {
        unreachable!()
    };
    let svc = g.svc.as_ref().unwrap();
    assert_eq!(svc.credits_remaining, Some(1.5));
    assert_eq!(svc.estimated_credits, Some(2.25));
    assert_eq!(svc.topup_url.as_deref(), Some("https://svc.example/t"));
    assert_eq!(svc.trial_credits_used, None);
    assert_eq!(svc.extra.get("auto_recharge"), Some(&json!(false)));

    let err = answer(
        Area::Gateway,
        ResponseTemplate::new(402).set_body_json(gateway_body(
            Some("subscription_required"),
            "billing_error",
            "Trial used up",
            json!({"trial_credits_used": 5, "topup_url": "https://svc.example/s"}),
        )),
    )
    .await;
    let ErrorBody::Gateway(g) = &api(&err).body else {
        unreachable!()
    };
    assert_eq!(g.svc.as_ref().unwrap().trial_credits_used, Some(5.0));
    assert_eq!(err.action_url(), Some("https://svc.example/s"));
}

#[tokio::test]
async fn catalog_unavailable_on_any_status_is_a_server_error() {
    let err = answer(
        Area::Catalog,
        ResponseTemplate::new(500).set_body_json(gateway_body(
            Some("catalog_unavailable"),
            "server_error",
            "Refreshing",
            json!({}),
        )),
    )
    .await;
    assert_eq!(err.kind(), ErrorKind::Server);
    assert!(api(&err).is_retryable());
    assert_eq!(
        err.to_string(),
        "The model list is being refreshed. Try again in a minute."
    );
}

#[tokio::test]
async fn provider_errors_pass_through_with_their_status_and_message() {
    let err = answer(
        Area::Gateway,
        ResponseTemplate::new(400).set_body_json(json!({"error": {"message": "max_tokens: must be at least 1", "type": "invalid_request_error", "code": null, "param": "max_tokens"}})),
    )
    .await;
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert_eq!(api(&err).gateway_code(), None);
    assert_eq!(
        err.to_string(),
        "The service refused the request: max_tokens: must be at least 1. Check what you entered and try again."
    );

    let err = answer(
        Area::Gateway,
        ResponseTemplate::new(404).set_body_json(gateway_body(
            Some("model_not_found"),
            "invalid_request_error",
            "Unknown model acme/nope",
            json!({}),
        )),
    )
    .await;
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert_eq!(
        api(&err).gateway_code(),
        Some(&GatewayErrorCode::Unknown("model_not_found".into()))
    );

    let err = answer(
        Area::Gateway,
        ResponseTemplate::new(422).set_body_json(gateway_body(
            None,
            "invalid_request_error",
            "temperature: rejected",
            json!({}),
        )),
    )
    .await;
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    assert_eq!(err.status(), Some(422));
}

#[tokio::test]
async fn retry_after_as_an_http_date() {
    let when = std::time::SystemTime::now() + Duration::from_secs(120);
    let err = answer(
        Area::Gateway,
        ResponseTemplate::new(429)
            .insert_header("retry-after", httpdate_fmt(when).as_str())
            .set_body_json(gateway_body(
                Some("rate_limit_exceeded"),
                "rate_limit_error",
                "Slow down",
                json!({}),
            )),
    )
    .await;
    let wait = err.retry_after().unwrap();
    assert!(
        (Duration::from_secs(100)..=Duration::from_secs(120)).contains(&wait),
        "{wait:?}"
    );
    assert_eq!(
        err.to_string(),
        "Too many requests in a short time. Wait 2 minutes and try again."
    );
}

fn httpdate_fmt(t: std::time::SystemTime) -> String {
    // IMF-fixdate, computed by hand to avoid a dependency.
    let secs = t.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][(days % 7) as usize];
    // Civil date from days since the epoch (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{weekday}, {d:02} {} {year} {h:02}:{m:02}:{s:02} GMT",
        months[(month - 1) as usize]
    )
}

// ---- local failures ----

#[tokio::test]
async fn transport_decode_and_missing_key_errors() {
    // Nothing listens on a port that was just freed.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut cfg = specdesk_client::ClientConfig::new(&format!("http://127.0.0.1:{port}"))
        .unwrap()
        .with_api_key(KEY.to_owned())
        .with_retry(RetryPolicy::none());
    cfg.connect_timeout = None;
    let err = Client::new(cfg)
        .unwrap()
        .account()
        .credits_balance()
        .await
        .unwrap_err();
    assert_key_hidden(&err);
    assert_eq!(err.kind(), ErrorKind::Network);
    assert!(
        matches!(err, Error::Transport { connect: true, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("Specdesk could not reach the service ("),
        "{err}"
    );
    assert!(
        err.to_string().ends_with(
            "Check your internet connection and the connection's address in Settings, then try again."
        ),
        "{err}"
    );

    // A 200 that is not the documented shape.
    let err = answer(
        Area::Credits,
        ResponseTemplate::new(200).set_body_raw("<html>captive portal</html>", "text/html"),
    )
    .await;
    assert_eq!(err.kind(), ErrorKind::Decode);
    let Error::Decode { status, body, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (*status, body.as_str()),
        (200, "<html>captive portal</html>")
    );
    assert_eq!(
        err.to_string(),
        "The service sent an answer Specdesk could not read (HTTP 200). Try again; if it keeps happening, update Specdesk."
    );

    // No key configured: refused before sending.
    let server = MockServer::start().await;
    let mut cfg = specdesk_client::ClientConfig::new(&server.uri()).unwrap();
    cfg.connect_timeout = None;
    let err = Client::new(cfg)
        .unwrap()
        .account()
        .credits_balance()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MissingKey);
    assert_eq!(
        err.to_string(),
        "This connection has no API key. Add your key in Settings, then try again."
    );
    assert!(received(&server).await.is_empty());
}

#[tokio::test]
async fn a_stream_answered_with_json_is_a_decode_error() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(json(json!({"id": "msg"})))
        .mount(&server)
        .await;
    let request: specdesk_client::types::MessagesRequest = serde_json::from_value(json!({
        "model": "anthropic/claude-sonnet-4.5",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": "hi"}]
    }))
    .unwrap();
    let err = match client(&server).gateway().messages_stream(&request).await {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    };
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert_key_hidden(&err);
}

#[test]
fn kinds_have_stable_ipc_names() {
    let names: Vec<&str> = [
        ErrorKind::MissingKey,
        ErrorKind::InvalidKey,
        ErrorKind::InsufficientCredits,
        ErrorKind::SubscriptionRequired,
        ErrorKind::RateLimited,
        ErrorKind::NotFound,
        ErrorKind::InvalidInput,
        ErrorKind::Network,
        ErrorKind::Server,
        ErrorKind::Decode,
        ErrorKind::Stream,
        ErrorKind::Cancelled,
    ]
    .iter()
    .map(|k| k.as_str())
    .collect();
    assert_eq!(
        names,
        [
            "missingKey",
            "invalidKey",
            "insufficientCredits",
            "subscriptionRequired",
            "rateLimited",
            "notFound",
            "invalidInput",
            "network",
            "server",
            "decode",
            "stream",
            "cancelled"
        ]
    );
}

#[test]
fn client_and_config_debug_never_show_the_key() {
    let cfg = specdesk_client::ClientConfig::new("https://api.example.com")
        .unwrap()
        .with_api_key(KEY.to_owned());
    let c = Client::new(cfg.clone()).unwrap();
    for text in [
        format!("{cfg:?}"),
        format!("{c:?}"),
        format!("{:?}", c.config()),
    ] {
        assert!(!text.contains(KEY), "{text}");
        assert!(text.contains("[redacted]"), "{text}");
    }
}
